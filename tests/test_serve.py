"""`rulebook serve` (generator/serve.py): the site as built, and with --watch, pages that follow
the edits, an overlay for errors, and nothing of it in the built site."""

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, edit, line_of
from test_browser import ARTIFACTS  # the `browser` fixture (Debian's Chromium through Playwright) is conftest's

from generator import serve
from generator.diagnostics import Diagnostic

RULEBOOK = [sys.executable, "-m", "generator.cli"]
PAGE = b'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>t</title></head><body><p>x</p></body></html>\n'


def _get(url: str, path: str, headers=None) -> tuple[int, dict, bytes]:
    host, port = url.split("//")[1].strip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    conn.request("GET", path, headers=headers or {})
    r = conn.getresponse()
    out = r.status, dict(r.getheaders()), r.read()
    conn.close()
    return out


@pytest.fixture
def site(tmp_path) -> Path:
    out = tmp_path / "site"
    (out / "en").mkdir(parents=True)
    (out / "en" / "index.html").write_bytes(PAGE)
    (out / "index.html").write_bytes(PAGE)
    return out


def _running(out: Path, state):
    httpd = serve.make_server(out, "127.0.0.1", 0, state)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}/"


def test_without_watching_pages_are_served_as_built(site):
    httpd, url = _running(site, None)
    try:
        assert _get(url, "/en/index.html")[2] == PAGE
        assert _get(url, "/_rulebook/live.js")[0] == 404
        assert _get(url, "/_rulebook/events")[0] == 404
    finally:
        httpd.shutdown()


def test_watching_names_the_script_in_served_pages_only(site):
    state = serve.State()
    httpd, url = _running(site, state)
    try:
        for path in ("/en/index.html", "/en/", "/"):
            status, headers, body = _get(url, path)
            assert status == 200 and headers["Cache-Control"] == "no-store"
            assert body.count(b'<script src="/_rulebook/live.js" defer></script>') == 1
            assert body.index(b"/_rulebook/live.js") < body.index(b"</head>")  # in the head, after the page's CSP
            assert body.replace(re.search(rb'<meta name="rulebook-build".*?</script>', body).group(0), b"") == PAGE
        assert _get(url, "/en")[0] == 301  # a folder without its slash is still redirected
        status, headers, body = _get(url, "/_rulebook/live.js")
        assert status == 200 and headers["Content-Type"].startswith("text/javascript")
        assert b"EventSource" in body
        assert _get(url, "/_rulebook/live.css")[2] == (ROOT / "themes/live/live.css").read_bytes()
        assert (site / "en/index.html").read_bytes() == PAGE  # served bytes, not files
    finally:
        state.close()
        httpd.shutdown()


def test_the_event_stream_tells_each_build(site):
    """A page learns the state at once, then every build: a good one makes it reload, one with
    errors brings their diagnostics (file:line:col, message, hint)."""
    state = serve.State()
    httpd, url = _running(site, state)
    host, port = url.split("//")[1].strip("/").split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    try:
        conn.request("GET", "/_rulebook/events")
        r = conn.getresponse()
        assert r.getheader("Content-Type").startswith("text/event-stream")

        def message():
            lines = []
            while True:
                line = r.fp.readline().decode()
                if line.startswith("data: "):
                    lines.append(line[6:])
                elif line == "\n" and lines:
                    return json.loads("".join(lines))

        assert message() == {"built": 0, "status": "ok", "diagnostics": []}
        bad = Diagnostic("RB102", "unknown key '<b>x</b>'", "content/g/game.yaml", 5, 1, "remove it")
        state.publish("errors", [bad], built=False)
        got = message()
        assert got["status"] == "errors" and got["built"] == 0
        assert got["diagnostics"] == [{"code": "RB102", "severity": "error", "file": "content/g/game.yaml", "line": 5,
                                       "column": 1, "location": "content/g/game.yaml:5:1",
                                       "message": "unknown key '<b>x</b>'", "hint": "remove it"}]
        state.publish("ok", [], built=True)
        assert message() == {"built": 1, "status": "ok", "diagnostics": []}
    finally:
        conn.close()
        state.close()
        httpd.shutdown()


def test_the_watcher_sees_an_edit_a_new_file_and_a_removal(tmp_path):
    content = tmp_path / "content"
    (content / "g").mkdir(parents=True)
    (content / "g" / "game.yaml").write_text("id: g\n", encoding="utf-8")
    before = serve.snapshot([content])
    assert serve.snapshot([content]) == before
    (content / "g" / "game.yaml").write_text("id: h\n", encoding="utf-8")  # same time is possible: size differs
    edited = serve.snapshot([content])
    assert edited != before
    (content / "g" / "cards.yaml").write_text("cards: []\n", encoding="utf-8")
    added = serve.snapshot([content])
    assert set(added) - set(edited) == {str(content / "g" / "cards.yaml")}
    (content / "g" / "cards.yaml").unlink()
    assert serve.snapshot([content]) == edited


# --- end to end: the real command, a real browser -----------------------------------------

class Watching:
    """`rulebook serve --watch` in a process of its own; what it prints is kept."""

    def __init__(self, content: Path, out: Path):
        self.proc = subprocess.Popen(
            RULEBOOK + ["serve", "--watch", "--no-pdf", "--port", "0", "--content", str(content), "--out", str(out)],
            cwd=ROOT, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
            env=dict(os.environ, PYTHONPATH=str(ROOT), SOURCE_DATE_EPOCH="0"))
        self.lines: list[str] = []
        self.url = None
        self._ready = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()
        if not self._ready.wait(240):
            self.stop()
            pytest.fail("serve --watch did not start:\n" + "\n".join(self.lines))

    def _read(self):
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))
            m = re.search(r"serving .* on (http://\S+/)", line)
            if m:
                self.url = m.group(1).rstrip("/")
                self._ready.set()
        self._ready.set()

    def wait_for(self, text: str, timeout: float = 120) -> None:
        end = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            assert time.monotonic() < end, f"{text!r} not printed:\n" + "\n".join(self.lines)
            time.sleep(0.05)

    def stop(self) -> int:
        self.proc.send_signal(signal.SIGINT)
        return self.proc.wait(timeout=60)


@pytest.mark.browser
def test_the_open_page_follows_edits_and_shows_errors_over_the_last_good_page(tmp_path, browser):
    from playwright.sync_api import expect

    content, out = tmp_path / "content", tmp_path / "site"
    shutil.copytree(FIXTURES / "good", content)
    game = content / "tiny" / "game.yaml"
    server = Watching(content, out)
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{server.url}/en/tiny/index.html")
        expect(page.locator("main")).to_contain_text("A small game for tests.")
        page.evaluate("window.rbSameDocument = true")

        # 1. an edit: the page reloads by itself and shows it
        edit(game, "en: A small game for tests.", "en: A Zanzibar game.")
        expect(page.locator("main")).to_contain_text("A Zanzibar game.", timeout=120_000)
        assert page.evaluate("window.rbSameDocument") is None  # a new document: reloaded, not patched
        server.wait_for("rebuilt")

        # 2. an error: the overlay names file:line:col, the code, the message and the hint, as text;
        # the page under it is the last good one, and the terminal prints the same diagnostic
        edit(game, "designer: Test Designer\n", "designer: Test Designer\n'<img src=x onerror=alert(1)>': 1\n")
        line = line_of(game, "'<img src=x onerror=alert(1)>': 1")
        overlay = page.locator(".rb-live-overlay")
        expect(overlay).to_be_visible(timeout=120_000)
        expect(overlay).to_contain_text(f"game.yaml:{line}:1")
        expect(overlay).to_contain_text("error RB102")
        expect(overlay).to_contain_text("unknown key '<img src=x onerror=alert(1)>'")
        from generator.cli import validate
        found = [d for d in validate(content, None, simulation=False)[1] if d.code == "RB102"]
        assert len(found) == 1 and found[0].hint
        expect(overlay).to_contain_text(f"hint: {found[0].hint}")  # the validator's own hint
        assert overlay.locator("img").count() == 0  # content never becomes markup
        expect(page.locator("main")).to_contain_text("A Zanzibar game.")
        server.wait_for(f"game.yaml:{line}:1: error RB102: unknown key '<img src=x onerror=alert(1)>'")
        server.wait_for("build stopped")
        status, _, body = _get(server.url, "/en/tiny/index.html")
        assert status == 200 and b"A Zanzibar game." in body  # the last good site is still served
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "serve-watch-overlay.png"))

        # 3. the fix clears it (these are the inputs of the site served: nothing to rebuild, no reload)
        page.evaluate("window.rbSameDocument = true")
        edit(game, "'<img src=x onerror=alert(1)>': 1\n", "")
        expect(overlay).to_have_count(0, timeout=120_000)
        assert page.evaluate("window.rbSameDocument") is True
        server.wait_for("nothing changed")

        # 4. and an edit after the fix is shown again
        edit(game, "en: A Zanzibar game.", "en: A plain game.")
        expect(page.locator("main")).to_contain_text("A plain game.", timeout=120_000)
        assert errors == [], errors  # no console error: the Content-Security-Policy allowed all of it
    finally:
        context.close()
        assert server.stop() in (0, 130)
    on_disk = [p for p in out.rglob("*") if p.is_file() and b"_rulebook" in p.read_bytes()]
    assert on_disk == []  # nothing of the watch script is ever written into the site


def test_before_any_good_build_a_page_shows_the_errors(tmp_path):
    state = serve.State()
    httpd, url = _running(tmp_path / "site", state)  # not built
    try:
        status, _, body = _get(url, "/en/ulm/index.html")
        assert status == 200 and b"No site yet" in body and b"/_rulebook/live.js" in body
        assert _get(url, "/en/_static/rulebook.css")[0] == 404
    finally:
        state.close()
        httpd.shutdown()


def test_serve_listens_on_the_host_and_port_given(site):
    proc = subprocess.Popen(RULEBOOK + ["serve", "--no-build", "--host", "127.0.0.1", "--port", "0", "--out", str(site)],
                            cwd=ROOT, stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        line = proc.stderr.readline()
        m = re.search(r"serving .* on (http://127\.0\.0\.1:(\d+)/) \(Ctrl\+C stops\)", line)
        assert m, line
        assert _get(m.group(1), "/en/index.html")[2] == PAGE  # not watching: the bytes as built
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130


def test_watching_covers_the_content_and_in_the_tools_checkout_its_theme_and_catalogs(tmp_path, monkeypatch):
    from generator import cache
    tool = tmp_path / "tool"
    for part in ("themes", "locale"):
        (tool / part).mkdir(parents=True)
    monkeypatch.setattr(cache, "_TOOL", tool)
    assert serve.watched_folders(tmp_path / "content") == [tmp_path / "content"]  # an installed tool
    (tool / ".git").mkdir()  # the project's own repository, where one edits the theme and the catalogs
    assert serve.watched_folders(tmp_path / "content") == [tmp_path / "content", tool / "themes", tool / "locale"]
