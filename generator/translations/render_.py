"""The renderer's hooks into the translation state: the stale mark's data for `render.Lang`, and
the status page of one language (themes/templates/translations.md.j2)."""

from __future__ import annotations

from pathlib import Path

from ..project import GameDoc, Project
from .pages import STATUS_PAGE, stale_marks as _marks, status_context
from .texts import source_language


def stale_marks(doc: GameDoc, project: Project, tag: str, _) -> dict:
    """Keyword arguments of `render.Lang` that mark the game's stale texts in `tag`."""
    marks = _marks(doc, project, tag)
    if not marks:
        return {}
    return {"stale": marks, "source": source_language(doc, project),
            "stale_note": _("This translation may be out of date: see the original")}


def status_page(env, project: Project, tag: str, srcdir: Path, _) -> str:
    names = {gid: doc.model.name.get(tag) or next(iter(doc.model.name.values()))
             for gid, doc in project.games.items()}
    ctx = status_context(project, tag, names)
    (srcdir / f"{STATUS_PAGE}.md").write_text(env.get_template("translations.md.j2").render(_=_, **ctx),
                                              encoding="utf-8")
    return STATUS_PAGE
