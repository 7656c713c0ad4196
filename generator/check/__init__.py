"""Check: static rules over a whole game, each returning diagnostics with a stable code.

Each module holds one family of checks (`refs`, `counts`, `texts`, `scoring`); `run` calls
them all and collects everything, so a user sees every problem in one pass.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..project import Project
from . import counts, refs, scoring, texts

CHECKS = (refs.check, counts.check, texts.check, scoring.check)


def run(project: Project) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    diags += refs.check_site(project)
    for game in project.games.values():
        for check in CHECKS:
            diags += check(game, project)
    return diags
