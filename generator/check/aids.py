"""Player aids: every sheet's references resolve, fit its modes, and keep the scoring tables
(the resolution itself is `generator.aids.resolve`, which the PDF uses too)."""

from __future__ import annotations

from ..aids import resolve
from ..diagnostics import Diagnostic
from ..project import GameDoc, Project


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    _, problems = resolve(game.model)
    # an item left out of the model by its own schema error is reported there, once: a sheet
    # that shows it is no second error
    dropped = {f"'{i}'" for i in game.dropped_ids}
    return [Diagnostic(p.code, p.message, hint=p.hint, **game.where(p.path)) for p in problems
            if not (p.code == "RB201" and any(name in p.message for name in dropped))]
