"""Counts add up: breakdowns, per-colour counts, tables by player count, setup against the box."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..engine.setup import BOX, all_setups, player_counts
from ..project import GameDoc, Project


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    g = game.model
    diags: list[Diagnostic] = []
    for ci, comp in enumerate(g.components):
        base = ("components", ci)
        if comp.count is None and not comp.gap and not comp.unlimited:
            diags.append(Diagnostic("RB304", f"the count of '{comp.id}' is unknown and no gap says why",
                                    hint="add gap: <id> naming an entry of gaps:", **game.where(base + ("count",))))
        known = [k.count for k in comp.kinds if k.count is not None]
        for ki, kind in enumerate(comp.kinds):
            if kind.count is None and not (kind.gap or comp.gap):
                diags.append(Diagnostic("RB304", f"the count of kind '{kind.id}' is unknown and no gap says why",
                                        hint="add gap: <id> to the kind or its component",
                                        **game.where(base + ("kinds", ki, "count"))))
        if comp.kinds and comp.count is not None:
            total = sum(known)
            if len(known) == len(comp.kinds) and total != comp.count:
                parts = " + ".join(str(k) for k in known)
                diags.append(Diagnostic("RB300", f"the kinds of '{comp.id}' add up to {parts} = {total}, not {comp.count}",
                                        hint="correct a kind's count or the component's count", **game.where(base + ("count",))))
            elif total > comp.count:
                diags.append(Diagnostic("RB300", f"the known kinds of '{comp.id}' already add up to {total}, over its count {comp.count}",
                                        hint="correct a kind's count or the component's count", **game.where(base + ("count",))))
        if comp.per_colour is not None and comp.count is not None and comp.per_colour * g.colours != comp.count \
                and "colours" not in game.partial:
            diags.append(Diagnostic("RB301", f"'{comp.id}': {comp.per_colour} per colour × {g.colours} colours = "
                                    f"{comp.per_colour * g.colours}, not {comp.count}",
                                    hint="correct per_colour, count or the game's colours", **game.where(base + ("per_colour",))))

    supported = set(player_counts(g))
    for i, step in enumerate(g.setup):
        if step.by_players is None or "players" in game.partial:
            continue
        path = ("setup", i, "by_players")
        missing = sorted(supported - set(step.by_players))
        extra = sorted(set(step.by_players) - supported)
        if missing:
            diags.append(Diagnostic("RB303", f"no value for {_players(missing)}",
                                    hint=f"the game is for {g.players.min}-{g.players.max} players: give every count",
                                    **game.where(path)))
        for n in extra:
            diags.append(Diagnostic("RB303", f"{n} players is outside the game's {g.players.min}-{g.players.max}",
                                    hint="remove the row or widen players:", **game.where(path + (n,), key=True)))

    if diags or setup_unsound(game):  # the simulation of setup needs sound counts and references to say anything useful
        return diags
    first: dict[tuple, tuple] = {}  # one diagnostic per amount at fault: (message, path), from its first shortage
    also: dict[tuple, list[tuple]] = {}  # the other (players, mode) where the same amount overflows
    per_player_zones = {z.id for z in g.zones if z.per_player}
    for (players, mode), result in all_setups(g).items():
        short_in_step: dict[int, int] = {}
        for s in result.shortages:
            short_in_step[s.step_index] = short_in_step.get(s.step_index, 0) + 1
        seen: set[tuple] = set()
        for s in result.shortages:
            step = g.setup[s.step_index]
            amount = ("setup", s.step_index) + _amount(step, players)
            key = (amount, s.component, s.zone)
            if key in seen:
                continue
            seen.add(key)
            if key in first:
                also[key].append((players, mode))
                continue
            n = step.per_player.get(players) if isinstance(step.per_player, dict) else step.per_player
            if (isinstance(n, int) and not isinstance(n, bool) and s.wanted == n and players > 1
                    and step.from_ not in per_player_zones):
                # every player takes n from one zone: say the total and what the zone held before the step
                before = s.available + n * (players - short_in_step[s.step_index])
                message = (f"with {players} players ({mode}) each player takes {n} '{s.component}' from '{s.zone}': "
                           f"{players * n} in all, but it holds {before} before this step")
            else:
                message = (f"with {players} players ({mode}) this step takes {s.wanted} '{s.component}' from "
                           f"'{s.zone}', which holds {s.available} at this point")
            first[key] = (message, amount, mode)
            also[key] = []
    for key, (message, amount, mode) in first.items():
        more = also[key]
        if more and all(m == mode for _p, m in more):
            message += f" (and with {', '.join(str(p) for p, _m in more)} players)"
        elif more:
            message += f" (and with {', '.join(f'{p} players ({m})' for p, m in more)})"
        diags.append(Diagnostic(
            "RB302", message,
            hint="check this amount and the component's count; setup never takes more than the box holds",
            **game.where(amount, key=len(amount) > 2)))
    return diags


def _amount(step, players: int) -> tuple:
    """The key of a step whose amount ran short: the by-players row, per_player, count or kinds."""
    for name in ("by_players", "per_player", "count", "kinds"):
        value = getattr(step, name, None)
        if value is None or (name == "count" and not isinstance(value, int)):
            continue
        if isinstance(value, dict) and name != "kinds":
            return (name, players) if players in value else (name,)
        return (name,)
    return ()


def setup_unsound(game: GameDoc) -> bool:
    """Whether a setup step names a component, zone, kind or mode that does not exist (reported by
    check.refs), or a schema error left items out of the model: playing the setup would then only
    report follow-on shortages."""
    if game.partial & {"setup", "components", "zones", "modes", "players"}:
        return True
    g = game.model
    comps = {c.id: {k.id for k in c.kinds} for c in g.components}
    zones = {z.id for z in g.zones} | {BOX}
    modes = {m.id for m in g.modes}
    for step in g.setup:
        if step.component is not None and step.component not in comps:
            return True
        if step.from_ not in zones or (step.to is not None and step.to not in zones):
            return True
        kinds = comps.get(step.component or "", set())
        if (step.kind is not None and step.kind not in kinds) or any(k not in kinds for k in step.kinds or {}):
            return True
        if step.modes and any(m not in modes for m in step.modes):
            return True
    return False


def _players(ns: list[int]) -> str:
    return ", ".join(str(n) for n in ns) + (" player" if ns == [1] else " players")
