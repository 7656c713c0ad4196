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

    diags += _described(game)
    supported = set(player_counts(g))
    per_player_zones = {z.id for z in g.zones if z.per_player}
    references = {c.id for c in g.components if c.role == "reference"}
    for i, step in enumerate(g.setup):
        if step.component in references:
            diags.append(Diagnostic(
                "RB308", f"'{step.component}' is not a playing piece (role: reference): setup does not move it",
                hint="leave component: out of this step (its text can still mention it), or remove role: reference "
                "if the pieces are played with", **game.where(("setup", i, "component"))))
        if "players" not in game.partial:
            for path, table in _tables(step, ("setup", i)):
                diags += _table_rows(game, path, table, supported)
        if step.by_players is not None and step.to in per_player_zones:
            diags.append(Diagnostic(
                "RB306", f"by_players is the total for all players, but '{step.to}' is a per-player zone "
                "(the total would go to one player's zone)",
                hint="write per_player: {count: each player's number} (a table by player count is allowed)",
                **game.where(("setup", i, "by_players"), key=True)))
        if not step.gap and _unknown_amount(step):
            diags.append(Diagnostic("RB304", "this step moves an unknown number of pieces and no gap says why",
                                    hint="add gap: <id> naming an entry of gaps:", **game.where(("setup", i))))

    if diags or setup_unsound(game):  # the simulation of setup needs sound counts and references to say anything useful
        return diags
    reported: set[tuple] = set()
    setups = all_setups(g)
    for result in setups.values():
        for index, what, e in result.errors:
            key = (index, what)  # once per field: the first player count or mode that shows it
            if key not in reported:
                reported.add(key)
                field = what if what in ("count", "per_player", "by_players") else "kinds"
                diags.append(Diagnostic("RB403" if e.kind == "name" else "RB307", f"{field}: {e.message}",
                                        hint=e.hint or "check the names and numbers of this amount",
                                        **game.where(("setup", index, field))))
    if diags:  # an amount that does not compute makes every shortage after it a guess
        return diags
    first: dict[tuple, tuple] = {}  # one diagnostic per amount at fault: (message, path), from its first shortage
    also: dict[tuple, list[tuple]] = {}  # the other (players, mode) where the same amount overflows
    for (players, mode), result in setups.items():
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


def _tables(step, base) -> list[tuple[tuple, dict]]:
    """The tables by player count of a step: by_players, a per_player table, kinds' tables and
    values' tables."""
    out = []
    if step.by_players is not None:
        out.append((base + ("by_players",), step.by_players))
    if isinstance(step.per_player, dict):
        out.append((base + ("per_player",), step.per_player))
    for k, v in (step.kinds or {}).items():
        if isinstance(v, dict):
            out.append((base + ("kinds", k), v))
    for k, v in step.values.items():
        if isinstance(v, dict):
            out.append((base + ("values", k), v))
    return out


def _table_rows(game: GameDoc, path, table: dict, supported: set[int]) -> list[Diagnostic]:
    g = game.model
    diags = []
    missing = sorted(supported - set(table))
    extra = sorted(set(table) - supported)
    if missing:
        diags.append(Diagnostic("RB303", f"no value for {_players(missing)}",
                                hint=f"the game is for {g.players.min}-{g.players.max} players: give every count",
                                **game.where(path)))
    for n in extra:
        diags.append(Diagnostic("RB303", f"{n} players is outside the game's {g.players.min}-{g.players.max}",
                                hint="remove the row or widen players:", **game.where(path + (n,), key=True)))
    return diags


def _unknown_amount(step) -> bool:
    tables = [step.by_players or {}, step.per_player if isinstance(step.per_player, dict) else {}]
    return "unknown" in (step.count, step.per_player) or any("unknown" in t.values() for t in tables)


def _described(game: GameDoc) -> list[Diagnostic]:
    """The card reference describes as many pieces of a component as its count says (RB305),
    unless a count is unknown or a gap (of the component, the group or a card) explains it."""
    g = game.model
    diags = []
    groups: dict[str, list[int]] = {}
    for gi, group in enumerate(g.cards):
        groups.setdefault(group.component, []).append(gi)
    comps = {c.id: (ci, c) for ci, c in enumerate(g.components)}
    for cid, indexes in groups.items():
        if cid not in comps:
            continue
        ci, comp = comps[cid]
        cards = [c for gi in indexes for c in g.cards[gi].cards]
        if comp.count is None or comp.gap or any(g.cards[gi].gap for gi in indexes) \
                or any(k.gap or k.count is None for k in comp.kinds):
            continue
        known = [c.count for c in cards if c.count is not None]
        total = sum(known)
        unsure = len(known) < len(cards)  # a card whose count is unknown (null, with its gap)
        if total > comp.count or (total != comp.count and not unsure):
            diags.append(Diagnostic(
                "RB305", f"the card reference describes {total} '{cid}' "
                f"({len(cards)} entr{'y' if len(cards) == 1 else 'ies'}), but the component's count is {comp.count}",
                hint="correct the count or the cards' counts, or name a gap that explains the difference",
                **game.where(("components", ci, "count"))))
    return diags


def _amount(step, players: int) -> tuple:
    """The key of a step whose amount ran short: the by-players row, per_player, count or kinds."""
    for name in ("by_players", "per_player", "count", "kinds"):
        value = getattr(step, name, None)
        if value is None or (name == "count" and value in ("all", "rest", "unknown")):
            continue
        if isinstance(value, dict) and name != "kinds":
            return (name, players) if players in value else (name,)
        return (name,)
    return ()


def setup_unsound(game: GameDoc) -> bool:
    """Whether a setup step names a component, zone, kind or mode that does not exist (reported by
    check.refs) or a component that is not a playing piece (RB308), or a schema error left items out of the model: playing the setup would then only
    report follow-on shortages."""
    if game.partial & {"setup", "components", "zones", "modes", "players"}:
        return True
    g = game.model
    comps = {c.id: {k.id for k in c.kinds} for c in g.components if c.role != "reference"}  # a reference is RB308
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
