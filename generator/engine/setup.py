"""Setup interpreter: executes a game's declarative setup steps for one player count and mode.

State is a set of zones, each holding counts of (component, kind). The box starts with every
playing piece (a `role: reference` component, such as a rulebook, is left out: setup never
moves it); a step moves pieces between zones. Per-player zones exist once per player
(`player-supply#2`). Taking more than a zone holds is reported as a `Shortage` that names the
step, never an exception. Components whose count is unknown or that are unlimited never run
short. The result feeds the components page ("what 3 players use") and the checks.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field

from ..expr import UNKNOWN as EXPR_UNKNOWN
from ..expr import ExprError
from ..model import Game, SetupStep
from ..quantities import Scope, numbers_of

BOX = "box"
UNKNOWN = ""  # the kind bucket of pieces whose kind the sources do not give


@dataclass
class Shortage:
    step_index: int
    component: str
    wanted: int
    available: int
    zone: str


@dataclass
class SetupResult:
    players: int
    mode: str
    zones: dict[str, Counter] = field(default_factory=dict)
    shortages: list[Shortage] = field(default_factory=list)
    steps_run: list[int] = field(default_factory=list)
    # (zone, component, kind) -> the gap that makes its number unknown: a step moved an amount the
    # sources do not give into or out of it. Pages show '?' there and link the gap.
    unsure: dict[tuple[str, str, str], str | None] = field(default_factory=dict)
    # the amounts that could not be evaluated: (step index, field, ExprError)
    errors: list[tuple[int, str, object]] = field(default_factory=list)

    def total(self, zone: str, component: str) -> int:
        return sum(n for (c, _k), n in self.zones.get(zone, Counter()).items() if c == component)

    def in_box(self, component: str) -> int:
        return self.total(BOX, component)

    def unsure_gap(self, component: str, zone: str | None = None, kind: str | None = None):
        """(True, gap) when the number of `component` (in `zone`, of `kind`) is unknown after setup."""
        for (z, c, k), gap in self.unsure.items():
            if c == component and (zone is None or z == zone or z.partition("#")[0] == zone) \
                    and (kind is None or k == kind):
                return True, gap
        return False, None


def _initial_box(game: Game, kind_counts: dict[str, dict[str, int]] | None = None) -> tuple[Counter, set[str]]:
    box: Counter = Counter()
    endless: set[str] = set()
    for comp in game.components:
        if comp.role == "reference":  # a rulebook is read, not played with: setup never moves it (RB308)
            continue
        if comp.count is None:  # unknown: never runs short, and nothing is counted
            endless.add(comp.id)
            continue
        known = 0
        given = (kind_counts or {}).get(comp.id, {})
        for kind in comp.kinds:
            n = given.get(kind.id, kind.count)
            if n is not None:
                box[(comp.id, kind.id)] = n
                known += n
        if comp.count - known > 0:
            box[(comp.id, UNKNOWN)] = comp.count - known
    return box, endless


def applies(step: SetupStep, mode: str) -> bool:
    return step.modes is None or mode in step.modes


def run_setup(game: Game, players: int, mode: str, seed: int = 0,
              kind_counts: dict[str, dict[str, int]] | None = None,
              unknowns: dict[str, int] | None = None) -> SetupResult:
    """Run the setup steps. `kind_counts` gives counts of kinds the data leaves unknown (a game
    module samples them for the simulation; the pages never see them).

    An amount the data calls 'unknown' (or that computes from an unknown count) is taken from
    `unknowns` by step id when given (the simulation's sample), else as all the source holds;
    either way the pieces it touches are marked in `result.unsure` with the step's gap, so the
    pages show '?' there and never a guessed number. Shortages of unsure pieces are not reported."""
    rng = random.Random(f"{game.id}/{players}/{mode}/{seed}")
    box, endless = _initial_box(game, kind_counts)
    unlimited = {c.id for c in game.components if c.unlimited}
    per_player = {z.id for z in game.zones if z.per_player}
    result = SetupResult(players, mode, {BOX: box})

    zones = result.zones

    def zone(name: str) -> Counter:
        z = zones.get(name)
        if z is None:
            z = zones[name] = Counter()
        return z

    unsure = result.unsure

    def take(index: int, src: str, dst: str, component: str, kind: str | None, n, gap: str | None = None) -> None:
        """Move n pieces (None: all there are; UNSURE: an unknown number) of component/kind from
        src to dst."""
        if n is UNSURE:
            n = None if unknowns is None or game.setup[index].id not in unknowns else unknowns[game.setup[index].id]
            for z in (src, dst):
                unsure.setdefault((z, component, kind or ""), gap)
        if component in endless:
            if n:
                zone(dst)[(component, kind or UNKNOWN)] += n
            return
        have = zone(src)
        keys = [k for k in have if k[0] == component and have[k] > 0]
        if kind is not None:
            exact = [k for k in keys if k[1] == kind]
            keys = exact or [k for k in keys if k[1] == UNKNOWN]
        available = sum(have[k] for k in keys)
        from_unsure = [g for (z, c, k), g in unsure.items()
                       if z == src and c == component and (kind is None or k in (kind, ""))] if unsure else ()
        if from_unsure:  # what the source holds is not known: neither is what arrives, unless all of it is named
            if n is None:
                for k in keys or [(component, kind or "")]:
                    unsure.setdefault((dst, component, k[1]), from_unsure[0])
            n = available if n is None else min(n, available)
        if n is None:
            n = available
        if n > available and component in unlimited:
            # the rules call this supply unlimited: make up what the box lacks (a stand-in)
            have[(component, kind or UNKNOWN)] += n - available
            keys = [k for k in have if k[0] == component and have[k] > 0 and (kind is None or k[1] in (kind, UNKNOWN))]
            available = n
        if n > available:
            result.shortages.append(Shortage(index, component, n, available, src))
            n = available
        if n == available:  # all of them: no choice to make
            for k in keys:
                dst_kind = k[1] if kind is None or k[1] != UNKNOWN else kind
                zone(dst)[(component, dst_kind)] += have.pop(k)
            return
        if len(keys) == 1:  # one kind: no choice to make, but the same draws from the RNG as below
            k = keys[0]
            random_ = rng.random
            for _ in range(n):
                random_()
            have[k] -= n
            if have[k] == 0:
                del have[k]
            zone(dst)[(component, k[1] if kind is None or k[1] != UNKNOWN else kind)] += n
            return
        for _ in range(n):  # random draw, weighted by what the zone holds
            weights = [have[k] for k in keys]
            k = rng.choices(keys, weights)[0]
            have[k] -= 1
            if have[k] == 0:
                del have[k]
                keys.remove(k)
            dst_kind = k[1] if kind is None or k[1] != UNKNOWN else kind
            zone(dst)[(component, dst_kind)] += 1

    numbers = numbers_of(game)
    for index, step in enumerate(game.setup):
        if not applies(step, mode) or step.component is None or step.do in ("note", "shuffle") and step.to is None:
            continue
        result.steps_run.append(index)
        dst = step.to or BOX
        src = step.from_
        src_zones = [f"{src}#{p}" for p in range(1, players + 1)] if src in per_player else [src]
        dst_zones = [f"{dst}#{p}" for p in range(1, players + 1)] if dst in per_player else [dst]
        scope = Scope(numbers, (step,), players)

        def amount(v, what: str):
            if v is None or v in ("all", "rest"):
                return None
            try:
                got = scope.amount(v, what=what)
            except ExprError as e:
                result.errors.append((index, what, e))
                return 0
            if got is EXPR_UNKNOWN:
                return UNSURE
            if got < 0:
                result.errors.append((index, what, ExprError(
                    f"the amount computes to {got} with {players} players: fewer than none",
                    "check the numbers it names", "value")))
                return 0
            return got

        kinds = {k: amount(v, k) for k, v in (step.kinds or {}).items()}
        if step.per_player is not None:
            n = amount(step.per_player, "per_player")
            for p in range(players):
                s = src_zones[p] if len(src_zones) > 1 else src_zones[0]
                d = dst_zones[p] if len(dst_zones) > 1 else dst_zones[0]
                _move(take, index, s, d, step, n, kinds)
        else:
            if step.by_players is not None:
                n = amount(step.by_players.get(players, 0), "by_players")
            else:
                n = amount(step.count, "count")  # None: 'all' / 'rest' / just the kinds
            for s in src_zones:
                _move(take, index, s, dst_zones[0], step, n, kinds)
    return result


class _Unsure:
    """An amount the data does not know (see run_setup)."""


UNSURE = _Unsure()


def _move(take, index: int, src: str, dst: str, step: SetupStep, n, kinds: dict) -> None:
    if kinds:
        for kind, k_n in kinds.items():
            take(index, src, dst, step.component, kind, k_n, step.gap)
        if n is not None and n is not UNSURE and step.count is not None and all(isinstance(v, int) for v in kinds.values()):
            take(index, src, dst, step.component, step.kind, max(n - sum(kinds.values()), 0), step.gap)
        return
    take(index, src, dst, step.component, step.kind, n, step.gap)


def player_counts(game: Game, mode: str | None = None) -> list[int]:
    """The supported player counts: the game's, or the mode's own when it names them."""
    players = game.players
    if mode is not None:
        m = next((m for m in game.modes if m.id == mode), None)
        if m is not None and m.players is not None:
            players = m.players
    return list(range(players.min, players.max + 1))


def all_setups(game: Game) -> dict[tuple[int, str], SetupResult]:
    return {(p, m.id): run_setup(game, p, m.id) for m in game.modes for p in player_counts(game, m.id)}
