"""Simulate: play every game at every player count and mode, seeded, and report what broke.

For each game whose static checks passed, `check` runs `seeds` random games per player count
and mode (or only `seed`, to replay one) through `generator.engine.play`, and turns the first
fault of each kind into a diagnostic at the YAML line of the data involved: the component whose
pieces were created or destroyed, the zone drawn empty, the rounds bound. The message names the
game, player count, mode, seed, round and turn, and ends with the last transcript lines.
Games without an engine module are simulated as far as their data goes (setup only);
`setup_only` makes the note (RB607) that the commands print for each of them, and an engine
module registered but unusable is RB606, before any game is played.

`facts` aggregates what the pages may show: game length in turns, how often a finite supply
ran short or a pile ran dry, per player count and mode.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..diagnostics import Diagnostic, Severity
from ..engine.games import EngineError, find
from ..engine.play import Outcome, play
from ..engine.setup import player_counts
from ..project import GameDoc, Project

DEFAULT_SEEDS = 8  # per player count and mode: the four shipped games validate in about 6 s


@dataclass
class Facts:
    games: int = 0
    turns: list[int] = field(default_factory=list)
    ran_out: Counter = field(default_factory=Counter)  # component -> games in which it ran short
    ran_dry: Counter = field(default_factory=Counter)  # zone -> games in which a draw found it empty


def outcomes(game: GameDoc, seeds: int = DEFAULT_SEEDS, seed: int | None = None):
    g = game.model
    chosen = [seed] if seed is not None else list(range(seeds))
    for mode in g.modes:
        for p in player_counts(g, mode.id):
            for s in chosen:
                yield play(g, p, mode.id, s)


def check(game: GameDoc, project: Project, seeds: int = DEFAULT_SEEDS, seed: int | None = None,
          facts: dict | None = None) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    g = game.model
    zone_ids = {z.id for z in g.zones} | {"box"}
    for i, z in enumerate(g.zones):
        if z.refill_from and z.refill_from not in zone_ids:
            diags.append(Diagnostic("RB201", f"unknown zone '{z.refill_from}'", hint="name a zone of zones:",
                                    **game.where(("zones", i, "refill_from"))))
        if z.on_empty == "reshuffle" and not z.refill_from:
            diags.append(Diagnostic("RB201", "on_empty: reshuffle needs refill_from: the zone shuffled in",
                                    hint="add refill_from: <zone id>", **game.where(("zones", i, "on_empty"))))
    try:
        find(g.id)
    except EngineError as e:
        diags.append(Diagnostic("RB606", str(e), hint="reinstall or remove the package named, or ask its author; "
                                "`rulebook validate --no-sim` checks the data without it", **game.where(("id",))))
    if diags:
        return diags
    seen: dict[tuple, list] = {}
    for out in outcomes(game, seeds, seed):
        if facts is not None:
            _collect(facts, out)
        if out.fault is not None:
            seen.setdefault((out.fault.code, out.fault.path), []).append(out)
    for (_code, path), outs in seen.items():
        diags.append(_diagnostic(game, outs[0], len(outs)))
    return diags


def setup_only(project: Project) -> list[Diagnostic]:
    """A note (not an error) for every game that was simulated without an engine module: its
    setup was played for every player count and mode, but no turns. The commands add these to
    what they print, in every output format; `validate()` itself returns problems only."""
    notes = []
    for gid in sorted(project.facts):  # the games simulated (check.run records each one)
        try:
            if find(gid) is not None:
                continue
        except EngineError:  # RB606 already says why
            continue
        notes.append(Diagnostic(
            "RB607", f"setup only: no engine module for {gid}", severity=Severity.NOTE,
            hint=f"setup was played for every player count and mode, no turns; an installed package that registers "
                 f"'{gid}' in the rulebook.engines entry-point group simulates whole games (docs/engine.md)",
            **project.games[gid].where(("id",))))
    return notes


def _diagnostic(game: GameDoc, out: Outcome, times: int) -> Diagnostic:
    f = out.fault
    where = game.where(f.path) if f.path else {}
    where = where or game.where(("id",))
    also = f" (and in {times - 1} more simulated game{'s' if times > 2 else ''})" if times > 1 else ""
    tail = " | ".join(out.tail[-5:])
    return Diagnostic(
        f.code,
        f"simulation of {game.id}, {out.players} players, {out.mode}, seed {out.seed}, round {out.round}, "
        f"turn {out.turn}: {f.message}{also}" + (f"; last steps: {tail}" if tail else ""),
        hint=f"replay it with `rulebook validate {game.id} --seed {out.seed}`", **where)


def _collect(facts: dict, out: Outcome) -> None:
    f = facts.setdefault((out.players, out.mode), Facts())
    f.games += 1
    if out.fault is None:
        f.turns.append(out.turns)
    for comp in out.ran_out:
        f.ran_out[comp] += 1
    for zone in out.ran_dry:
        f.ran_dry[zone] += 1


def facts(game: GameDoc, seeds: int = DEFAULT_SEEDS) -> dict:
    """{(players, mode): Facts} over `seeds` games each."""
    out: dict = {}
    check(game, None, seeds, facts=out)
    return out
