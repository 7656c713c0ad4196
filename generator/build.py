"""Publish: render every language, build each with Sphinx into a staging folder beside the
output, and swap it in only when everything succeeded. A failed build leaves the previous
site untouched; the swap is one atomic exchange of the two folders (docs/builds.md)."""

from __future__ import annotations

import contextlib
import ctypes
import errno
import fcntl
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import jinja2

from .diagnostics import Diagnostic, has_errors
from .engine.setup import all_setups
from .i18n import url_segment
from .project import Project
from .render import glossary_definitions, glossary_userdict, render_language

ROOT_TEMPLATE = Path(__file__).resolve().parent.parent / "themes" / "templates" / "language_index.html.j2"


def build_site(project: Project, out: Path, langs: list[str] | None = None, pdf: bool = True) -> list[Diagnostic]:
    """Build the site (and its PDFs unless pdf=False) into out/, or leave out/ as it was."""
    from . import sphinx_
    from .pdf import build_pdfs, planned, settings_for

    out = Path(out).absolute()
    out.parent.mkdir(parents=True, exist_ok=True)
    tags = [t for t in project.languages if not langs or t.lower() in {x.lower() for x in langs}]
    setups = {gid: all_setups(doc.model) for gid, doc in project.games.items()}
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=out.parent))
    work = Path(tempfile.mkdtemp(prefix="rulebook-src-"))
    diags: list[Diagnostic] = []
    print_settings = settings_for(project)
    pdfs = planned(project, print_settings) if pdf else {}
    epoch = source_date_epoch(project.content)
    saved_epoch = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)  # Sphinx and anything else that dates files
    try:
        for tag in tags:
            seg = url_segment(tag)
            src = work / seg
            render_language(project, tag, src, setups)
            search_dict = None
            if tag.lower().startswith("zh"):
                search_dict = work / f"_{seg}.dict.txt"
                search_dict.write_text(glossary_userdict(project, tag), encoding="utf-8")
            titles = {gid: doc.model.name.get(tag, gid) for gid, doc in project.games.items()}
            conf = sphinx_.config(tag, project.site, titles, search_dict, glossary_definitions(project, tag), pdfs)
            diags += sphinx_.run(src, staging / seg, work / "_doctrees" / seg, conf)
            for leftover in (".doctrees", "_sources"):
                shutil.rmtree(staging / seg / leftover, ignore_errors=True)
            (staging / seg / ".buildinfo").unlink(missing_ok=True)
        if has_errors(diags):
            return diags
        if pdf:
            diags += build_pdfs(project, staging, tags, print_settings, epoch=epoch)
            if has_errors(diags):
                return diags
        write_language_index(project, staging)
        with _locked(out.parent):  # one swap at a time beside `out`; the last build wins whole
            if langs and out.is_dir():  # keep the languages this build did not touch
                for lang in project.languages:
                    seg = url_segment(lang)
                    if lang not in tags and (out / seg).is_dir():
                        shutil.copytree(out / seg, staging / seg)
            _swap(staging, out)
        staging = None  # gone: _swap removed it, with the previous site it held after the exchange
    finally:
        if saved_epoch is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = saved_epoch
        shutil.rmtree(work, ignore_errors=True)
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    return diags


FALLBACK_EPOCH = 946684800  # 2000-01-01T00:00:00Z: content that is not a git checkout


def source_date_epoch(content: Path | None) -> int:
    """The build's date: $SOURCE_DATE_EPOCH, else the last commit that touched the content
    folder, else FALLBACK_EPOCH. Never the clock, so two builds of one commit are identical."""
    env = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if env.isdigit():
        return int(env)
    if content is not None:
        try:
            done = subprocess.run(["git", "log", "-1", "--format=%ct", "--", "."], cwd=str(content),
                                  capture_output=True, text=True, timeout=30)
            if done.returncode == 0 and done.stdout.strip().isdigit():
                return int(done.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    return FALLBACK_EPOCH


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
