"""Publish: render every language, build each with Sphinx into a staging folder beside the
output, and swap it in only when everything succeeded. A failed build leaves the previous
site untouched; the swap is one atomic exchange of the two folders (docs/builds.md).

Languages are built in parallel (one process per language, as many as there are cores), and a
rebuild keeps Sphinx's environment in `.<site>.cache/`: when only some games changed, only
their pages (and PDFs) are made again (generator/cache.py says what counts as a change)."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import gc
import hashlib
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path

import jinja2

from . import cache
from .cache import FALLBACK_EPOCH, source_date_epoch  # noqa: F401  (re-exported)
from .diagnostics import Diagnostic, has_errors
from .engine.setup import all_setups
from .i18n import url_segment
from .project import Project
from .render import glossary_definitions, render_language

ROOT_TEMPLATE = Path(__file__).resolve().parent.parent / "themes" / "templates" / "language_index.html.j2"


def build_site(project: Project, out: Path, langs: list[str] | None = None, pdf: bool = True,
               inputs: cache.Inputs | None = None, epoch: int | None = None,
               jobs: int | None = None, warnings: list[Diagnostic] = (), log=None,
               games: list[str] | None = None) -> list[Diagnostic]:
    """Build the site (and its PDFs unless pdf=False) into out/, or leave out/ as it was.

    `langs` and `games` narrow what is brought up to date, never what the site holds: the
    other languages and games keep the pages they have, byte for byte, and the home pages and
    search cover all of them. A language with no earlier build to keep pages from is built
    whole. `inputs` is the fingerprint the caller took before validating (computed here if not
    given); `jobs` caps the languages built at once (default: the cores this process may use);
    `warnings` (of validation) are kept with the cache, so a rebuild that finds nothing changed
    can show them again; `log(text)` hears what the build does."""
    out = Path(out).absolute()
    out.parent.mkdir(parents=True, exist_ok=True)
    tags = [t for t in project.languages if not langs or t.lower() in {x.lower() for x in langs}]
    epoch = source_date_epoch(project.content) if epoch is None else epoch
    if inputs is None:
        inputs = cache.fingerprint(project.content, cache.build_options(pdf), epoch)
    cdir = cache.cache_dir(out)
    cdir.mkdir(parents=True, exist_ok=True)
    with _locked(cdir):  # one build per output folder at a time: they share the cache
        _remove_stale(out)
        prev = cache.usable(out)
        why = (f" ({out.name}/ changed since the last build)" if out.is_dir() and prev is None
               and cache.read_manifest(out) is not None else "")
        plans = {tag: prev.plan(inputs, tag, games) if prev else None for tag in tags}
        if prev is not None and all(plan == set() for plan in plans.values()):
            return []  # a build of these very inputs finished while this one waited
        if not why and prev is not None and None in plans.values():
            old = prev.languages.get(tags[0].lower())
            why = (" (the tool, site.yaml or the options changed)" if old is None or old.global_ != inputs.global_
                   else " (a game folder was added or removed)")
        cache.forget(out)
        if log:
            log(_describe(plans, games, why))
        diags = _build(project, out, tags, pdf, epoch, plans, jobs)
        if not has_errors(diags):
            cache.write_manifest(out, _what_was_built(project, out, prev, plans, inputs),
                                 list(warnings) + diags, project.languages)
        return diags


def _describe(plans: dict[str, set | None], games: list[str] | None, why: str) -> str:
    """One line for the log: what this build makes again."""
    kept = ("the other games keep their pages as built" if games
            else "the other games are unchanged")
    said = {}
    for tag, plan in plans.items():
        said.setdefault(f"clean build{why}" if plan is None
                        else f"rebuilding {', '.join(sorted(plan)) or 'the shared pages'} ({kept})", []).append(tag)
    if len(said) == 1:
        return next(iter(said))
    return "; ".join(f"{', '.join(tags)}: {text}" for text, tags in said.items())


def _what_was_built(project: Project, out: Path, prev: cache.Manifest | None, plans: dict, inputs: cache.Inputs):
    """The manifest's languages after a build: each built language records the inputs of the
    games it rebuilt and keeps the earlier record of the games it kept; a language this build
    did not touch keeps its record while its folder is there."""
    built = {}
    for tag in project.languages:
        key = tag.lower()
        before = prev.languages.get(key) if prev else None
        if tag in plans:
            plan = plans[tag]
            games = dict(inputs.games) if plan is None else {
                g: inputs.games[g] if g in plan else before.games[g] for g in inputs.games}
            built[key] = cache.Built(inputs.global_, games)
        elif before is not None and (out / url_segment(tag)).is_dir():
            built[key] = before
    return built


@dataclass
class _Job:
    """What every language's build needs; inherited by forked workers, never pickled."""

    project: Project
    out: Path
    staging: Path
    work: Path
    setups: dict
    pdfs: dict
    plans: dict[str, set[str] | None]  # per language: the games to rebuild, or None for a clean build


_JOB: _Job | None = None


def _build(project: Project, out: Path, tags: list[str], pdf: bool, epoch: int, plans: dict[str, set[str] | None],
           jobs: int | None) -> list[Diagnostic]:
    global _JOB
    from .pdf import build_pdfs, planned, settings_for

    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-{os.getpid()}-", dir=out.parent))
    umask = os.umask(0o022)
    os.umask(umask)
    staging.chmod(0o777 & ~umask)  # mkdtemp makes it private; the site is for a web server to read
    work = Path(tempfile.mkdtemp(prefix="rulebook-src-"))
    diags: list[Diagnostic] = []
    print_settings = settings_for(project)
    games = set().union(*(set(project.games) if plan is None else plan for plan in plans.values()))
    saved_epoch = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)  # Sphinx and anything else that dates files
    try:
        setups = {gid: all_setups(project.games[gid].model) for gid in games}  # of the games rendered
        _JOB = _Job(project, out, staging, work, setups, planned(project, print_settings) if pdf else {}, plans)
        for found in _each_language(tags, jobs):
            diags += found
        if has_errors(diags):
            return diags
        if pdf and games:
            diags += build_pdfs(project, staging, tags, print_settings, epoch=epoch, games=games)
            if has_errors(diags):
                return diags
        write_language_index(project, staging)
        with _locked(out.parent):  # one swap at a time beside `out`; the last build wins whole
            if out.is_dir():  # keep the languages this build did not touch
                for lang in project.languages:
                    seg = url_segment(lang)
                    if lang not in tags and (out / seg).is_dir():
                        shutil.copytree(out / seg, staging / seg)
            _swap(staging, out)
        staging = None  # gone: _swap removed it, with the previous site it held after the exchange
    finally:
        _JOB = None
        if saved_epoch is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved_epoch
        shutil.rmtree(work, ignore_errors=True)
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    return diags


def _each_language(tags: list[str], jobs: int | None):
    """Yield each language's diagnostics, in the order of `tags`.

    Each language is built in a process of its own, forked from this one (it inherits the
    project; only diagnostics travel back), as many at once as there are cores: Sphinx keeps
    state per process (message catalogs, registries) that one language would leak into the
    next. Forking a process that runs threads can deadlock, so from one that does, the
    languages are built here, one after another."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    n = max(1, min(len(tags), jobs or cores))
    # A rebuild's workers mostly render and compare, and stop there (their sources are the same);
    # all start at once, so the one that has Sphinx to run does not wait for a free core.
    rebuild = _JOB is not None and None not in [_JOB.plans.get(tag) for tag in tags]
    if rebuild and not jobs:
        n = len(tags)
    if not hasattr(os, "fork") or threading.active_count() > 1:
        for tag in tags:
            yield _language(tag)
        return
    import multiprocessing
    from multiprocessing.connection import wait
    if len(tags) > 1 and not rebuild:  # import Sphinx once, here, rather than in each worker (0.25 s of CPU)
        from . import sphinx_
        sphinx_.preload()
    # What the workers inherit is never garbage to them: out of the collector's sight, it costs no
    # scan in their collections and no copy of its pages (the collector writes into objects it scans).
    gc.freeze()
    ctx = multiprocessing.get_context("fork")
    pending, running, results = list(tags), {}, {}
    try:
        while pending or running:
            while pending and len(running) < n:
                tag = pending.pop(0)
                receive, send = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_worker, args=(tag, send), name=f"rulebook-{tag}")
                proc.start()
                send.close()
                running[receive] = (tag, proc)
            for receive in wait(list(running)):
                tag, proc = running.pop(receive)
                try:
                    results[tag] = receive.recv()
                except EOFError:  # the worker died without an answer (killed, out of memory)
                    proc.join()
                    results[tag] = [Diagnostic("RB901", f"building {tag} failed: the worker ended with "
                                               f"exit code {proc.exitcode}")]
                receive.close()
                proc.join()
    finally:
        gc.unfreeze()
        for tag, proc in running.values():
            proc.kill()
            proc.join()
    for tag in tags:
        yield results[tag]


def _worker(tag: str, send) -> None:
    # A worker lives for one language's build and then ends: its cycles (docutils trees) are freed
    # with it. Collecting meanwhile cost a tenth of a one-game rebuild; a clean build of the four
    # games peaks at 117 MB per worker instead of 102 (docs/performance.md).
    gc.disable()
    if sys.platform.startswith("linux"):  # die with the build that forked us, however it ends
        try:
            ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    try:
        result = _language(tag)
    except Exception as e:  # a bug of ours: report it like Sphinx's own failures
        result = [Diagnostic("RB901", f"building {tag} failed: {type(e).__name__}: {e}")]
    send.send(result)
    send.close()


def _language(tag: str) -> list[Diagnostic]:
    """Render and build one language into the staging folder."""
    from . import sphinx_
    job = _JOB
    project, seg = job.project, url_segment(tag)
    place = cache.cache_dir(job.out) / seg
    src, doctrees, buildinfo = place / "src", place / "doctrees", place / "buildinfo"
    plan = job.plans[tag]
    fresh = plan is None or not src.is_dir() or not (job.out / seg).is_dir()
    if fresh:
        shutil.rmtree(place, ignore_errors=True)
    touched = set(project.games) if fresh else plan
    rendered = job.work / seg
    render_language(project, tag, rendered, job.setups, only=touched)
    conf, conf_digest = _config(project, tag, job.pdfs)
    same_conf = not fresh and _read(place / "conf.sha256") == conf_digest
    # Of a changed game, Sphinx reads again the pages whose sources differ; all of them when the
    # configuration (glossary definitions, titles, PDF links) changed, or a page was added or
    # removed, or a title changed (each page names its neighbours' titles); none when the edit did
    # not reach this language (an English sentence, seen from zh-TW).
    change = {gid: "all" if not same_conf else _change(rendered / gid, src / gid) for gid in touched}
    touch = {f"{gid}/" for gid, what in change.items() if what}
    home_changed = _sync(rendered, src, touch, {f"{gid}/" for gid, what in change.items() if what == "all"})
    target = job.staging / seg
    if not fresh:  # Sphinx writes only what is out of date: start from the current pages
        shutil.copytree(job.out / seg, target, copy_function=shutil.copy2)
        if same_conf and not touch and not home_changed:
            return []  # the very sources and configuration of the pages already built: no Sphinx
        if buildinfo.is_file():
            shutil.copy2(buildinfo, target / ".buildinfo")
    diags = sphinx_.run(src, target, doctrees, conf, fresh=fresh)
    place.mkdir(parents=True, exist_ok=True)
    (place / "conf.sha256").write_text(conf_digest, encoding="ascii")
    for leftover in (".doctrees", "_sources"):
        shutil.rmtree(target / leftover, ignore_errors=True)
    if (target / ".buildinfo").is_file():
        place.mkdir(parents=True, exist_ok=True)
        os.replace(target / ".buildinfo", buildinfo)
    return diags


def _config(project: Project, tag: str, pdfs: dict) -> tuple[dict, str]:
    """One language's Sphinx configuration, and its digest."""
    from . import sphinx_
    titles = {gid: doc.model.name.get(tag, gid) for gid, doc in project.games.items()}
    conf = sphinx_.config(tag, project.site, titles, glossary_definitions(project, tag), pdfs)
    return conf, hashlib.sha256(json.dumps(conf, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="ascii")
    except (OSError, ValueError):
        return None


def _change(rendered: Path, src: Path) -> str | None:
    """How a game's rendered sources differ from the ones Sphinx built: None (not at all),
    "pages" (the bytes of some pages, not their titles) or "all" (files added or removed, or a
    page's title)."""
    def files(root: Path) -> dict[str, Path]:
        return {p.relative_to(root).as_posix(): p for p in root.rglob("*") if p.is_file()} if root.is_dir() else {}
    new, old = files(rendered), files(src)
    if new.keys() != old.keys():
        return "all"
    changed = [(p.read_bytes(), old[rel].read_bytes()) for rel, p in new.items()]
    changed = [(a, b) for a, b in changed if a != b]
    if not changed:
        return None
    return "all" if any(_title(a) != _title(b) for a, b in changed) else "pages"


def _title(source: bytes) -> bytes | None:
    """The first heading of a MyST page: the page's title."""
    for line in source.splitlines():
        if line.startswith(b"# "):
            return line
    return None


def _sync(rendered: Path, src: Path, touch: set[str], whole: set[str] = frozenset()) -> bool:
    """Make `src` hold what was rendered — the home page and the games in `touch` (folder
    prefixes); other games' sources are left as they are. Only files whose bytes differ are
    written, except that every file of a game in `whole` is (some of its data reaches Sphinx as
    configuration, not text, or its pages name each other's titles). Unchanged files keep their
    times, and Sphinx leaves their pages alone. Returns whether a file outside the touched games
    was written or removed."""
    src.mkdir(parents=True, exist_ok=True)
    wanted, other = set(), False
    for path in rendered.rglob("*"):
        if not path.is_file():
            continue
        rel = path.relative_to(rendered).as_posix()
        mine = any(rel.startswith(prefix) for prefix in touch)
        if "/" in rel and not mine:
            continue  # a game rendered, but whose sources are the same: leave them, times and all
        wanted.add(rel)
        dest = src / rel
        data = path.read_bytes()
        if any(rel.startswith(prefix) for prefix in whole) or not dest.is_file() or dest.read_bytes() != data:
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
            other = other or not mine
    for path in sorted(src.rglob("*"), reverse=True):
        rel = path.relative_to(src).as_posix()
        if "/" in rel and not any(rel.startswith(prefix) for prefix in touch):
            continue  # a game this build did not render
        if path.is_file() and rel not in wanted:
            path.unlink()
            other = True
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return other


def _remove_stale(out: Path) -> None:
    """Remove what killed builds of `out` left beside it: staging folders and the previous
    site of a two-rename swap, when the process that made them is gone. Call with the build
    lock held."""
    for path in out.parent.glob(f".{out.name}.*"):
        kind, _, rest = path.name[len(out.name) + 2:].partition("-")
        if kind not in ("staging", "old") or not path.is_dir():
            continue
        pid = rest.split("-")[0]
        if pid.isdigit() and _alive(int(pid)):
            continue
        shutil.rmtree(path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def write_language_index(project: Project, root: Path) -> None:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(ROOT_TEMPLATE.parent)), autoescape=True)
    site = project.site
    default = site.default_language
    html = env.get_template(ROOT_TEMPLATE.name).render(
        title=site.title.get(default, ""),
        languages=[{"tag": lang.tag, "name": lang.name, "url": f"{url_segment(lang.tag)}/index.html",
                    "title": site.title.get(lang.tag, "")} for lang in site.languages],
        default=default)
    (root / "index.html").write_text(html, encoding="utf-8")


@contextlib.contextmanager
def _locked(folder: Path):
    """An exclusive flock on the folder itself (no lock file to leave behind); released when
    the process ends, however it ends."""
    fd = os.open(str(folder), os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux renameat2 RENAME_EXCHANGE); False where the
    system or file system cannot."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    if renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(err, os.strerror(err), str(b))


def _swap(staging: Path, out: Path) -> None:
    """Put staging in place of out. When out exists the two folders are exchanged by one
    atomic rename, so out never is missing nor half written; the previous site, now under the
    staging name, is removed last. Call with _locked(out.parent) held."""
    if not out.exists() and not out.is_symlink():
        os.replace(staging, out)  # the first build: one rename
        return
    if _exchange(staging, out):
        if staging.is_symlink():  # out was a link someone made: drop the link, not its target
            staging.unlink()
        else:
            shutil.rmtree(staging, ignore_errors=True)
        return
    old = out.with_name(f".{out.name}.old-{os.getpid()}")  # no atomic exchange here: two renames
    os.replace(out, old)
    os.replace(staging, out)
    shutil.rmtree(old, ignore_errors=True)
