"""Publish: render every language, build each with Sphinx into a staging folder beside the
output, and swap it in only when everything succeeded. A failed build leaves the previous
site untouched."""

from __future__ import annotations

import os
import shutil
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

    out = Path(out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tags = [t for t in project.languages if not langs or t.lower() in {x.lower() for x in langs}]
    setups = {gid: all_setups(doc.model) for gid, doc in project.games.items()}
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.staging-", dir=out.parent))
    work = Path(tempfile.mkdtemp(prefix="rulebook-src-"))
    diags: list[Diagnostic] = []
    print_settings = settings_for(project)
    pdfs = planned(project, print_settings) if pdf else {}
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
            diags += build_pdfs(project, staging, tags, print_settings)
            if has_errors(diags):
                return diags
        if langs and out.is_dir():  # keep the languages this build did not touch
            for lang in project.languages:
                seg = url_segment(lang)
                if lang not in tags and (out / seg).is_dir():
                    shutil.copytree(out / seg, staging / seg)
        write_language_index(project, staging)
        _swap(staging, out)
        staging = None
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if staging is not None:
            shutil.rmtree(staging, ignore_errors=True)
    return diags


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


def _swap(staging: Path, out: Path) -> None:
    """Put staging in place of out: two renames on one file system, the old site removed last."""
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}.old-{os.getpid()}")
        os.replace(out, old)
    os.replace(staging, out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)
