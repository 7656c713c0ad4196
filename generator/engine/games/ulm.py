"""Ulm: the rules the data cannot say, written against the core's primitives.

Everything here is a rule stated by the sources (content/ulm, seeds 000 and 001). Numbers the
rules use are read from the data (`values:` of actions, quarters, cards, descendants, tower
tiles and scoring items), never typed here. Facts the sources leave out are *parameters* of a
simulated game, sampled per seed over a range, so the validator explores them instead of
pretending to know them (docs/engine.md lists them with their ranges):

- `tile_mix`: how many of the 50 action tiles have each colour (gap-tile-colours). Sampled:
  every colour has at least what setup takes (grid + loading docks: 2 brown, 3 of the others),
  the other 36 split by random weights.
- `cathedral_cards`: how many of the 24 non-chronicle cards are cathedral cards, the rest trade
  cards (gap-cathedral-cards, gap-trade-cards); each card's part / good and colours at random.
  A trade card's discard reward is unknown: the tile is returned and no reward is simulated.
- `gold_coats`, `coat_points`, `coat_bonus`, `coat_quarter`, `coat_edge`: which coats of arms
  are gold-edged (1-8, each showing a different quarter), their immediate points (1-4) and
  gold bonus (1-3; the sources' example shows 2) and which of the 12 push positions on the
  cathedral edge shows each coat (gap-coats-of-arms).
- `river_length` (10-16) and `bridge` (a space in the middle third) (gap-river-layout); the
  privileges of the last 4 spaces are unknown (gap-river-privileges): a barge stopping there is
  logged, with no state change.
- `north`/`south`: which quarters lie beside which river spaces, 4 on each bank in random order
  and stretch (gap-quarter-layout); `capacity`: how many seals each quarter holds (3-6), which
  the sources call limited without a number.
- `free_seal_paid`, `seal_barge_paid`: whether the seal actions of two tower tiles cost coins
  (gap-tower-extra-seal, gap-tower-seal-barge). The seal-and-sail tile is read as: once in the
  round, move the barge 3 forward, 3 back or not at all, then carry out 1 seal action.

Readings where the sources are unclear, kept simple and listed in docs/engine.md: the 1st Ulm
Chronicle's seal gives no privilege (privileges come with seal actions); City Wall's "most
seals" means strictly more than each other player; a gold coat can only be kept while a family
shield is left; the start player does not change.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

from ...model import Game
from ..setup import SetupResult
from ..state import State

COLOURS = ("money", "clear", "card", "river", "seal")
TILE = {c: ("action-tile", f"action-tile-{c}") for c in COLOURS}
SETUP_NEEDS = {"money": 3, "clear": 3, "card": 2, "river": 3, "seal": 3}  # grid + docks, from setup
QUARTERS = ("tillage", "leaning-house", "garden", "town-hall", "shipyard", "reichenauer-hof",
            "goose-tower", "oath-house")
COIN, SPARROW, SEAL, SHIELD = ("coin", ""), ("sparrow", ""), ("seal", ""), ("family-shield", "")
SUPPLY = "general-supply"
SIDES = "NESW"
GOODS = ("fustian", "art", "commercial")


def _lanes():
    """For each of the 12 push positions (side N/E/S/W × lane 0-2): the grid cells from the
    entry to the far end, and the outer slot the pushed-out tile goes to."""
    out = []
    for side in range(4):
        for lane in range(3):
            if side == 0:
                cells = [lane, 3 + lane, 6 + lane]
            elif side == 2:
                cells = [6 + lane, 3 + lane, lane]
            elif side == 3:
                cells = [lane * 3, lane * 3 + 1, lane * 3 + 2]
            else:
                cells = [lane * 3 + 2, lane * 3 + 1, lane * 3]
            out.append((cells, ((side + 2) % 4) * 3 + lane))
    return out


LANES = _lanes()
_DO: dict[str, str] = {}  # action verb -> the method that carries it out
_ACTIONS: dict[str, str] = {}  # tile colour -> the method that lists its actions
LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def parameters(game: Game, rng: random.Random) -> dict:
    tile_count = next(c.count for c in game.components if c.id == "action-tile")
    weights = {c: rng.gammavariate(2.0, 1.0) for c in COLOURS}
    mix = dict(SETUP_NEEDS)
    for c in rng.choices(COLOURS, [weights[c] for c in COLOURS], k=tile_count - sum(mix.values())):
        mix[c] += 1
    cards = next(c for c in game.components if c.id == "card")
    chronicles = next(k.count for k in cards.kinds if k.id == "card-chronicle")
    others = cards.count - chronicles
    coats = next(c.count for c in game.components if c.id == "coat-of-arms")
    gold = rng.randint(1, min(len(QUARTERS), coats - 1)) if coats > 1 else 0  # and at least one silver
    gold_quarters = rng.sample(QUARTERS, gold)
    length = rng.randint(10, 16)
    north, south = [], []
    for bank in (north, south):  # 4 quarters per bank, each beside a stretch of the river
        names = rng.sample([q for q in QUARTERS if q not in north], 4)
        cuts = sorted(rng.sample(range(1, length), 3))
        bounds = [0] + cuts + [length]
        for q, a, b in zip(names, bounds, bounds[1:]):
            bank += [q] * (b - a)
    return {
        "tile_mix": mix,
        "cathedral_cards": rng.randint(0, others),
        "gold_coats": gold,
        "coat_points": [rng.randint(1, 4) for _ in range(coats)],
        "coat_bonus": [rng.randint(1, 3) for _ in range(coats)],
        "coat_quarter": gold_quarters + [None] * (coats - gold),
        # 12 push positions show a coat each; a coat beyond them has none (None)
        "coat_edge": rng.sample(range(12), min(coats, 12)) + [None] * (coats - 12),
        "river_length": length,
        "bridge": rng.randint(length // 3, 2 * length // 3),
        "north": north,
        "south": south,
        "capacity": {q: rng.randint(3, 6) for q in QUARTERS},
        "free_seal_paid": rng.random() < 0.5,
        "seal_barge_paid": rng.random() < 0.5,
    }


def kind_counts(game: Game, params: dict) -> dict[str, dict[str, int]]:
    cards = next(c for c in game.components if c.id == "card")
    chronicles = next(k.count for k in cards.kinds if k.id == "card-chronicle")
    coats = next(c.count for c in game.components if c.id == "coat-of-arms")
    return {
        "action-tile": {f"action-tile-{c}": n for c, n in params["tile_mix"].items()},
        "card": {"card-cathedral": params["cathedral_cards"],
                 "card-trade": cards.count - chronicles - params["cathedral_cards"]},
        "coat-of-arms": {"coat-gold": params["gold_coats"], "coat-silver": coats - params["gold_coats"]},
    }


def new_state(game: Game, setup: SetupResult, seed: int, box: Counter, endless: set[str], params: dict) -> "Ulm":
    return Ulm(game, setup, seed, box, endless, params)


def names(rng: random.Random, ids: list):
    """The card ids of a component's pieces in random order, then None for every piece beyond
    the cards the data describes (such a piece has no rule: a tower tile without effect)."""
    return itertools.chain(rng.sample(ids, len(ids)), itertools.repeat(None))


def colour(piece) -> str:
    return piece[1][12:]  # after "action-tile-"


class Ulm(State):
    score_zone = "score-track"

    def __init__(self, game, setup, seed, box, endless, params):
        super().__init__(game, setup, seed, box, endless, params)
        v = self.v
        self.variant = self.mode == "tower-variant"
        self.rounds = game.rounds.count
        self.seal_cost = v["action-seal"]["cost"]
        self.parts = max(1, v["card-cathedral-type"]["parts"])  # a card shows one of them: at least 1
        rng = self.rng
        # ordered places from the setup's counts
        self.grid = self.pile_of("cathedral-grid")
        del self.piles["cathedral-grid"]
        if len(self.grid) != 9:  # the push grid is 3×3: a setup that fills it otherwise is reported, not played
            step = next((i for i, st in enumerate(game.setup) if st.to == "cathedral-grid"), None)
            self.fault("RB302", f"the cathedral grid is 3×3 = 9 tiles, but setup puts {len(self.grid)} there",
                       ("setup", step) if step is not None else ())
            self.grid += [None] * (9 - len(self.grid))
        self.out: list = [None] * 12
        self.docks = self.pile_of("loading-docks")
        del self.piles["loading-docks"]
        self.pile_of("bag")
        chron = names(rng, [c.id for g in game.cards for c in g.cards if c.kind == "card-chronicle"])

        def card(piece):
            if piece[1] == "card-cathedral":
                return piece + (rng.randrange(self.parts), tuple(rng.sample(COLOURS, 2)))
            if piece[1] == "card-trade":
                return piece + (rng.choice(GOODS), rng.choice(COLOURS))
            return piece + (next(chron),)
        self.pile_of("draw-pile", card)
        self.pile("discard-pile")
        self.sups = [f"player-supply#{p + 1}" for p in range(self.players)]
        self.hands = [f"hand#{p + 1}" for p in range(self.players)]
        self.marks_of = [("seal", f"P{p + 1}") for p in range(self.players)]
        self._have = None  # the tiles per colour of the current player, while legal_actions runs
        coats = {"coat-gold": iter(range(params["gold_coats"])),
                 "coat-silver": iter(range(params["gold_coats"], len(params["coat_points"])))}
        self.pile_of("coat-of-arms-stack", lambda piece: piece + (next(coats[piece[1]]),))
        towers = names(rng, [c.id for g in game.cards if g.id == "tower-tiles" for c in g.cards])
        self.pile_of("round-stack", lambda piece: piece + (next(towers),))
        self.pile_of("cathedral-tower", lambda piece: piece + (next(towers),))
        shown = self.has("oath-house-display", ("descendant", ""))
        ids = [c.id for g in game.cards if g.id == "descendants" for c in g.cards]
        descendants = rng.sample(ids, min(shown, len(ids))) + [None] * (shown - len(ids))
        self.remove("oath-house-display", ("descendant", ""), shown)
        self.display = [("descendant", "", d) for d in descendants]
        start = v["setup-score-marker"]["space"]
        self.scores = [start] * self.players
        self.pos = [0] * self.players
        self.qseals = {q: [] for q in QUARTERS}
        self.marks: dict[int, int] = {}  # edge position -> owner of the seal there
        self.gold_owner: dict[str, tuple[int, int]] = {}  # quarter -> (owner, bonus)
        self.owned = [set() for _ in range(self.players)]  # descendant ids
        self.drawn: list = []
        self.phase = "start"
        self.round_start()

    # ----- zones the module keeps itself
    def extra_zones(self):
        return {"cathedral-grid": self.grid, "pushed-out": self.out, "loading-docks": self.docks,
                "drawn": self.drawn, "oath-house-display": self.display}

    def extra_lists(self):
        return self.grid, self.out, self.docks, self.drawn, self.display

    # ----- helpers
    def sup(self, p: int) -> str:
        return self.sups[p]

    def tiles(self, p: int) -> dict:
        """The player's action tiles by colour (only colours they hold)."""
        have = self._have
        if have is not None and have[0] == p:
            return have[1]
        t = {k[1][12:]: n for k, n in self.held_in(self.sups[p]).items() if k[0] == "action-tile" and n > 0}
        if have is not None:
            self._have = (p, t)
        return t

    def coins(self, p: int) -> int:
        return self.has(self.sups[p], COIN)

    def seals_left(self, p: int) -> int:
        return self.has(self.sups[p], SEAL)

    def tower(self) -> str | None:
        if not self.variant:
            return None
        t = self.look("cathedral-tower")
        return t[-1][2] if t else None

    def bag_draw(self):
        return self.draw("bag", at_random=True)

    def refill_docks(self) -> None:
        for i, d in enumerate(self.docks):
            if d is None:
                t = self.bag_draw()
                if t is None:
                    return
                self.docks[i] = t

    def take_dock(self, p: int, i) -> None:
        if i is None or self.docks[i] is None:
            return
        t, self.docks[i] = self.docks[i], None
        self.add(self.sups[p], t)
        self.say(f"P{p + 1} takes {colour(t)} from the loading docks")
        self.refill_docks()

    def to_bag(self, p: int, c: str) -> None:
        if self.remove(self.sups[p], TILE[c]):
            self.put("bag", TILE[c])

    def earn(self, p: int, n: int) -> None:
        got = self.take(SUPPLY, self.sup(p), COIN, n)
        self.say(f"P{p + 1} takes {got} coin{'s' if got != 1 else ''}" + (f" (supply short by {n - got})" if got < n else ""))

    def pay(self, p: int, n: int) -> None:
        self.take(self.sup(p), SUPPLY, COIN, n)

    def open_lanes(self) -> list[int]:
        out = self.out
        rows = [not (out[9 + r] or out[3 + r]) for r in range(3)]  # W and E slots
        cols = [not (out[c] or out[6 + c]) for c in range(3)]  # N and S slots
        return [pos for pos in range(12) if (cols if pos // 3 in (0, 2) else rows)[pos % 3]]

    def beside(self, p: int) -> list[str]:
        i = min(self.pos[p], self.p["river_length"] - 1)
        return [self.p["north"][i], self.p["south"][i]]

    def move_barge(self, p: int, steps: int, by_action: bool) -> None:
        """Move forward up to `steps` unoccupied spaces, skipping other barges; one step at a time
        (privileges of the last spaces on each stop) when moved by an action tile."""
        last = self.p["river_length"] - 1
        for _ in range(steps):
            nxt = self.pos[p] + 1
            while nxt <= last and nxt in [self.pos[o] for o in range(self.players) if o != p]:
                nxt += 1
            if nxt > last:
                break
            self.pos[p] = nxt
            if by_action and nxt > last - self.v["river-last-spaces"]["spaces"]:
                self.say(f"P{p + 1} stops on river space {nxt + 1}: its privilege is unknown (gap-river-privileges)")
        self.say(f"P{p + 1}'s barge is on space {self.pos[p] + 1}")

    # ----- round and turn flow
    def round_start(self) -> None:
        self.round += 1
        if not (self.variant and self.round == 1):
            t = self.draw("round-stack")
            if t is not None:
                self.put("cathedral-tower", t)
        self.free_play = [True] * self.players
        self.merchant_used = [False] * self.players
        self.free_seal_used = [False] * self.players
        self.seal_barge_used = [False] * self.players
        self.say(f"round {self.round} begins" + (f"; tower tile: {self.tower()}" if self.variant else ""))
        self.current = 0
        self.turn_start()

    def turn_start(self) -> None:
        self.turn += 1
        p = self.current
        self.remaining: list[str] = []
        self.extra_plays = 0
        self.city_wall = False
        self.dues = [d for d in ("tower-tax", "tower-hand-in-tiles") if self.tower() == d]
        if not self.open_lanes():
            back = [t for t in self.out if t]
            self.out = [None] * 12
            for t in back:
                self.put("bag", t)
            self.say(f"no row can be pushed: {len(back)} pushed-out tiles go back into the bag")
        if self.tower() == "tower-choose-tile":
            self.phase = "choose"
            return
        n = self.v["desc-builder"]["draw"] if "desc-builder" in self.owned[p] else 1
        for _ in range(n):
            t = self.bag_draw()
            if t is not None:
                self.drawn.append(t)
        self.say(f"P{p + 1} draws {', '.join(colour(t) for t in self.drawn) or 'nothing'}")
        self.phase = "builder" if len(self.drawn) > 1 else "pick"

    def turn_end(self) -> None:
        self.current += 1
        if self.current < self.players:
            self.turn_start()
        elif self.round < self.rounds:
            self.round_start()
        else:
            self.final_scoring()

    def is_over(self) -> bool:
        return self.over

    # ----- legal actions
    def legal_actions(self) -> list:
        if self.over:
            return []
        self._have = (None, None)  # tiles(p) is computed once while the choices are listed
        try:
            return self._legal_actions()
        finally:
            self._have = None

    def _legal_actions(self) -> list:
        p = self.current
        ph = self.phase
        if ph == "builder":
            return [("builder", i) for i in range(len(self.drawn))]
        if ph == "choose":
            return [("choose", c) for c in sorted({t[1][12:] for t in self.look("bag")})]
        if ph == "push":
            return [("push", pos) for pos in self.open_lanes()]
        if ph == "dues":
            return self.dues_actions(p)
        acts = []
        if ph == "pick":
            if self.drawn:
                acts.append(("keep",))
                if self.has(self.sups[p], SPARROW):
                    acts += [("sparrow", i) for i, d in enumerate(self.docks) if d]
            if "desc-scholar" in self.owned[p]:
                acts += [("scholar", c) for c in sorted(self.tiles(p))]
            if not self.drawn and not acts:
                acts.append(("keep",))  # the bag gave nothing: nothing to push
        else:  # act
            for c in sorted(set(self.remaining)):
                acts += getattr(self, _ACTIONS.get(c) or _ACTIONS.setdefault(c, f"{c}_actions"))(p)
            acts.append(("end",))
        if self.free_play[p] or self.extra_plays:
            acts += self.play_actions(p)
        if "desc-merchant" in self.owned[p] and not self.merchant_used[p]:
            acts += [("merchant", c, i) for c in sorted(self.tiles(p)) for i, d in enumerate(self.docks) if d]
        if ph == "act" and self.tower() == "tower-free-seal" and not self.free_seal_used[p]:
            acts += [("free-seal",) + a[1:] for a in self.seal_actions(p, self.p["free_seal_paid"])]
        if ph == "act" and self.tower() == "tower-seal-barge" and not self.seal_barge_used[p]:
            steps = self.v["tower-seal-barge"]["steps"]
            acts += [("seal-barge", d) for d in (-steps, 0, steps)]
        return acts

    def money_actions(self, p):
        return [("money",)]

    def clear_actions(self, p):
        sides = [s for s in range(4) if any(self.out[s * 3:s * 3 + 3])]
        if "desc-abbot" in self.owned[p]:
            docks = [None] + [i for i, d in enumerate(self.docks) if d]
            return [("clear", s, i) for s in sides for i in docks]
        return [("clear", s, None) for s in sides]

    def card_actions(self, p):
        have = self.tiles(p)
        acts = [("extra-play",)] if self.look(self.hands[p]) else []
        n = self.v["action-card"]["tiles"]
        if n == 2:
            for a, b in itertools.combinations_with_replacement(sorted(have), 2):
                if a == b and have[a] < 2:
                    continue
                looks = self.buy_look(p, (a, b))
                acts += [("buy", (a, b), k) for k in range(looks)]
        if self.tower() == "tower-card-one-tile":
            acts += [("buy", (a,), 0) for a in sorted(have)]
        if self.tower() == "tower-card-coin" and self.coins(p) >= self.v["tower-card-coin"]["coins"]:
            acts.append(("buy-coin",))
        return acts

    def river_actions(self, p):
        bonus = ("desc-barge-driver" in self.owned[p]) * self.v["desc-barge-driver"]["steps"]
        bonus += (self.tower() == "tower-river-step") * self.v["tower-river-step"]["steps"]
        return [("river", e) for e in range(bonus + 1)]

    def seal_cost_now(self) -> int:
        t = self.tower()
        return self.seal_cost + (self.v["tower-seal-plus"]["extra"] if t == "tower-seal-plus" else 0) \
            - (self.v["tower-seal-minus"]["discount"] if t == "tower-seal-minus" else 0)

    def seal_actions(self, p, paid: bool = True):
        if not self.seals_left(p) or (paid and self.coins(p) < self.seal_cost_now()):
            return []
        where = QUARTERS if self.city_wall else self.beside(p)
        acts = []
        for q in dict.fromkeys(where):
            if len(self.qseals[q]) >= self.p["capacity"][q]:
                continue
            acts += [("seal", q, arg) for arg in self.privilege_args(p, q)]
        return acts

    def privilege_args(self, p, q) -> list:
        docks = [i for i, d in enumerate(self.docks) if d] or [None]
        if q == "tillage":
            return [(i, s) for i in docks for s in range(self.v["quarter-tillage"]["max_steps"] + 1)]
        if q in ("leaning-house", "garden"):
            return list(range(self.v["quarter-leaning-house-garden"]["draw"]))
        if q == "town-hall":
            return ["coin"] + [("dock", i) for i in docks if i is not None]
        if q == "shipyard":
            return docks
        if q == "goose-tower":
            return [("discard", j) for j in range(len(self.look("discard-pile")))] + \
                   [("draw", k) for k in range(self.v["quarter-goose-tower"]["draw"])]
        if q == "oath-house":
            return list(range(len(self.display))) or [None]
        return [None]

    def play_actions(self, p):
        hand = self.look(self.hands[p])
        have = self.tiles(p)
        acts = []
        for i, c in enumerate(hand):
            acts.append(("play", i, "keep", None))
            kind = c[1]
            if kind == "card-cathedral":
                acts += [("play", i, "discard", t) for t in dict.fromkeys(c[3]) if t in have]
            elif kind == "card-trade":
                if c[3] in have:
                    acts.append(("play", i, "discard", c[3]))
            else:
                acts += [("play", i, "discard", a) for a in self.chronicle_args(p, c[2])]
        return acts

    def chronicle_args(self, p, cid) -> list:
        if cid == "card-first-chronicle":
            if not self.seals_left(p) or self.coins(p) < self.v["card-first-chronicle"]["coins"]:
                return []
            return [q for q in dict.fromkeys(self.beside(p)) if len(self.qseals[q]) < self.p["capacity"][q]]
        if cid == "card-construction-freeze":
            return ["coins", "tiles"]
        if cid == "card-fishermens-jousting":
            return list(range(1, self.v["card-fishermens-jousting"]["steps"] + 1))
        if cid == "card-patrician":
            return ["choose"] if self.phase == "pick" and self.drawn else []
        if cid == "card-reformation":
            slots = [i for i, t in enumerate(self.out) if t]
            n = self.v["card-reformation"]["tiles"]
            return [c for k in range(1, min(n, len(slots)) + 1) for c in itertools.combinations(slots, k)]
        if cid == "card-siege":
            return list(range(1, min(self.v["card-siege"]["coins"], self.coins(p)) + 1))
        if cid == "card-swabian-league":
            return sorted(self.tiles(p)) if self.phase == "act" else []
        if cid == "card-ulm-sparrow":
            return list(range(1, min(self.v["card-ulm-sparrow"]["convert"], self.has(self.sups[p], SPARROW)) + 1))
        return [None]  # City Wall: the next seal action goes anywhere

    def dues_actions(self, p):
        acts = [("refuse",)]
        if self.dues[0] == "tower-tax" and self.coins(p) >= self.v["tower-tax"]["coins"]:
            acts.append(("pay",))
        if self.dues[0] == "tower-hand-in-tiles":
            have = self.tiles(p)
            n = self.v["tower-hand-in-tiles"]["tiles"]
            for pay in itertools.combinations_with_replacement(sorted(have), n) if 0 <= n <= sum(have.values()) else ():
                if all(have[c] >= k for c, k in Counter(pay).items()):
                    acts.append(("pay",) + pay)
        return acts

    # ----- applying an action
    def apply(self, a) -> None:
        verb = a[0]
        do = _DO.get(verb)
        if do is None:
            do = _DO[verb] = "do_" + verb.replace("-", "_")
        getattr(self, do)(self.current, *a[1:])

    def do_builder(self, p, i):
        keep = self.drawn.pop(i)
        for t in self.drawn:
            self.put("bag", t)
        self.drawn = [keep]
        self.say(f"P{p + 1} (Builder) keeps {colour(keep)}")
        self.phase = "pick"

    def do_choose(self, p, c):
        bag = self.pile("bag")
        i = next(i for i, t in enumerate(bag) if colour(t) == c)
        self.drawn.append(bag.pop(i))
        self.say(f"P{p + 1} chooses {c} from the bag")
        self.phase = "pick"

    def do_keep(self, p):
        self.phase = "push" if self.drawn else "act"

    def do_sparrow(self, p, i):
        self.take(self.sup(p), SUPPLY, SPARROW)
        old = self.drawn.pop()
        self.drawn.append(self.docks[i])
        self.docks[i] = old
        self.say(f"P{p + 1} spends a sparrow: swaps {colour(old)} for {colour(self.drawn[-1])} on the docks")
        self.phase = "push"

    def do_scholar(self, p, c):
        for t in self.drawn:
            self.add(self.sups[p], t)
        self.remove(self.sups[p], TILE[c])
        self.drawn = [TILE[c]]
        self.say(f"P{p + 1} (Scholar) pushes {c} from their supply and keeps the drawn tile")
        self.phase = "push"

    def do_push(self, p, pos):
        cells, slot = LANES[pos]
        g = self.grid
        tile = self.drawn.pop()
        out = g[cells[2]]
        g[cells[2]], g[cells[1]], g[cells[0]] = g[cells[1]], g[cells[0]], tile
        self.out[slot] = out
        self.remaining = [colour(g[c]) for c in cells]
        self.pushed_out = colour(out)
        self.say(f"P{p + 1} pushes {colour(tile)} in at {SIDES[pos // 3]}{pos % 3 + 1}; "
                 f"{colour(out)} is pushed out; activates {', '.join(self.remaining)}")
        owner = self.marks.get(pos)
        if owner is not None:
            got = self.take(SUPPLY, self.sup(owner), SPARROW, self.v["coa-cathedral-mark"]["sparrows"])
            self.say(f"P{owner + 1} gains {got} sparrow (coat-of-arms mark at {SIDES[pos // 3]}{pos % 3 + 1})")
        if "desc-city-guard" in self.owned[p]:
            cg = self.v["desc-city-guard"]
            if any(g[a][1] == g[b][1] == g[c][1] for a, b, c in LINES):
                self.gain_points(p, cg["points"], "City Guard: 3 in a line")
        if self.tower() == "tower-pushed-out":
            self.remaining.append(self.pushed_out)
        self.phase = "act"

    def use(self, c: str) -> None:
        self.remaining.remove(c)

    def do_money(self, p):
        self.use("money")
        n = self.v["action-money"]["coins"] + ("desc-mint-master" in self.owned[p]) * self.v["desc-mint-master"]["coins"]
        n += self.v["tower-extra-coin"]["coins"] if self.tower() == "tower-extra-coin" else 0
        self.earn(p, n)

    def do_clear(self, p, side, dock):
        self.use("clear")
        got = []
        for i in range(side * 3, side * 3 + 3):
            if self.out[i]:
                got.append(colour(self.out[i]))
                self.add(self.sups[p], self.out[i])
                self.out[i] = None
        self.say(f"P{p + 1} clears side {SIDES[side]}: takes {', '.join(got)}")
        self.take_dock(p, dock)

    def do_extra_play(self, p):
        self.use("card")
        self.extra_plays += 1
        self.say(f"P{p + 1} uses a card action to play 1 more card")

    def do_buy(self, p, pay, keep):
        self.use("card")
        for c in pay:
            self.to_bag(p, c)
        self.take_card(p, self.buy_look(p, pay), keep, f"returns {' and '.join(pay)}")

    def buy_look(self, p, pay) -> int:
        """How many cards a buy with these returned tiles looks at: the card action's look for
        tiles of one colour, the Councilman's for any two, else 1."""
        if len(pay) != self.v["action-card"]["tiles"]:
            return 1
        if len(set(pay)) == 1:
            return self.v["action-card"]["look"]
        return self.v["desc-councilman"]["look"] if "desc-councilman" in self.owned[p] else 1

    def do_buy_coin(self, p):
        self.use("card")
        self.pay(p, self.v["tower-card-coin"]["coins"])
        self.take_card(p, 1, 0, "pays a coin")

    def take_card(self, p, look: int, keep: int, how: str) -> None:
        seen = [c for c in (self.draw("draw-pile") for _ in range(look)) if c is not None]
        if not seen:
            self.say(f"P{p + 1} {how}: no card left to take")
            return
        kept = seen.pop(min(keep, len(seen) - 1))
        self.put(f"hand#{p + 1}", kept)
        for c in seen:
            self.put("discard-pile", c)
        self.say(f"P{p + 1} {how}, takes a card ({self.card_name(kept)})")

    @staticmethod
    def card_name(c) -> str:
        if c[1] == "card-cathedral":
            return f"cathedral part {c[2] + 1}, {'/'.join(c[3])}"
        if c[1] == "card-trade":
            return f"trade {c[2]}, {c[3]}"
        return c[2]

    def do_river(self, p, extra):
        self.use("river")
        self.move_barge(p, self.v["action-river"]["steps"] + extra, by_action=True)

    def do_seal(self, p, q, arg, paid: bool = True, free: bool = False):
        if not free:
            self.use("seal")
        if paid:
            self.pay(p, self.seal_cost_now())
        self.city_wall = False
        self.take(self.sup(p), f"quarter:{q}", SEAL, as_=("seal", f"P{p + 1}"))
        self.qseals[q].append(p)
        self.say(f"P{p + 1} places a seal in {q}" + ("" if paid else " (free)"))
        if q in self.gold_owner:
            owner, bonus = self.gold_owner[q]
            self.gain_points(owner, bonus, f"gold coat of arms of {q}")
        self.privilege(p, q, arg)

    def do_free_seal(self, p, q, arg):
        self.free_seal_used[p] = True
        self.do_seal(p, q, arg, paid=self.p["free_seal_paid"], free=True)

    def do_seal_barge(self, p, delta):
        self.seal_barge_used[p] = True
        if delta > 0:
            self.move_barge(p, delta, by_action=False)
        elif delta < 0:
            taken = {self.pos[o] for o in range(self.players) if o != p}
            spot = self.pos[p]
            for _ in range(-delta):
                nxt = spot - 1
                while nxt >= 0 and nxt in taken:
                    nxt -= 1
                if nxt < 0:
                    break
                spot = nxt
            self.pos[p] = spot
            self.say(f"P{p + 1}'s barge goes back to space {spot + 1}")
        if self.seal_actions(p, self.p["seal_barge_paid"]):
            self.remaining.append("seal")
            if not self.p["seal_barge_paid"]:
                self.free_seal_used[p] = False

    def privilege(self, p, q, arg) -> None:
        v = self.v
        if q == "tillage":
            dock, steps = arg
            self.take_dock(p, dock)
            self.earn(p, v["quarter-tillage"]["coins"])
            self.move_barge(p, steps, by_action=False)
        elif q in ("leaning-house", "garden"):
            self.coat(p, arg)
        elif q == "town-hall":
            self.take_card(p, 1, 0, "draws (Town Hall)")
            if arg == "coin":
                self.earn(p, v["quarter-town-hall"]["coins"])
            else:
                self.take_dock(p, arg[1])
        elif q == "shipyard":
            self.take_dock(p, arg)
            self.remaining.append("card")
        elif q == "reichenauer-hof":
            n = sum(1 for s in self.qseals.values() if p in s)
            self.gain_points(p, n * v["quarter-reichenauer-hof"]["points"], "Reichenauer Hof")
        elif q == "goose-tower":
            how, j = arg
            if how == "discard":
                c = self.pile("discard-pile").pop(j)
                self.put(f"hand#{p + 1}", c)
                self.say(f"P{p + 1} takes {self.card_name(c)} from the discard pile")
            else:
                self.take_card(p, v["quarter-goose-tower"]["draw"], j, "draws (Goose Tower)")
        elif q == "oath-house" and arg is not None:
            d = self.display.pop(arg)
            self.put(f"descendants#{p + 1}", d)
            self.owned[p].add(d[2])
            self.take(self.sup(p), "descendant-spaces", SEAL, as_=("seal", f"P{p + 1}"))
            self.say(f"P{p + 1} gains the descendant {d[2]}")

    def coat(self, p, keep) -> None:
        stack = self.look("coat-of-arms-stack")  # "silver ones (if any are left)": the stack may run out
        n = min(len(stack), self.v["quarter-leaning-house-garden"]["draw"])
        drawn = [self.draw("coat-of-arms-stack") for _ in range(n)]
        if not drawn:
            self.say(f"P{p + 1} finds no coat of arms left")
            return
        order = [drawn[keep % len(drawn)]] + [c for c in drawn if c is not drawn[keep % len(drawn)]]
        shields = self.has(self.sups[p], SHIELD)
        chosen = next((c for c in order if c[1] == "coat-silver" or shields), None)
        for c in drawn:
            if c is not chosen:
                self.put("coat-of-arms-stack", c, bottom=True)
        if chosen is None:
            self.say(f"P{p + 1} may keep no coat of arms (gold only, no family shield left)")
            return
        i = chosen[2]
        self.put(f"coats#{p + 1}", chosen)
        self.gain_points(p, self.p["coat_points"][i], f"{chosen[1]} coat of arms")
        edge = self.p["coat_edge"][i]
        if edge is not None and self.take(self.sup(p), "cathedral-edge", SEAL, as_=("seal", f"P{p + 1}")):
            self.marks[edge] = p
        if chosen[1] == "coat-gold":
            q = self.p["coat_quarter"][i]
            self.take(self.sup(p), f"coat-space:{q}", SHIELD, as_=("family-shield", f"P{p + 1}"))
            self.gold_owner[q] = (p, self.p["coat_bonus"][i])
            self.say(f"P{p + 1} puts a family shield on the coat of arms of {q}")

    def do_play(self, p, i, use, arg):
        if self.free_play[p]:
            self.free_play[p] = False
        else:
            self.extra_plays -= 1
        c = self.pile(self.hands[p]).pop(i)
        if use == "keep":
            self.put(f"tableau#{p + 1}", c)
            self.say(f"P{p + 1} keeps {self.card_name(c)} in front of them")
            return
        self.put("discard-pile", c)
        self.say(f"P{p + 1} plays {self.card_name(c)} to the discard pile")
        if c[1] == "card-cathedral":
            self.to_bag(p, arg)
            self.gain_points(p, self.v["card-cathedral-type"]["points"], "cathedral card")
        elif c[1] == "card-trade":
            self.to_bag(p, arg)
            self.say("its reward is unknown (gap-trade-cards): not simulated")
        else:
            self.chronicle(p, c[2], arg)

    def chronicle(self, p, cid, arg) -> None:
        v = self.v
        if cid == "card-first-chronicle":
            cost = v[cid]["coins"]
            self.pay(p, cost)
            self.take(self.sup(p), f"quarter:{arg}", SEAL, as_=("seal", f"P{p + 1}"))
            self.qseals[arg].append(p)
            self.say(f"P{p + 1} places a seal in {arg} for {cost} coin{'s' if cost != 1 else ''}")
        elif cid == "card-city-wall":
            self.city_wall = True
        elif cid == "card-construction-freeze":
            if arg == "coins":
                self.earn(p, v[cid]["coins"])
            else:
                for _ in range(v[cid]["tiles"]):
                    t = self.bag_draw()
                    if t is not None:
                        self.add(self.sups[p], t)
        elif cid == "card-fishermens-jousting":
            self.move_barge(p, arg, by_action=False)
        elif cid == "card-patrician":
            self.put("bag", self.drawn.pop())
            self.phase = "choose"
        elif cid == "card-reformation":
            for s in arg:
                self.add(self.sups[p], self.out[s])
                self.out[s] = None
        elif cid == "card-siege":
            self.pay(p, arg)
            self.gain_points(p, v[cid]["points"] * arg, "Siege")
        elif cid == "card-swabian-league":
            self.remaining.append(arg)
        elif cid == "card-ulm-sparrow":
            n = self.take(self.sup(p), SUPPLY, SPARROW, arg)
            self.earn(p, n * v[cid]["coins"])

    def do_merchant(self, p, c, i):
        self.merchant_used[p] = True
        self.remove(self.sups[p], TILE[c])
        got, self.docks[i] = self.docks[i], TILE[c]
        self.add(self.sups[p], got)
        self.say(f"P{p + 1} (Merchant) swaps {c} for {colour(got)} on the docks")

    def do_end(self, p):
        self.remaining = []
        if self.dues:
            self.phase = "dues"
        else:
            self.turn_end()

    def do_pay(self, p, *tiles):
        due = self.dues.pop(0)
        if due == "tower-tax":
            self.pay(p, self.v["tower-tax"]["coins"])
            self.say(f"P{p + 1} pays the tax")
        else:
            for c in tiles:
                self.to_bag(p, c)
            self.say(f"P{p + 1} hands in {' and '.join(tiles)}")
        if not self.dues:
            self.turn_end()

    def do_refuse(self, p):
        due = self.dues.pop(0)
        self.gain_points(p, -self.v[due]["penalty"], f"{due} not paid")
        if not self.dues:
            self.turn_end()

    # ----- the end
    def final_scoring(self) -> None:
        v = self.v
        for p in range(self.players):
            hand = self.pile(self.hands[p]) if self.look(self.hands[p]) else []
            while hand:
                self.put("discard-pile", hand.pop())
            tab = self.look(f"tableau#{p + 1}")
            ids = {c[2] for c in tab if c[1] == "card-chronicle"}
            sparrows = self.has(self.sups[p], SPARROW)
            per = v["score-final-sparrows"]["points"]
            us = v["card-ulm-sparrow"]
            extra = min(sparrows, us["max"]) * (us["points"] - per) if "card-ulm-sparrow" in ids else 0
            self.gain_points(p, sparrows * per + extra, "sparrows")
            self.gain_points(p, (self.pos[p] - self.p["bridge"]) * v["score-final-river"]["points"], "river")
            cath = [c for c in tab if c[1] == "card-cathedral"]
            trade = [c for c in tab if c[1] == "card-trade"]
            parts = Counter(c[2] for c in cath)
            pts = v["score-final-cards"]["card"] * (len(cath) + len(trade))
            cat = v["card-cathedral-type"]
            pts += cat["set"] * (min(parts[i] for i in range(self.parts)) if len(parts) == self.parts else 0)
            pts += trade_sets(Counter(c[2] for c in trade), v["card-trade-type"])
            self.gain_points(p, pts, "cathedral and trade cards")
            self.gain_points(p, self.chronicle_points(p, ids, tab), "chronicle cards")
        self.say("final scores: " + " ".join(f"P{i + 1}={s}" for i, s in enumerate(self.scores)))
        self.over = True

    def chronicle_points(self, p, ids, tab) -> int:
        v = self.v
        pts = 0
        if "card-first-chronicle" in ids:
            pts += v["card-first-chronicle"]["points"] * len(self.look(f"coats#{p + 1}"))
        if "card-city-wall" in ids:
            pts += v["card-city-wall"]["points"] * sum(1 for s in self.qseals.values()
                           if s and all(s.count(p) > s.count(o) for o in range(self.players) if o != p))
        if "card-construction-freeze" in ids:
            cf = v["card-construction-freeze"]
            pts += min(self.coins(p) * cf["points"], cf["max"])
        if "card-fishermens-jousting" in ids:
            ahead = sum(1 for o in range(self.players) if self.pos[o] > self.pos[p])
            fj = v["card-fishermens-jousting"]
            pts += fj["lead"] if ahead == 0 else fj["second"] if ahead == 1 else 0
        if "card-patrician" in ids:
            pts += v["card-patrician"]["points"]
        if "card-reformation" in ids:
            pts += v["card-reformation"]["points"] * sum(1 for c in tab if c[1] == "card-cathedral")
        if "card-siege" in ids:
            pts += v["card-siege"]["per_card"] * len(tab)
        if "card-swabian-league" in ids:
            pts += v["card-swabian-league"]["points"] * len(self.tiles(p))
        return pts


def trade_sets(goods: Counter, v: dict) -> int:
    """The best bonus from sets of `set` cards of a good (+`same`) and sets of the 3 different
    goods (+`mixed`), each card in one set only (card-trade-type's values)."""
    best = 0
    n = [goods[g] for g in GOODS]
    for diff in range(min(n) + 1):
        same = sum((k - diff) // v["set"] for k in n) if v["set"] > 0 else 0
        best = max(best, v["mixed"] * diff + v["same"] * same)
    return best
