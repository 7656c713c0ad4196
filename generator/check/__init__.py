"""Check: static rules over a whole game, each returning diagnostics with a stable code.

Each module holds one family of checks (`refs`, `counts`, `texts`, `scoring`, `aids`, `pointers`, `style`); `run` calls
them all and collects everything, so a user sees every problem in one pass. Then, for each game
whose static checks found no error, `simulate` plays it (setup for every player count and mode,
and seeded random games where the game has an engine module).
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, has_errors
from ..gcpause import collector_paused
from ..project import Project
from . import acks, aids, counts, pointers, refs, scoring, style, texts


def _stale(game, project) -> list[Diagnostic]:
    from ..translations import stale  # here: generator.translations reads texts with check.texts
    return stale.check(game, project)


CHECKS = (refs.check, counts.check, texts.check, scoring.check, _stale, aids.check, pointers.check, style.check)


def run(project: Project, simulation: bool = True, seeds: int | None = None,
        seed: int | None = None, memo=None) -> list[Diagnostic]:
    """Every check of every game. `seeds` defaults to simulate.DEFAULT_SEEDS. `memo` (a
    cache.SimulationMemo, kept by builds) returns a game's simulation findings when its inputs
    are those of an earlier run, and keeps new ones."""
    if simulation:  # imported here: the engines are not needed for static checks (--no-sim)
        from . import simulate
        if seeds is None:
            seeds = simulate.DEFAULT_SEEDS
        if seeds != simulate.DEFAULT_SEEDS or seed is not None:
            memo = None  # the memo holds the default run only
    diags: list[Diagnostic] = []
    diags += refs.check_site(project)
    for game in project.games.values():
        found: list[Diagnostic] = []
        with collector_paused():
            for check in CHECKS:
                found += check(game, project)
            found = acks.apply(game, found)
        if simulation and not has_errors(found) and not game.partial:  # partial: a schema error left items out
            known = memo.get(game.id, game, project.languages) if memo is not None else None
            if known is not None:
                found += known[0]
                project.facts[game.id] = known[1]
            else:
                facts = project.facts.setdefault(game.id, {})
                played = simulate.check(game, project, seeds, seed, facts=facts)
                found += played
                if memo is not None:
                    memo.put(game.id, played, facts, game, project.languages)
        diags += found
    return diags
