"""State: the zones, players, scores, seeded randomness and transcript of one simulated game.

A zone is either a *count* (a `Counter` of `(component, kind)` → how many, for supplies where
order does not matter) or a *pile* (a list of pieces, top last, for decks, bags and stacks).
A piece is a tuple whose first two items are its component and kind; more items may name it
(a card's id, a tile's printed colours). Per-player zones are named `zone#1`, `zone#2` ….

Game modules change the state only through these primitives, so the invariants can see every
piece: `take` (between counts, short supplies recorded rather than raised), `draw` (a pile's
declared `on_empty` rule applies), `put`, `pile_of`, `gain_points`. `zones()` lists every
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


def values(game: Game) -> dict[str, dict[str, int]]:
    """Every item's values by id: the numbers the rules use, as the data gives them.

    Game modules read their rule numbers from here, never from literals in their code."""
    items = list(game.actions) + list(game.setup) + game.rounds.start + game.rounds.turn + game.rounds.end
    items += game.scoring.during + game.scoring.final
    for sec in game.rules:
        items += sec.items
    for group in game.cards:
        items += group.cards
    return {i.id: i.values for i in items}


@dataclass(frozen=True)
class Fault:
    """A problem a primitive met while the game ran: reported as a diagnostic, never raised."""

    code: str
    message: str
    path: tuple  # the YAML path of the data involved


class State:
    """The generic state. Subclasses (game modules) add rules; this class alone plays no turns."""

    score_zone: str | None = None  # the zone whose track_min/track_max bound the scores

    def __init__(self, game: Game, setup: SetupResult, seed: int, box: Counter, endless: set[str]):
        self.game = game
        self.players = setup.players
        self.mode = setup.mode
        self.seed = seed
        self.rng = random.Random(f"{game.id}/{setup.players}/{setup.mode}/{seed}/play")
        self.counts: dict[str, Counter] = {z: Counter(c) for z, c in setup.zones.items()}
        self.piles: dict[str, list] = {}
        self.box = box  # component -> how many exist (finite components only)
        self.endless = endless
        self.zone_rules = {z.id: z for z in game.zones}
        self.zone_index = {z.id: i for i, z in enumerate(game.zones)}
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
        c = self.counts.get(zone)
        if c is None:
            c = self.counts[zone] = Counter()
        return c

    def pile(self, zone: str) -> list:
        p = self.piles.get(zone)
        if p is None:
            p = self.piles[zone] = []
        return p

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

    def take(self, src: str, dst: str, piece: tuple, n: int = 1, as_: tuple | None = None) -> int:
        """Move up to n of `piece` ((component, kind)) between count zones; returns how many moved.
        A supply with too few is recorded in `ran_out` (how often a finite supply ran short).
        `as_` relabels the pieces on arrival (a seal placed on the board keeps its owner's mark)."""
        if n <= 0:
            return 0
        have = self.count(src)
        if piece[0] in self.endless and src == BOX:
            self.count(dst)[piece] += n
            return n
        got = have[piece]
        if got < n:
            self.ran_out[piece[0]] += 1
            n = got
        if n:
            have[piece] -= n
            if not have[piece]:
                del have[piece]
            self.count(dst)[as_ or piece] += n
        return n

    def draw(self, zone: str, at_random: bool = False):
        """The top piece of a pile (or a random one, for a bag), or None. An empty pile follows
        its zone's `on_empty` rule; with no rule but a `gap` (the sources are silent) nothing is
        drawn and the event is counted; with neither, the draw is a fault the validator reports."""
        p = self.pile(zone)
        if not p:
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
        return p.pop()

    def put(self, zone: str, piece: tuple, bottom: bool = False) -> None:
        if bottom:
            self.pile(zone).insert(0, piece)
        else:
            self.pile(zone).append(piece)

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

    def zones(self) -> dict[str, Counter]:
        """Every zone's contents by component (for transcripts and the components facts)."""
        out: dict[str, Counter] = {}
        for z, c in self.counts.items():
            t = out.setdefault(z, Counter())
            for (comp, _kind), n in c.items():
                t[comp] += n
        for z, p in itertools.chain(self.piles.items(), self.extra_zones().items()):
            out.setdefault(z, Counter()).update(piece[0] for piece in p if piece)
        return out

    def totals(self) -> tuple[Counter, list[tuple[str, str, int]]]:
        """Each component's total over all zones, and any (zone, component, n) below zero: the
        conservation check's fast path, run after every step."""
        tot: Counter = Counter()
        negative = []
        for z, c in self.counts.items():
            for key, n in c.items():
                if n < 0:
                    negative.append((z, key[0], n))
                tot[key[0]] += n
        first = _first
        for p in self.piles.values():
            _count_elements(tot, map(first, p))
        for p in self.extra_zones().values():
            _count_elements(tot, map(first, filter(None, p)))
        return tot, negative

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
    of unknown count: nothing can be conserved that was never counted)."""
    box: Counter = Counter()
    endless: set[str] = set()
    for comp in game.components:
        if comp.count is None or comp.unlimited:
            endless.add(comp.id)
        else:
            box[comp.id] = comp.count
    return box, endless
