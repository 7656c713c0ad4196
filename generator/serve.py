"""`rulebook serve`: the built site over HTTP, and with `--watch`, a site that follows the edits.

Watching polls the modification times of the content folder (and of the tool's themes/ and
locale/, when the tool is a checkout) every tenth of a second; a change is validated and
rebuilt in this very process, so Sphinx, the schema and the templates stay loaded, and the
cache (generator/cache.py) narrows the rebuild to the games that changed. Open pages follow
through a Server-Sent Events stream (`/_rulebook/events`): after a good build they reload;
after one with errors they show the diagnostics over the page, which stays the last good one
(a failed build never touches the site). The script and its style are served as same-origin
files (`/_rulebook/live.js`, `live.css`) and named in every HTML response while watching, so
the pages' Content-Security-Policy (`script-src 'self'; style-src 'self'`) holds unchanged;
nothing of it is ever written into the site (docs/builds.md, "Watching")."""

from __future__ import annotations

import functools
import gc
import http.server
import json
import os
import sys
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlsplit

LIVE = Path(__file__).resolve().parent.parent / "themes" / "live"
PREFIX = "/_rulebook/"
POLL = 0.1  # seconds between two looks at the watched files
SETTLE = 0.03  # a change is built once the files stayed alike this long (an editor writes in steps)


class State:
    """What the open pages are told: the number of the site's last good build, whether the last
    attempt failed, and its diagnostics. Handlers wait on it; the watcher publishes."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.built = 0  # good builds so far: a page older than this reloads
        self.status = "ok"  # or "errors"
        self.diagnostics: list[dict] = []
        self.serial = 0  # every publication
        self.closed = False

    def publish(self, status: str, diagnostics: list, built: bool) -> None:
        with self.cond:
            self.built += built
            self.status = status
            self.diagnostics = [_plain(d) for d in diagnostics]
            self.serial += 1
            self.cond.notify_all()

    def close(self) -> None:
        with self.cond:
            self.closed = True
            self.cond.notify_all()

    def message(self) -> str:
        return json.dumps({"built": self.built, "status": self.status, "diagnostics": self.diagnostics},
                          ensure_ascii=False)

    def wait(self, serial: int, timeout: float) -> tuple[int, str] | None:
        """The next publication after `serial` as (serial, JSON), or None on timeout or close."""
        with self.cond:
            self.cond.wait_for(lambda: self.serial != serial or self.closed, timeout)
            if self.closed or self.serial == serial:
                return None
            return self.serial, self.message()


def _plain(d) -> dict:
    return {"code": d.code, "severity": d.severity.value, "file": d.file, "line": d.line, "column": d.column,
            "location": d.location, "message": d.message, "hint": d.hint}


class Handler(http.server.SimpleHTTPRequestHandler):
    """The static site; while watching (`state` set), also the live script, its stream, and HTML
    pages that name the script."""

    state: State | None = None

    def log_message(self, format, *args):  # noqa: A002 (the base class's name)
        if self.state is None:  # while watching, the terminal is for diagnostics, not for requests
            super().log_message(format, *args)

    def do_GET(self):  # noqa: N802 (http.server's naming)
        if self.state is not None and self._live(head=False):
            return
        super().do_GET()

    def do_HEAD(self):  # noqa: N802
        if self.state is not None and self._live(head=True):
            return
        super().do_HEAD()

    def _live(self, head: bool) -> bool:
        path = unquote(urlsplit(self.path).path)
        if path == PREFIX + "events":
            self._events(head)
            return True
        if path in (PREFIX + "live.js", PREFIX + "live.css"):
            kind = "text/javascript" if path.endswith(".js") else "text/css"
            self._send((LIVE / path[len(PREFIX):]).read_bytes(), f"{kind}; charset=utf-8", head)
            return True
        if not Path(self.directory).is_dir() and (path.endswith("/") or path.endswith(".html")):
            self._send(inject(NO_SITE, self.state.built), "text/html; charset=utf-8", head)
            return True  # no good build yet: a page to show the errors on, which reloads once there is one
        file = Path(self.translate_path(self.path))
        if file.is_dir():
            if not path.endswith("/"):
                return False  # the base class redirects to the folder's URL
            file = file / "index.html"
        if file.suffix != ".html" or not file.is_file():
            return False
        try:
            page = file.read_bytes()
        except OSError:
            return False
        self._send(inject(page, self.state.built), "text/html; charset=utf-8", head)
        return True

    def _send(self, body: bytes, kind: str, head: bool) -> None:
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")  # a reload must see the new build
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def _events(self, head: bool) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        if head:
            return
        state = self.state
        with state.cond:
            serial, text = state.serial, state.message()
        try:
            self.wfile.write(f"data: {text}\n\n".encode())
            self.wfile.flush()
            while not state.closed:
                got = state.wait(serial, timeout=15)
                if got is None:
                    self.wfile.write(b": still here\n\n")  # keeps proxies and the browser from giving up
                else:
                    serial, text = got
                    self.wfile.write(f"data: {text}\n\n".encode())
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the page went away
        self.close_connection = True


NO_SITE = (b'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>rulebook: no site yet</title>'
           b'</head><body><main><h1>No site yet</h1><p>The first build has not succeeded; this page reloads '
           b'when one does.</p></main></body></html>\n')


def inject(page: bytes, built: int) -> bytes:
    """The page with the live script and style named before </head>: same-origin files, so the
    page's Content-Security-Policy allows them. `built` tells the script which build it shows."""
    tags = (f'<meta name="rulebook-build" content="{int(built)}">'
            f'<link rel="stylesheet" href="{PREFIX}live.css">'
            f'<script src="{PREFIX}live.js" defer></script>').encode()
    at = page.find(b"</head>")
    return page[:at] + tags + page[at:] if at >= 0 else tags + page


def make_server(out: Path, host: str, port: int, state: State | None = None) -> http.server.ThreadingHTTPServer:
    handler = type("SiteHandler", (Handler,), {"state": state})
    httpd = http.server.ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(out)))
    httpd.daemon_threads = True
    return httpd


def serve(out: Path, host: str, port: int) -> int:
    """Serve `out` as it is, until Ctrl+C."""
    with make_server(out, host, port) as httpd:
        print(f"rulebook: serving {out}/ on {_url(httpd)} (Ctrl+C stops)", file=sys.stderr)
        httpd.serve_forever()
    return 0


def _url(httpd) -> str:
    host, port = httpd.server_address[:2]
    return f"http://{host}:{port}/" if ":" not in host else f"http://[{host}]:{port}/"


# --- watching -------------------------------------------------------------------------------

def watched_folders(content: Path) -> list[Path]:
    """The content folder, and the tool's themes/ and locale/ when the tool is a git checkout (the
    project's own repository, where one edits them); the generator's own code is not reloaded
    (restart the server)."""
    from . import cache
    if not (cache._TOOL / ".git").exists():
        return [Path(content)]
    return [Path(content)] + [p for p in (cache._TOOL / "themes", cache._TOOL / "locale") if p.is_dir()]


def snapshot(folders: list[Path]) -> dict[str, tuple[int, int]]:
    """Every file's modification time and size: reading these for a content folder of a few
    dozen files takes about a millisecond."""
    seen = {}
    for folder in folders:
        for dirpath, dirnames, filenames in os.walk(folder):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            for name in filenames:
                path = os.path.join(dirpath, name)
                try:
                    st = os.stat(path)
                except OSError:
                    continue  # removed meanwhile: the next look sees it gone
                seen[path] = (st.st_mtime_ns, st.st_size)
    return seen


class Builder:
    """Validates and builds in this process, as `rulebook build` does in its own: a build whose
    inputs equal the site's does nothing; one with errors writes nothing."""

    def __init__(self, content: Path, out: Path, pdf: bool, allow_untranslated: bool) -> None:
        self.content, self.out, self.pdf, self.allow = Path(content), Path(out), pdf, allow_untranslated

    def build(self) -> tuple[str, list]:
        """("same" | "built" | "errors", diagnostics)."""
        from .cli import checked_build
        status, diags = checked_build(self.content, self.out, pdf=self.pdf, allow=self.allow)
        return ("errors" if status == "failed" else status), diags


def watch(content: Path, out: Path, host: str, port: int, pdf: bool = True, allow_untranslated: bool = False,
          ready=None, stop: threading.Event | None = None) -> int:
    """Build, serve, and rebuild on every change until Ctrl+C (or `stop` is set). `ready(url)`
    is called once the server listens (for tests)."""
    builder = Builder(content, out, pdf, allow_untranslated)
    folders = watched_folders(content)
    state = State()
    before = snapshot(folders)
    _attempt(builder, state, first=True)
    gc.collect()
    gc.freeze()  # what the first build loaded stays: the collector no longer scans it on every rebuild
    with make_server(out, host, port, state) as httpd:
        threading.Thread(target=httpd.serve_forever, name="rulebook-http", daemon=True).start()
        print(f"rulebook: serving {out}/ on {_url(httpd)}, watching {', '.join(f'{p}/' for p in folders)} "
              "(Ctrl+C stops)", file=sys.stderr)
        if ready:
            ready(_url(httpd))
        stop = stop or threading.Event()
        try:
            while not stop.wait(POLL):
                now = snapshot(folders)
                if now == before:
                    continue
                while not stop.wait(SETTLE):  # let the editor finish writing
                    later = snapshot(folders)
                    if later == now:
                        break
                    now = later
                before = now
                _attempt(builder, state)
        finally:
            state.close()
            httpd.shutdown()
    return 0


def _attempt(builder: Builder, state: State, first: bool = False) -> None:
    if first:
        return _report(builder, state, first)
    gc.disable()  # a rebuild's garbage is collected once the pages have been told, not during it
    try:
        _report(builder, state, first)
    finally:
        gc.enable()
        gc.collect()


def _report(builder: Builder, state: State, first: bool) -> None:
    """Build, print what was found as `rulebook build` does, and tell the pages."""
    from .diagnostics import FORMATTERS
    started = time.perf_counter()
    try:
        status, diags = builder.build()
    except Exception as e:  # a bug of ours: keep serving the last good site, say so like the CLI
        from .diagnostics import Diagnostic
        status, diags = "errors", [Diagnostic("RB901", f"internal error: {type(e).__name__}: {e}")]
        if os.environ.get("RULEBOOK_DEBUG"):
            import traceback
            traceback.print_exc()
    text = FORMATTERS["text"](diags)
    if text:
        print(text, file=sys.stderr)
    took = time.perf_counter() - started
    if status == "errors":
        print(f"rulebook: build stopped ({took:.2f} s); {builder.out}/ is unchanged and still served", file=sys.stderr)
    elif status == "built":
        print(f"rulebook: rebuilt {builder.out}/ in {took:.2f} s", file=sys.stderr)
    elif not first:
        print(f"rulebook: nothing changed; {builder.out}/ is up to date", file=sys.stderr)
    state.publish("errors" if status == "errors" else "ok", diags, built=status == "built")
