"""State: the zones, players, scores, seeded randomness and transcript of one simulated game.

A zone is either a *count* (a `Counter` of `(component, kind)` → how many, for supplies where
order does not matter) or a *pile* (a list of pieces, top last, for decks, bags and stacks).
A piece is a tuple whose first two items are its component and kind; more items may name it
(a card's id, a tile's printed colours). Per-player zones are named `zone#1`, `zone#2` ….

Game modules change the state only through these primitives, so the invariants can see every
piece: `take` (between counts, short supplies recorded rather than raised), `draw` (a pile's
declared `on_empty` rule applies), `put`, `add` and `remove` (a piece the module holds, into or
out of a count zone), `pile_of`, `gain_points`; `count` and `pile` hand out a zone to change,
`has`, `held_in` and `look` only read one. `zones()` lists every
zone's contents by component for the conservation check; a module adds the places it keeps
in its own structures (a grid, slots) through `extra_zones`.
"""

from __future__ import annotations

import itertools
import operator
import random
from collections import Counter
from dataclasses import dataclass

from ..model import Game
from .setup import BOX, SetupResult

try:  # the C helper behind Counter.update: the invariants run after every step
    from collections import _count_elements
except ImportError:  # pragma: no cover
    def _count_elements(mapping, iterable):
        for x in iterable:
            mapping[x] = mapping.get(x, 0) + 1

Piece = tuple
_first = operator.itemgetter(0)
_get = dict.get
_EMPTY: Counter = Counter()


def _copy(c: Counter) -> Counter:
    new = Counter()
    dict.update(new, c)
    return new


def _pieces_total(p) -> dict:
    t: dict = {}
    _count_elements(t, map(_first, filter(None, p)))
    return t


def _shift(delta: dict, old: dict | None, new: dict | None) -> None:
    get = delta.get
    if old:
        for comp, n in old.items():
            delta[comp] = get(comp, 0) - n
    if new:
        for comp, n in new.items():
            delta[comp] = get(comp, 0) + n


class _Zones(dict):
    """A mapping of zones that marks every zone it hands out or changes (so a module that reaches
    a zone through `state.counts[...]` or `state.piles.get(...)` is still seen by the incremental
    conservation check). Iterating it marks every zone."""

    __slots__ = ("dirty",)

    def __init__(self, dirty: set, items=()):
        super().__init__(items)
        self.dirty = dirty

    def __getitem__(self, zone):
        self.dirty.add(zone)
        return dict.__getitem__(self, zone)

    def get(self, zone, default=None):
        self.dirty.add(zone)
        return _get(self, zone, default)

    def __setitem__(self, zone, value):
        self.dirty.add(zone)
        dict.__setitem__(self, zone, value)

    def __delitem__(self, zone):
        self.dirty.add(zone)
        dict.__delitem__(self, zone)

    def pop(self, zone, *default):
        self.dirty.add(zone)
        return dict.pop(self, zone, *default)

    def setdefault(self, zone, default=None):
        self.dirty.add(zone)
        return dict.setdefault(self, zone, default)

    def _all(self):
        self.dirty.update(dict.keys(self))

    def values(self):
        self._all()
        return dict.values(self)

    def items(self):
        self._all()
        return dict.items(self)

    def __iter__(self):
        self._all()
        return dict.__iter__(self)

    def clear(self):
        self._all()
        dict.clear(self)

    def popitem(self):
        self._all()
        return dict.popitem(self)

    def update(self, *a, **k):
        self._all()
        dict.update(self, *a, **k)
        self._all()


def values(game: Game) -> dict[str, dict[str, int]]:
    """Every item's values by id: the numbers the rules use, as the data gives them.

    Game modules read their rule numbers from here, never from literals in their code."""
    items = list(game.actions) + list(game.setup) + game.rounds.start + game.rounds.turn + game.rounds.end
    items += game.scoring.during + game.scoring.final
    for sec in game.rules:
        items += sec.items
    for group in game.cards:
        items += group.cards
    return {i.id: _evaluated(game, i) for i in items}


def _evaluated(game: Game, item) -> dict:
    """An item's values with expressions computed (a table by player count stays a table of
    numbers); the static checks have made sure they evaluate."""
    if all(isinstance(v, int) for v in item.values.values()):
        return item.values
    from ..expr import ExprError
    from ..quantities import Scope, numbers_of
    scope = Scope(numbers_of(game), (item,))
    out = {}
    for k, v in item.values.items():
        try:
            if isinstance(v, dict):
                out[k] = {n: Scope(scope.numbers, (item,), n).amount(x, what=k) for n, x in v.items()}
            else:
                out[k] = scope.amount(v, what=k)
        except ExprError:
            out[k] = v
    return out


@dataclass(frozen=True)
class Fault:
    """A problem a primitive met while the game ran: reported as a diagnostic, never raised."""

    code: str
    message: str
    path: tuple  # the YAML path of the data involved


class State:
    """The generic state. Subclasses (game modules) add rules; this class alone plays no turns."""

    score_zone: str | None = None  # the zone whose track_min/track_max bound the scores

    def __init__(self, game: Game, setup: SetupResult, seed: int, box: Counter, endless: set[str],
                 params: dict | None = None):
        self.game = game
        self.p = params or {}  # the module's sampled unknowns (its `parameters`)
        self.v = values(game)  # the rule numbers, by item id
        self.players = setup.players
        self.mode = setup.mode
        self.seed = seed
        self.rng = random.Random(f"{game.id}/{setup.players}/{setup.mode}/{seed}/play")
        # the zones changed since the last check: whatever reaches a zone through `count`, `pile`,
        # the primitives or the `counts`/`piles` mappings marks it, so the conservation check
        # recounts only those (and the module's own places); a full recount runs at every new
        # round and at the end, and after every step with `full_check` (invariants.py)
        self.dirty: set[str] = set()
        self.counts: dict[str, Counter] = _Zones(self.dirty, ((z, _copy(c)) for z, c in setup.zones.items()))
        self.piles: dict[str, list] = _Zones(self.dirty)
        self.zone_totals: dict[str, dict] = {}  # zone -> {component: n} when last counted
        self.extra_seen: list = []  # (a copy, {component: n}) of each list of the module's own places
        self.held: Counter = Counter()  # component -> total over all zones when last counted
        self.moved: dict = {}  # component -> pieces the primitives added to the zones since (- taken out)
        self.comp_index = {c.id: i for i, c in enumerate(game.components)}
        self.box = box  # component -> how many exist (finite components only)
        self.endless = endless
        self.zone_rules = {z.id: z for z in game.zones}
        self.zone_index = {z.id: i for i, z in enumerate(game.zones)}
        track = self.zone_rules.get(self.score_zone) if self.score_zone else None
        # the score track's bounds (RB602), when the score zone declares any
        self.track = (self.zone_index[self.score_zone], track.track_min, track.track_max) \
            if track is not None and (track.track_min is not None or track.track_max is not None) else None
        self.scores = [0] * self.players
        self.round = 0
        self.turn = 0
        self.current = 0
        self.over = False
        self.log: list[str] = []
        self.ran_out: Counter = Counter()  # component -> how often a take found its supply short
        self.ran_dry: Counter = Counter()  # zone -> draws that found it empty (a gap says why)
        self.faults: list[Fault] = []

    # ----- the OpenSpiel-like interface (the generic state has no turns)
    def legal_actions(self) -> list:
        return []

    def apply(self, action) -> None:
        raise ValueError(f"no action is legal in a game without an engine module: {action!r}")

    def is_over(self) -> bool:
        return True

    def final_scores(self) -> list[int]:
        return list(self.scores)

    # ----- primitives
    def count(self, zone: str) -> Counter:
        """A count zone, to change: the zone is marked for the next conservation check (to only
        read it, `has` is cheaper)."""
        self.dirty.add(zone)
        c = _get(self.counts, zone)
        if c is None:
            c = Counter()
            dict.__setitem__(self.counts, zone, c)
        return c

    def pile(self, zone: str) -> list:
        """A pile, to change: the zone is marked for the next conservation check (to only read
        it, `look` is cheaper)."""
        self.dirty.add(zone)
        p = _get(self.piles, zone)
        if p is None:
            p = []
            dict.__setitem__(self.piles, zone, p)
        return p

    def has(self, zone: str, piece: tuple) -> int:
        """How many of `piece` a count zone holds (a read: nothing is marked)."""
        c = _get(self.counts, zone)
        return c[piece] if c else 0

    def held_in(self, zone: str) -> Counter:
        """A count zone to read only (never change it: the conservation check would not see it
        until the next full recount)."""
        return _get(self.counts, zone) or _EMPTY

    def look(self, zone: str) -> list:
        """A pile to read only (never change it)."""
        return _get(self.piles, zone) or []

    def pile_of(self, zone: str, name=None) -> list:
        """Turn a count zone into a shuffled pile; `name(piece)` may return a more specific piece."""
        pieces = []
        for key, n in sorted(self.counts.pop(zone, Counter()).items()):
            pieces += [key] * n
        self.rng.shuffle(pieces)
        if name is not None:
            pieces = [name(p) for p in pieces]
        self.pile(zone).extend(pieces)
        return self.piles[zone]

    def _arrived(self, zone: str, comp: str, n: int) -> None:
        """A primitive moved n pieces of `comp` into `zone` (n < 0: out of it): keep the zone's
        count for the conservation check current without recounting it."""
        t = self.zone_totals.get(zone)
        if t is None:
            t = self.zone_totals[zone] = {}
        t[comp] = t.get(comp, 0) + n

    def _raw_count(self, zone: str) -> Counter:
        c = _get(self.counts, zone)
        if c is None:
            c = Counter()
            dict.__setitem__(self.counts, zone, c)
        return c

    def take(self, src: str, dst: str, piece: tuple, n: int = 1, as_: tuple | None = None) -> int:
        """Move up to n of `piece` ((component, kind)) between count zones; returns how many moved.
        A supply with too few is recorded in `ran_out` (how often a finite supply ran short).
        `as_` relabels the pieces on arrival (a seal placed on the board keeps its owner's mark)."""
        if n <= 0:
            return 0
        comp = piece[0]
        if comp in self.endless and src == BOX:
            self._raw_count(dst)[piece] += n
            self._arrived(dst, comp, n)
            self.moved[comp] = self.moved.get(comp, 0) + n
            return n
        have = self._raw_count(src)
        got = have[piece]
        if got < n:
            self.ran_out[comp] += 1
            n = got
        if n:
            have[piece] -= n
            if not have[piece]:
                del have[piece]
            to = as_ or piece
            self._raw_count(dst)[to] += n
            self._arrived(src, comp, -n)
            self._arrived(dst, to[0], n)
            if to[0] != comp:
                self.moved[comp] = self.moved.get(comp, 0) - n
                self.moved[to[0]] = self.moved.get(to[0], 0) + n
        return n

    def draw(self, zone: str, at_random: bool = False):
        """The top piece of a pile (or a random one, for a bag), or None. An empty pile follows
        its zone's `on_empty` rule; with no rule but a `gap` (the sources are silent) nothing is
        drawn and the event is counted; with neither, the draw is a fault the validator reports."""
        p = _get(self.piles, zone)
        if p is None:
            p = self.pile(zone)
        if not p:
            self.dirty.add(zone)
            rule = self.zone_rules.get(zone)
            how = rule.on_empty if rule else None
            if how == "reshuffle" and rule.refill_from:
                src = rule.refill_from
                refill = self.piles.pop(src, []) + [k for k, n in self.counts.pop(src, Counter()).items() for _ in range(n)]
                self.rng.shuffle(refill)
                p.extend(refill)
                self.say(f"{zone} is empty: {len(refill)} pieces of {src} shuffled in")
            elif how == "end-game":
                self.say(f"{zone} is empty: the game ends")
                self.over = True
                return None
            elif how == "skip":
                return None
            elif rule is not None and rule.gap:  # the sources are silent, and the data says so
                self.ran_dry[zone] += 1
                self.say(f"{zone} is empty: nothing drawn (the sources do not say what happens: {rule.gap})")
                return None
            else:
                self.fault("RB604", f"a draw from '{zone}' found it empty, and the data gives no rule for that",
                           ("zones", self.zone_index[zone]) if zone in self.zone_index else ())
                return None
            if not p:
                return None
        if at_random and len(p) > 1:
            i = self.rng.randrange(len(p))
            p[i], p[-1] = p[-1], p[i]
        piece = p.pop()
        comp = piece[0]
        self._arrived(zone, comp, -1)
        self.moved[comp] = self.moved.get(comp, 0) - 1  # into the module's hands
        return piece

    def add(self, zone: str, piece: tuple, n: int = 1) -> None:
        """Put n of a piece the module holds (drawn, or taken from one of its own places) into a
        count zone."""
        if n:
            self._raw_count(zone)[piece] += n
            comp = piece[0]
            self._arrived(zone, comp, n)
            self.moved[comp] = self.moved.get(comp, 0) + n

    def remove(self, zone: str, piece: tuple, n: int = 1) -> int:
        """Take up to n of a piece out of a count zone into the module's hands (to put it into
        a pile or one of its own places); returns how many it got."""
        c = _get(self.counts, zone)
        got = min(n, c[piece]) if c else 0
        if got > 0:
            c[piece] -= got
            if not c[piece]:
                del c[piece]
            comp = piece[0]
            self._arrived(zone, comp, -got)
            self.moved[comp] = self.moved.get(comp, 0) - got
        return max(got, 0)

    def put(self, zone: str, piece: tuple, bottom: bool = False) -> None:
        """Put a piece the module holds onto a pile (on top, or at the bottom)."""
        p = _get(self.piles, zone)
        if p is None:
            p = self.pile(zone)
        if bottom:
            p.insert(0, piece)
        else:
            p.append(piece)
        comp = piece[0]
        self._arrived(zone, comp, 1)
        self.moved[comp] = self.moved.get(comp, 0) + 1

    def gain_points(self, player: int, n: int, why: str) -> None:
        if n:
            self.scores[player] += n
            self.say(f"P{player + 1} {'+' if n > 0 else ''}{n} points ({why}) -> {self.scores[player]}")

    def fault(self, code: str, message: str, path: tuple) -> None:
        self.faults.append(Fault(code, message, path))

    def say(self, text: str) -> None:
        self.log.append(f"r{self.round} t{self.turn}: {text}")

    # ----- what the invariants look at
    def extra_zones(self) -> dict[str, list]:
        """Places a module keeps in its own structures (a grid, slots): {zone: [piece or None]}."""
        return {}

    def extra_lists(self) -> tuple:
        """The lists of pieces (or None, an empty slot) of the module's own places, for the
        conservation check after every step: by default `extra_zones`' values; a module may give
        its lists directly (cheaper). Only a list that differs from its copy at the last check is
        recounted."""
        return tuple(self.extra_zones().values())

    def zones(self) -> dict[str, Counter]:
        """Every zone's contents by component (for transcripts and the components facts)."""
        out: dict[str, Counter] = {}
        for z, c in dict.items(self.counts):
            t = out.setdefault(z, Counter())
            for (comp, _kind), n in c.items():
                t[comp] += n
        for z, p in itertools.chain(dict.items(self.piles), self.extra_zones().items()):
            out.setdefault(z, Counter()).update(piece[0] for piece in p if piece)
        return out

    def totals(self) -> tuple[dict, list[tuple[str, str, int]]]:
        """Each component's total over all zones, and any (zone, component, n) below zero, by a
        full recount of every zone (the reference the incremental check is held to)."""
        tot: dict = {}
        get = tot.get
        negative = []
        for z, c in dict.items(self.counts):
            for key, n in c.items():
                if n < 0:
                    negative.append((z, key[0], n))
                comp = key[0]
                tot[comp] = get(comp, 0) + n
        first = _first
        for p in dict.values(self.piles):
            _count_elements(tot, map(first, p))
        for p in self.extra_lists():
            _count_elements(tot, map(first, filter(None, p)))
        return tot, negative

    def recount(self) -> tuple[Counter, list[tuple[str, str, int]]]:
        """Like `totals`, and makes the full count the base of the incremental checks."""
        self.dirty.clear()
        self.moved = {}
        zt = self.zone_totals = {}
        negative = []
        for z in set(dict.keys(self.counts)) | set(dict.keys(self.piles)):
            zt[z] = self._zone_total(z, negative)
        seen = self.extra_seen = [(list(lst), _pieces_total(lst)) for lst in self.extra_lists()]
        tot = self.held = Counter()
        for t in itertools.chain(zt.values(), (t for _l, t in seen)):
            for comp, n in t.items():
                tot[comp] += n
        return tot, negative

    def update_totals(self) -> tuple[list, list[tuple[str, str, int]]]:
        """The incremental check: recount only the zones marked since the last check and the
        module's own places; returns the components whose totals over all zones changed (moves
        between zones cancel out) and any (zone, component, n) below zero in the zones
        recounted. O(what changed), not O(every zone)."""
        negative: list = []
        delta = self.moved
        self.moved = {}
        if self.dirty:
            zt = self.zone_totals
            for z in self.dirty:
                new = self._zone_total(z, negative)
                old = zt.get(z)
                if new != old:
                    _shift(delta, old, new)
                    zt[z] = new
            self.dirty.clear()
        lists = self.extra_lists()
        seen = self.extra_seen
        if len(lists) != len(seen):  # the module keeps more places than before, or fewer
            for _copy, old in seen[len(lists):]:
                _shift(delta, old, None)
            del seen[len(lists):]
            seen.extend(([], {}) for _ in range(len(lists) - len(seen)))
        for i, lst in enumerate(lists):
            copy, old = seen[i]
            if lst != copy:
                new = _pieces_total(lst)
                if new != old:
                    _shift(delta, old, new)
                seen[i] = (lst[:], new)
        changed = [c for c, d in delta.items() if d]
        if changed:
            tot = self.held
            for c in changed:
                tot[c] += delta[c]
        return changed, negative

    def _zone_total(self, z: str, negative: list) -> dict:
        t: dict = {}
        c = _get(self.counts, z)
        if c:
            for key, n in c.items():
                if n < 0:
                    negative.append((z, key[0], n))
                comp = key[0]
                t[comp] = t.get(comp, 0) + n
        p = _get(self.piles, z)
        if p:
            _count_elements(t, map(_first, p))
        return t

    def describe(self) -> str:
        """A readable picture of every zone, for transcripts."""
        lines = []
        for z, c in sorted(self.zones().items()):
            items = ", ".join(f"{k} {n}" for k, n in sorted(c.items()) if n)
            if items:
                lines.append(f"  {z}: {items}")
        lines.append("  scores: " + " ".join(f"P{i + 1}={s}" for i, s in enumerate(self.scores)))
        return "\n".join(lines)


def initial_box(game: Game) -> tuple[Counter, set[str]]:
    """How many of each finite component exist, and which components are endless (unlimited, or
    of unknown count: nothing can be conserved that was never counted). A rulebook or other
    `role: reference` component is not a playing piece: the simulation does not count it."""
    box: Counter = Counter()
    endless: set[str] = set()
    for comp in game.components:
        if comp.role == "reference":
            continue
        if comp.count is None or comp.unlimited:
            endless.add(comp.id)
        else:
            box[comp.id] = comp.count
    return box, endless
