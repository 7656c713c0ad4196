"""The check behind RB406 and RB407: translations whose source text changed, or that nothing records."""

from __future__ import annotations

from ..diagnostics import Diagnostic, Severity
from ..project import GameDoc, Project
from . import state as st
from .texts import entries, source_language

W = Severity.WARNING


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    if project.site is None:  # site.yaml is broken: that error is reported already
        return []
    state, diags = st.read(game)
    src = source_language(game, project)
    if src not in project.languages:
        m = game.where(("source_language",))
        return diags + [Diagnostic("RB401", f"source_language '{src}' is not one of the site's ({', '.join(project.languages)})",
                                   hint="name one of the site's languages", **m)]
    if not state.exists:
        where = game.where(("id",))
        return diags + [Diagnostic("RB407", f"no {st.FILE}: nothing records which {src} text each translation follows, "
                                   "so a changed source cannot be noticed", where.get("file", ""), 0, 0,
                                   f"run `rulebook translations mark-current {game.id}` once the translations are "
                                   f"current, and commit {st.FILE}", W)]
    for e in entries(game):
        for lang in project.languages:
            s = st.status(e, lang, src, state)
            if s == st.STALE:
                r = state.get(e.context, lang)
                diags.append(Diagnostic(
                    "RB406", f"the {lang} text of {e.context} translates an older {src} text"
                    + (f" (it was: {_short(r.source)})" if r else ""),
                    hint=f"update the {lang} text to the {src} one, then run "
                    f"`rulebook translations mark-current {game.id} --lang {lang}`", severity=W,
                    **game.where(e.path + (lang,))))
            elif s == st.UNRECORDED:
                diags.append(Diagnostic(
                    "RB407", f"nothing records which {src} text the {lang} text of {e.context} translates",
                    hint=f"once it is current, run `rulebook translations mark-current {game.id} --lang {lang}`",
                    severity=W, **game.where(e.path + (lang,))))
    return diags


def _short(s: str, n: int = 60) -> str:
    s = " ".join(s.split())
    return repr(s if len(s) <= n else s[: n - 1] + "…")
