"""Check: static rules over a whole game, each returning diagnostics with a stable code.

Each module holds one family of checks (`refs`, `counts`, `texts`, `scoring`); `run` calls
them all and collects everything, so a user sees every problem in one pass. Then, for each game
whose static checks found no error, `simulate` plays it (setup for every player count and mode,
and seeded random games where the game has an engine module).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, has_errors
from ..project import Project
from . import counts, refs, scoring, simulate, texts

CHECKS = (refs.check, counts.check, texts.check, scoring.check)


def run(project: Project, simulation: bool = True, seeds: int = simulate.DEFAULT_SEEDS,
        seed: int | None = None) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    diags += refs.check_site(project)
    for game in project.games.values():
        found: list[Diagnostic] = []
        for check in CHECKS:
            found += check(game, project)
        if simulation and not has_errors(found):
            found += simulate.check(game, project, seeds, seed, facts=project.facts.setdefault(game.id, {}))
        diags += found
    return diags
