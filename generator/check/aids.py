"""Player aids: every sheet's references resolve, fit its modes, and keep the scoring tables
(the resolution itself is `generator.aids.resolve`, which the PDF uses too)."""

from __future__ import annotations

from ..aids import resolve
from ..diagnostics import Diagnostic
from ..project import GameDoc, Project


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    _, problems = resolve(game.model)
    return [Diagnostic(p.code, p.message, hint=p.hint, **game.where(p.path)) for p in problems]
