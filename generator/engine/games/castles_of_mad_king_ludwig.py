"""Castles of Mad King Ludwig: the rules the data cannot say, written against the core's primitives.

Everything here is a rule stated by the sources (content/castles-of-mad-king-ludwig, seed 003).
Numbers are read from the data's `values:` (prices, pass money, the 1000 on unsold rooms,
completion bonuses, favor points, final scoring, the solo slots); the coin and room sizes are
read from the kind ids (`coin-5000`, `room-350`). Facts the sources leave out are *parameters*
of a simulated game, sampled per seed (docs/engine-castles-of-mad-king-ludwig.md lists them):

- `card_mix`: how many of the 50 room cards show each of the 10 sizes (gap-room-cards): at least
  1 each, the other 40 split by random (gamma) weights.
- `prices_2_3`, `prices_4`: the price slots of the two sides of the contract board
  (gap-price-slots). The 2-3 player side has as many slots as 3 players reveal (6), among them the
  2000, 4000 and 6000 the text names; the 4 player side as many as 4 players reveal (7). The
  unnamed prices are distinct multiples of the smallest coin up to the starting money.
- `rooms`: each of the 75 room tiles (gap-rooms): its type (one of the 8 of the data), entrances
  (1-4), castle-symbol points (0-6) and centre symbol: activity rooms a penalty (-1..-3 per
  adjacent room of 1-2 types), downstairs rooms points per room of a type (1-3), other rooms with
  even odds a connection bonus (1-3 per connected room of 1-2 types) or none.
- `hallway_doors` (regular side, downstairs side) and `foyer_doors`: 2-4 entrances each (the
  sources say only that halls and hallways have "many" entrances); stairs have their 2 ends.
- `favors`: the condition of each of the 24 King's favors (gap-favor-tiles), one of the kinds the
  sources name: most rooms of a type, most square feet of a type, most rooms of a size, most
  incomplete rooms.
- `bonus`: each of the 27 bonus cards (gap-bonus-cards), abstracted as 1-3 points per room of a
  type in your castle.

The castle is a graph, not a floor plan: a room is a list of entrances, each open, joined to an
entrance of another room, or against a wall. Placement (rules 1, 4, 5, 6, 8 and the stairs and
hallway rules) is checked on that graph: a new room joins at least one open entrance on its own
floor (downstairs rooms and the downstairs side of hallways below, stairs joining the floors by
their two ends, never one stairs to another), some of its other entrances may join further open
entrances or face walls, its walls may block open entrances of the castle, and at least one
entrance of the main floor must stay open. Overlap, rotation and the outdoor fence (rules 2, 3,
7) are geometry and are not modelled; "adjacent" means joined, or wall against entrance. A room
is complete when every entrance is joined; one against a wall never completes.

When nobody can place any room below the board and no hallway or stairs is left, nothing is
ever bought again and the deck never runs out (gap-stuck-contract-board): the game is scored at
that round's end and the event counted (`ran_dry['contract-row']`).

Readings where the sources are unclear, kept simple (docs/engine-…md): the master builder pays
the bank (BGA); payments make change through the bank; a downstairs room's "per room" symbol
counts the new room too; the game ends after the last round's turns (no 1000 on the unsold
rooms then); the castle size for the tie-break counts room tiles only (the sizes of foyers,
hallways and stairs are not given).
"""

from __future__ import annotations

import random
import re
from collections import Counter

from ...model import Game
from ...quantities import numbers_of, step_amount
from ..setup import BOX, SetupResult
from ..state import State, values

UP, DOWN = "up", "down"
OPEN, WALL = None, "wall"
BANK = "bank"
ROW = "contract-row"
DECK, DISCARD = "room-deck", "room-discard"
BONUS_DECK = "bonus-deck"
HALLS = "hallway-supply"
HALLWAY, STAIRS = ("hallway", ""), ("stairs", "")
FAVOR_KINDS = ("rooms-of-type", "sqft-of-type", "rooms-of-size", "incomplete")


def number(ident: str) -> int:
    """The number a kind id names: `room-350` -> 350, `coin-5000` -> 5000."""
    return int(re.search(r"(\d+)$", ident).group(1))


def room_types(game: Game) -> list[str]:
    group = next(g for g in game.cards if g.id == "cards-room-types")
    return [c.id.removeprefix("room-type-") for c in group.cards]


def _component(game: Game, cid: str):
    return next(c for c in game.components if c.id == cid)


def _reveal(game: Game) -> dict[int, int]:
    """Cards revealed at setup by player count (the step's table, its entries computed)."""
    step = _step(game, "setup-reveal-cards")
    numbers = numbers_of(game)
    return {n: step_amount(numbers, step, n) for n in step.by_players}


def _step(game: Game, sid: str):
    return next(s for s in game.setup if s.id == sid)


def parameters(game: Game, rng: random.Random) -> dict:
    v = values(game)
    types = room_types(game)
    tiles = _component(game, "room-tile")
    sizes = [k.id for k in tiles.kinds]
    cards = _component(game, "room-card").count
    weights = [rng.gammavariate(2.0, 1.0) for _ in sizes]
    mix = Counter({s: 1 for s in sizes})
    mix.update(rng.choices(sizes, weights, k=cards - len(sizes)))
    coins = sorted(number(k.id) for k in _component(game, "coin").kinds)
    start = v["setup-money"]["money"]
    steps = list(range(coins[0], start + 1, coins[0]))
    reveal = _reveal(game)
    solo = v["round-solo-fill"]
    named = sorted({solo["slot_a"], solo["slot_b"], solo["slot_c"]})
    p23 = sorted(named + rng.sample([x for x in steps if x not in named], reveal[3] - len(named)))
    p4 = sorted(rng.sample(steps, reveal[4]))
    rooms = {}
    for kind in tiles.kinds:
        for i in range(kind.count):
            t = rng.choice(types)
            others = rng.sample(types, rng.randint(1, 2))
            if t == "activity":
                sym = ("penalty", tuple(others), rng.randint(1, 3))
            elif t == "downstairs":
                sym = ("per-room", (rng.choice(types),), rng.randint(1, 3))
            elif rng.random() < 0.5:
                sym = ("connection", tuple(others), rng.randint(1, 3))
            else:
                sym = None
            rooms[f"{kind.id}#{i}"] = (t, rng.randint(1, 4), rng.randint(0, 6), sym)
    favors = []
    for _ in range(_component(game, "kings-favor").count):
        k = rng.choice(FAVOR_KINDS)
        favors.append((k, rng.choice(sizes) if k == "rooms-of-size" else None if k == "incomplete" else rng.choice(types)))
    bonus = [(rng.choice(types), rng.randint(1, 3)) for _ in range(_component(game, "bonus-card").count)]
    return {"card_mix": dict(sorted(mix.items(), key=lambda kv: number(kv[0]))), "prices_2_3": p23, "prices_4": p4,
            "rooms": rooms, "hallway_doors": (rng.randint(2, 4), rng.randint(2, 4)), "foyer_doors": rng.randint(2, 4),
            "favors": favors, "bonus": bonus}


def kind_counts(game: Game, params: dict) -> dict[str, dict[str, int]] | None:
    return None  # every kind count is in the data; card sizes are named in the state


def new_state(game: Game, setup: SetupResult, seed: int, box: Counter, endless: set[str], params: dict) -> Castles:
    return Castles(game, setup, seed, box, endless, params)


class Room:
    """One tile of a castle: its entrances (open, joined `(room, door)` or against a wall)."""

    __slots__ = ("adj", "done", "doors", "floors", "piece", "pts", "sqft", "stairs", "sym", "type")

    def __init__(self, piece, type_, floors, pts=0, sym=None, sqft=0, stairs=False):
        self.piece, self.type, self.floors, self.pts, self.sym, self.sqft = piece, type_, floors, pts, sym, sqft
        self.doors: list = [OPEN] * len(floors)
        self.adj: set[int] = set()
        self.done = False
        self.stairs = stairs


class Castles(State):
    def __init__(self, game, setup, seed, box, endless, params):
        super().__init__(game, setup, seed, box, endless, params)
        v = self.v
        self.solo = self.mode == "solo"
        self.coin_keys = sorted((("coin", k.id) for k in _component(game, "coin").kinds), key=lambda k: -number(k[1]))
        self.sizes = [k.id for k in _component(game, "room-tile").kinds]
        self.prep_stacks()
        self.prep_cards()
        hand_ids = iter(self.rng.sample(range(len(params["bonus"])), len(params["bonus"])))
        self.pile_of(BONUS_DECK, lambda piece: piece + (next(hand_ids),))
        for p in range(self.players):
            self.pile_of(f"hand#{p + 1}", lambda piece: piece + (next(hand_ids),))
        favors = iter(self.rng.sample(range(len(params["favors"])), len(params["favors"])))
        self.pile_of("favor-circles", lambda piece: piece + (next(favors),))
        # the contract board's slots: which side, and the 2-player game's unused slot
        if self.solo:
            s = v["round-solo-fill"]
            self.prices = [s["slot_a"], s["slot_b"], s["slot_c"]]
        elif self.players == v["setup-contract-board"]["circles"]:
            self.prices = list(params["prices_4"])
        else:
            self.prices = list(params["prices_2_3"])
            if self.players == 2:
                self.prices.remove(v["round-two-players"]["slot"])
        self.row: list = [None] * len(self.prices)
        self.unpriced: list = []
        # castles: each player's foyer is the first room
        self.castles: list[list[Room]] = []
        for p in range(self.players):
            self.count(f"castle#{p + 1}").pop(("foyer", ""), None)
            self.castles.append([Room(("foyer", "", p), "corridor", [UP] * params["foyer_doors"])])
            self.transfer(BANK, self.purse(p), v["setup-money"]["money"])
        self.mb = 0
        self.scores = [0 if self.solo else (p - self.mb) % self.players for p in range(self.players)]
        self.completed_down = [0] * self.players
        self.pending: list = []
        self.extra_turns = 0
        self.corridor_used = False
        self.last_round = False
        self.phase = "price"
        self.order: list[int] = []
        self.say(f"price slots: {', '.join(map(str, self.prices))}; {len(self.piles[DECK])} room cards")
        if not self.solo:  # the solo game reveals no card at setup
            self.fill(_reveal(game).get(self.players, 0), setup=True)
        self.round_start(first=True)

    # ----- setup the data's declarative steps cannot say
    def prep_stacks(self) -> None:
        """One stack per size, with the removal per stack (large / small) the setup text states;
        the rooms setup put below the board go back, to be revealed by their cards."""
        rooms = self.count("room-stacks")
        for key, n in list(self.count(ROW).items()):
            rooms[key] += n
        self.counts.pop(ROW, None)
        step = _step(self.game, "setup-remove-room-tiles")
        by = step.by_players or {}  # a flat total is redone per stack; a removal by kind (stack) is setup's own
        sv = step.values
        like = next((q for q in (3, 2) if by.get(q) == by.get(self.players) and by.get(q)), None)
        box = self.count(BOX)
        total = {k: rooms[("room-tile", k)] + box[("room-tile", k)] for k in self.sizes}
        for k in self.sizes if by else ():
            if like is None and by.get(self.players):
                continue  # a table this module cannot read per stack: keep setup's own removal
            remove = 0 if like is None else sv[("large" if number(k) >= sv["large_min"] else "small") + str(like)]
            want = max(total[k] - remove, 0)
            have = rooms[("room-tile", k)]
            if have > want:
                self.take("room-stacks", BOX, ("room-tile", k), have - want)
            elif want > have:
                self.take(BOX, "room-stacks", ("room-tile", k), want - have)
        kinds = {k.id: k.count for k in _component(self.game, "room-tile").kinds}
        for k in self.sizes:
            n = self.count("room-stacks").pop(("room-tile", k), 0)
            ids = self.rng.sample(range(kinds[k]), n)
            self.piles[f"room-stacks:{k}"] = [("room-tile", k, i) for i in ids]
        self.counts.pop("room-stacks", None)

    def prep_cards(self) -> None:
        """Name the room cards in play with sizes from the sampled mix (the revealed ones go back:
        the module reveals them itself, so that each room matches its card)."""
        deck = self.count(DECK)
        for key, n in list(self.count(DISCARD).items()):
            deck[key] += n
        self.counts.pop(DISCARD, None)
        sizes = [k for k, n in self.p["card_mix"].items() for _ in range(n)]
        self.rng.shuffle(sizes)
        it = iter(sizes)
        self.pile_of(DECK, lambda piece: piece + (next(it),))
        self.pile(DISCARD)

    # ----- money: coins of the data's kinds, change made through the bank
    def purse(self, p: int) -> str:
        return f"money#{p + 1}"

    def money(self, zone: str) -> int:
        c = self.count(zone)
        return sum(number(k[1]) * c[k] for k in self.coin_keys)

    def transfer(self, src: str, dst: str, amount: int) -> int:
        """Move coins worth `amount` from src to dst; a payer short of small coins changes a large
        one at the bank first. A short supply is recorded by `take` (the sources are silent)."""
        (big, small), (bv, sv) = (self.coin_keys[0], self.coin_keys[-1]), (number(self.coin_keys[0][1]), number(self.coin_keys[-1][1]))
        have = self.count(src)
        n_big = min(amount // bv, have[big])
        rest = amount - n_big * bv
        while src != BANK and have[small] * sv < rest and have[big] > n_big and self.count(BANK)[small] * sv >= bv:
            self.take(src, BANK, big)
            self.take(BANK, src, small, bv // sv)
        moved = self.take(src, dst, big, n_big) * bv
        moved += self.take(src, dst, small, rest // sv) * sv
        if moved < amount and src != BANK:
            self.say(f"{src} pays only {moved} of {amount}")
        return moved

    # ----- the round
    def round_start(self, first: bool = False) -> None:
        self.round += 1
        if self.solo:
            self.fill(self.v["round-solo-fill"]["cards"], setup=False)
        elif not first:
            self.fill(sum(1 for r in self.row if r is None), setup=False)
        if not self.piles[DECK]:
            self.last_round = True
        self.say(f"round {self.round} begins" + ("" if self.solo else f"; master builder P{self.mb + 1}")
                 + ("; the room card deck is empty: last round" if self.last_round else ""))
        if self.solo:
            self.start_turns()
        else:
            self.unpriced = [r for r in self.row if r is not None] + self.unpriced
            self.row = [None] * len(self.prices)
            self.phase = "price"
            self.current = self.mb
            if not self.unpriced:
                self.start_turns()

    def fill(self, n: int, setup: bool) -> None:
        """Draw n rooms: a card names a size (an exhausted size: draw another), a room a sleeping
        room's bonus put on the deck comes as it is. An empty deck is reshuffled from the discard
        pile (the last round's rule, the zone's on_empty)."""
        got = []
        tries = len(self.piles[DECK]) + len(self.piles.get(DISCARD, [])) + n + 1
        while len(got) < n and tries > 0:
            tries -= 1
            if not self.piles[DECK]:
                if not self.piles.get(DISCARD):
                    break
                self.last_round = True
            c = self.draw(DECK)
            if c is None:
                break
            if c[0] == "room-tile":
                got.append(c)
                continue
            self.put(DISCARD, c)
            stack = self.piles[f"room-stacks:{c[2]}"]
            if not stack:
                self.say(f"card {c[2]}: that stack is exhausted, another card is drawn")
                continue
            got.append(stack.pop())
        if len(got) < n:
            self.say(f"only {len(got)} of {n} rooms could be drawn")
        if self.solo:
            self.row = (got + [None] * len(self.prices))[:len(self.prices)]
            self.say("rooms for " + ", ".join(f"{pr}: {self.name(t)}" for pr, t in zip(self.prices, self.row) if t))
        else:
            self.unpriced += got
            if got:
                self.say(f"{'revealed' if setup else 'drawn'}: {', '.join(self.name(t) for t in got)}")

    def start_turns(self) -> None:
        self.phase = "turn"
        self.order = [(self.mb + 1 + k) % self.players for k in range(self.players)]
        if self.solo:
            self.order = list(range(self.players))
        self.next_turn()

    def next_turn(self) -> None:
        if not self.order:
            self.round_end()
            return
        self.current = self.order.pop(0)
        self.begin_turn()

    def begin_turn(self) -> None:
        self.turn += 1
        self.corridor_used = False
        self.phase = "turn"

    def after_action(self) -> None:
        if self.pending:
            self.phase = "bonus"
            return
        if self.extra_turns:
            self.extra_turns -= 1
            self.say(f"P{self.current + 1} takes an extra turn (food room)")
            self.begin_turn()
            return
        self.next_turn()

    def round_end(self) -> None:
        if self.last_round:
            self.final_scoring()
            return
        if self.solo:
            for i, t in enumerate(self.row):
                if t is not None:
                    self.count(BOX)[t[:2]] += 1
                    self.row[i] = None
            self.say("unbought rooms go back to the box")
        elif self.stuck():
            self.ran_dry[ROW] += 1
            self.say("no player can place any room of the contract board, and no hallway or stairs is left: "
                     "the game could never end (the sources are silent: gap-stuck-contract-board); it is scored now")
            self.final_scoring()
            return
        else:
            bonus = self.v["turn-round-end-money"]["bonus"]
            for t in self.row:
                if t is not None:
                    self.transfer(BANK, self.on_tile(t), bonus)
            self.mb = (self.mb + 1) % self.players
        self.round_start()

    def stuck(self) -> bool:
        """No room below the board fits any castle, and no hallway or stairs can change that:
        nothing will ever be bought, no card drawn, and the deck never runs out."""
        for p in range(self.players):
            if self.hall_actions(p, "check") or any(
                    t is not None and self.placements(p, self.room_floors(t), False, 1) for t in self.row):
                return False
        return True

    def on_tile(self, t) -> str:
        return f"on-tile:{t[1]}#{t[2]}"

    # ----- names
    def spec(self, t):
        return self.p["rooms"][f"{t[1]}#{t[2]}"]

    def name(self, t) -> str:
        if t[0] != "room-tile":
            return t[0]
        typ, doors, pts, _sym = self.spec(t)
        return f"{t[1]}#{t[2]} {typ} {doors}e {pts}p"

    # ----- the castle graph
    def open_doors(self, p: int, floor: str, no_stairs: bool = False) -> list[tuple[int, int]]:
        out = []
        for r, room in enumerate(self.castles[p]):
            if no_stairs and room.stairs:
                continue
            for d, st in enumerate(room.doors):
                if st is OPEN and room.floors[d] == floor:
                    out.append((r, d))
        return out

    def placements(self, p: int, floors: list[str], stairs: bool, k: int = 2) -> list[tuple]:
        """Up to k legal placements of a piece whose entrances lie on `floors`: (door joined first,
        joins, walls, blocked). Empty when none is legal (rule 8)."""
        rng = self.rng
        castle = self.castles[p]
        cands = {f: self.open_doors(p, f, no_stairs=stairs) for f in (UP, DOWN)}
        open_up = len(self.open_doors(p, UP))
        firsts = [j for j in range(len(floors)) if cands[floors[j]]]
        if stairs:
            firsts = sorted(set(firsts))
        elif firsts:
            firsts = [firsts[0]]
        out = []

        def up_left(joins, walls, blocks):
            used_up = sum(1 for _nd, (r, d) in joins if castle[r].floors[d] == UP) + \
                sum(1 for (r, d) in blocks if castle[r].floors[d] == UP)
            taken = {nd for nd, _ in joins} | {nd for nd, _ in walls}
            new_up = sum(1 for i, f in enumerate(floors) if f == UP and i not in taken)
            return open_up - used_up + new_up

        for attempt in range(k):
            if not firsts:
                break
            j = rng.choice(firsts)
            free = {f: list(c) for f, c in cands.items()}
            first = rng.choice(free[floors[j]])
            free[floors[j]].remove(first)
            joins, walls, blocks = [(j, first)], [], []
            for i in range(len(floors) if attempt else 0):  # the first: joined at one entrance only
                if i == j:
                    continue
                x = rng.random()
                if x < 0.15 and free[floors[i]]:
                    t = rng.choice(free[floors[i]])
                    free[floors[i]].remove(t)
                    joins.append((i, t))
                elif x < 0.25:
                    walls.append((i, rng.randrange(len(castle))))
            if attempt and rng.random() < 0.05:
                left = free[UP] + free[DOWN]
                if left:
                    blocks.append(rng.choice(left))
            if up_left(joins, walls, blocks) < 1:
                joins, walls, blocks = [(j, first)], [], []
            pl = (j, tuple(joins), tuple(walls), tuple(blocks))
            if up_left(joins, walls, blocks) >= 1 and pl not in out:
                out.append(pl)
        if not out:  # the simplest placement of each first entrance: legal if any is
            for j in firsts:
                for first in cands[floors[j]][:1]:
                    if up_left([(j, first)], [], []) >= 1:
                        return [(j, ((j, first),), (), ())]
        return out

    def build(self, p: int, room: Room, pl: tuple) -> int:
        """Put a room into player p's castle as placement `pl` says; returns its index."""
        castle = self.castles[p]
        n = len(castle)
        castle.append(room)
        _j, joins, walls, blocks = pl
        for nd, (r, d) in joins:
            assert castle[r].doors[d] is OPEN and castle[r].floors[d] == room.floors[nd], "entrance already used"
            assert not (room.stairs and castle[r].stairs), "two stairs joined"
            room.doors[nd] = (r, d)
            castle[r].doors[d] = (n, nd)
            room.adj.add(r)
        for nd, r in walls:
            room.doors[nd] = WALL
            room.adj.add(r)
        for r, d in blocks:
            castle[r].doors[d] = WALL
            room.adj.add(r)
        for r in room.adj:
            castle[r].adj.add(n)
        assert self.open_doors(p, UP), "no open entrance on the main floor (rule 5)"
        return n

    # ----- scoring during the game (steps 1-6)
    def symbol_points(self, p: int, n: int) -> int:
        castle = self.castles[p]
        room = castle[n]
        if room.sym is None:
            return 0
        how, types, k = room.sym
        if how == "connection":
            linked = {st[0] for st in room.doors if isinstance(st, tuple)}
            return k * sum(1 for r in linked if castle[r].type in types)
        if how == "penalty":
            return -k * sum(1 for r in room.adj if castle[r].type in types)
        return k * sum(1 for r in castle if r.type in types)

    def score_new(self, p: int, n: int) -> None:
        castle = self.castles[p]
        room = castle[n]
        self.gain_points(p, room.pts, f"{room.type}: castle symbol")
        self.gain_points(p, self.symbol_points(p, n), f"{room.type}: centre symbol")
        linked = {st[0] for st in room.doors if isinstance(st, tuple)}
        for r in sorted(linked):
            s = castle[r].sym
            if s and s[0] == "connection" and room.type in s[1]:
                self.gain_points(p, s[2], f"joined to a {castle[r].type} room's connection symbol")
        for r in sorted(room.adj):
            s = castle[r].sym
            if s and s[0] == "penalty" and room.type in s[1]:
                self.gain_points(p, -s[2], "next to an activity room")
        for r, other in enumerate(castle):
            s = other.sym
            if r != n and s and s[0] == "per-room" and room.type in s[1]:
                self.gain_points(p, s[2], "a downstairs room's per-room symbol")
        for r in [n] + sorted(linked):
            c = castle[r]
            if not c.done and all(isinstance(st, tuple) for st in c.doors):
                c.done = True
                self.say(f"P{p + 1} completes {c.type} room {r}")
                if c.type == "downstairs":
                    self.completed_down[p] += 1
                    if self.completed_down[p] % self.v["room-type-downstairs"]["every"] == 0:
                        self.pending.append(("downstairs", r))
                else:
                    self.pending.append((c.type, r))

    # ----- legal actions
    def legal_actions(self) -> list:
        if self.over:
            return []
        p = self.current
        if self.phase == "price":
            return [("price", i) for i, r in enumerate(self.row) if r is None]
        if self.phase == "bonus":
            return self.bonus_actions(p)
        acts = []
        have = self.money(self.purse(p))
        for i, t in enumerate(self.row):
            if t is None or have + self.money(self.on_tile(t)) < self.prices[i]:
                continue
            floors = self.room_floors(t)
            acts += [("room", i, pl) for pl in self.placements(p, floors, False)]
        if have >= self.v["action-buy-hallway"]["price"]:
            acts += self.hall_actions(p, "buy")
        acts.append(("pass",))
        return acts

    def room_floors(self, t) -> list[str]:
        typ, doors, _pts, _sym = self.spec(t)
        return [DOWN if typ == "downstairs" else UP] * doors

    def hall_actions(self, p: int, how: str) -> list:
        acts = []
        supply = self.count(HALLS)
        if supply[HALLWAY]:
            up, down = self.p["hallway_doors"]
            acts += [(how, "hallway", UP, pl) for pl in self.placements(p, [UP] * up, False, 1)]
            acts += [(how, "hallway", DOWN, pl) for pl in self.placements(p, [DOWN] * down, False, 1)]
        if supply[STAIRS]:
            acts += [(how, "stairs", None, pl) for pl in self.placements(p, [UP, DOWN], True)]
        return acts

    def bonus_actions(self, p: int) -> list:
        acts = []
        for i, (kind, r) in enumerate(self.pending):
            if kind == "sleeping":
                acts.append(("bonus", i, None))
                for size in self.sizes:
                    stack = self.piles[f"room-stacks:{size}"]
                    acts += [("bonus", i, (size, (a,))) for a in range(len(stack))]
                    acts += [("bonus", i, (size, (a, a + 1))) for a in range(len(stack) - 1)]
            elif kind == "utility":
                acts += [("bonus", i, keep) for keep in (0, 1)]
            elif kind == "corridor":
                free = [] if self.corridor_used else self.hall_actions(p, "free")
                acts += [("bonus", i, a) for a in free] or [("bonus", i, None)]
            elif kind == "downstairs":
                acts += [("bonus", i, t) for t in room_types(self.game) if t != "downstairs"]
            else:
                acts.append(("bonus", i, None))
        return acts

    # ----- applying actions
    def apply(self, action) -> None:
        p = self.current
        kind = action[0]
        if kind == "price":
            t = self.unpriced.pop(0)
            self.row[action[1]] = t
            self.say(f"P{p + 1} prices {self.name(t)} at {self.prices[action[1]]}")
            if not self.unpriced:
                self.start_turns()
            return
        if kind == "bonus":
            self.do_bonus(p, action[1], action[2])
            if not self.pending:
                self.after_action()
            return
        payee = BANK if self.solo or p == self.mb else self.purse(self.mb)
        if kind == "room":
            _k, i, pl = action
            t, self.row[i] = self.row[i], None
            on = self.on_tile(t)
            got = self.money(on)
            self.transfer(on, self.purse(p), got)
            if not self.counts.get(on):
                self.counts.pop(on, None)
            self.transfer(self.purse(p), payee, self.prices[i])
            typ, _doors, pts, sym = self.spec(t)
            self.say(f"P{p + 1} buys {self.name(t)} for {self.prices[i]}" + (f" (takes {got} from the tile)" if got else ""))
            room = Room(t, typ, self.room_floors(t), pts, sym, number(t[1]))
            self.score_new(p, self.build(p, room, pl))
        elif kind == "buy":
            self.transfer(self.purse(p), payee, self.v["action-buy-hallway"]["price"])
            self.place_hall(p, action)
        elif kind == "pass":
            self.transfer(BANK, self.purse(p), self.v["action-pass"]["money"])
            self.say(f"P{p + 1} passes and takes {self.v['action-pass']['money']}")
        self.after_action()

    def place_hall(self, p: int, action) -> None:
        how, what, floor, pl = action
        key = HALLWAY if what == "hallway" else STAIRS
        supply = self.count(HALLS)
        supply[key] -= 1
        if not supply[key]:
            del supply[key]
        if what == "hallway":
            d = self.p["hallway_doors"][0 if floor == UP else 1]
            room = Room(("hallway", "", floor), "corridor", [floor] * d)
        else:
            room = Room(("stairs", ""), "corridor", [UP, DOWN], stairs=True)
        self.say(f"P{p + 1} {'buys' if how == 'buy' else 'places for free'} "
                 f"{'stairs' if what == 'stairs' else ('a hallway' if floor == UP else 'a downstairs hallway')}")
        self.score_new(p, self.build(p, room, pl))

    def do_bonus(self, p: int, i: int, arg) -> None:
        kind, r = self.pending.pop(i)
        v = self.v
        castle = self.castles[p]
        if kind == "living":
            room = castle[r]
            self.gain_points(p, room.pts + self.symbol_points(p, r), "living room completed: scores again")
        elif kind == "activity":
            self.gain_points(p, v["room-type-activity"]["points"], "activity room completed")
        elif kind == "outdoor":
            got = self.transfer(BANK, self.purse(p), v["room-type-outdoor"]["money"])
            self.say(f"P{p + 1} takes {got} from the bank (outdoor room completed)")
        elif kind == "food":
            self.extra_turns += 1
            self.say(f"P{p + 1} will take an extra turn (food room completed)")
        elif kind == "utility":
            drawn = [c for c in (self.draw(BONUS_DECK) for _ in range(v["room-type-utility"]["draw"])) if c is not None]
            if drawn:
                kept = drawn.pop(min(arg, len(drawn) - 1))
                self.put(f"hand#{p + 1}", kept)
                for c in drawn:
                    self.put(BONUS_DECK, c, bottom=True)
                self.say(f"P{p + 1} keeps a bonus card (utility room completed)")
        elif kind == "sleeping":
            self.sleeping(p, arg)
        elif kind == "corridor":
            if arg is None:
                self.say(f"P{p + 1} gets no free hallway or stairs" + (" (already this turn)" if self.corridor_used else ""))
            else:
                self.corridor_used = True
                self.place_hall(p, arg)
        elif kind == "downstairs":
            self.say(f"P{p + 1} chooses the {arg} room's bonus (2 downstairs rooms completed)")
            self.pending.insert(i, (arg, r))

    def sleeping(self, p: int, arg) -> None:
        if arg is None:
            self.say(f"P{p + 1} puts no room on the deck (sleeping room completed)")
            return
        size, picks = arg
        stack = self.piles[f"room-stacks:{size}"]
        chosen = [stack[a] for a in picks]
        for t in chosen:
            stack.remove(t)
        self.rng.shuffle(stack)
        empty = self.last_round or not any(c[0] == "room-card" for c in self.piles[DECK])
        for t in chosen:
            self.put(DISCARD if empty else DECK, t)
        self.say(f"P{p + 1} puts {', '.join(self.name(t) for t in chosen)} on the "
                 + ("discard pile (last round: they never come into play)" if empty else "room deck"))

    # ----- the end
    def is_over(self) -> bool:
        return self.over

    def favor_points(self, measures: list[int]) -> list[int]:
        """Rank points with ties split: tied players share the points of the places they take,
        rounded down; a player needs at least one of what the favor counts."""
        fv = self.v["score-final-favors"]
        table = [fv["first"], fv["second"], fv["third"], fv["fourth"]]
        return split_ranks(measures, table)

    def measure(self, p: int, favor) -> int:
        kind, what = favor
        rooms = [r for r in self.castles[p] if r.piece[0] != "foyer"]
        if kind == "rooms-of-type":
            return sum(1 for r in rooms if r.type == what)
        if kind == "sqft-of-type":
            return sum(r.sqft for r in rooms if r.type == what)
        if kind == "rooms-of-size":
            return sum(1 for r in rooms if r.piece[0] == "room-tile" and r.piece[1] == what)
        return sum(1 for r in rooms if not r.done)

    def final_scoring(self) -> None:
        v = self.v
        self.say("the last round is over: final scoring")
        if not self.solo:
            for f in self.piles.get("favor-circles", []):
                favor = self.p["favors"][f[2]]
                pts = self.favor_points([self.measure(p, favor) for p in range(self.players)])
                for p, n in enumerate(pts):
                    self.gain_points(p, n, f"King's favor {favor[0]} {favor[1] or ''}".rstrip())
        exhausted = {f"room-tile:{k}" for k in self.sizes if not self.piles[f"room-stacks:{k}"]}
        if not self.count(HALLS)[HALLWAY]:
            exhausted.add("hallway")
        if not self.count(HALLS)[STAIRS]:
            exhausted.add("stairs")
        for p in range(self.players):
            n = sum(1 for r in self.castles[p]
                    if (f"room-tile:{r.piece[1]}" if r.piece[0] == "room-tile" else r.piece[0]) in exhausted)
            self.gain_points(p, n * v["score-final-exhausted"]["points"], f"{n} rooms of exhausted stacks")
        for k in range(self.players):
            p = (self.mb + k) % self.players
            pts = 0
            for c in self.piles.get(f"hand#{p + 1}", []):
                typ, per = self.p["bonus"][c[2]]
                pts += per * sum(1 for r in self.castles[p] if r.type == typ)
            self.gain_points(p, pts, "bonus cards")
        fm = v["score-final-money"]
        for p in range(self.players):
            self.gain_points(p, self.money(self.purse(p)) // fm["money"] * fm["points"], "money")
        size = [sum(r.sqft for r in c) for c in self.castles]
        best = max(range(self.players), key=lambda p: (self.scores[p], size[p]))
        self.say("final scores: " + " ".join(f"P{i + 1}={s}" for i, s in enumerate(self.scores))
                 + f"; winner P{best + 1} (castle {size[best]} sq ft)")
        if self.solo:
            self.say(f"solo rank: {self.solo_rank(self.scores[0])}")
        self.over = True

    def solo_rank(self, score: int) -> str:
        """The rank of the solo score table (seed 003, transcribed with its holes: RB500, acknowledged)."""
        table = next(t for t in self.game.scoring.tables if t.id == "solo-ranks")
        for r in table.ranges:
            if r.min <= score and (r.max is None or score <= r.max):
                return r.rank.get("en", "")
        return "none (a hole of the source's table)"

    def extra_zones(self):
        out = {f"castle#{p + 1}": [r.piece for r in c] for p, c in enumerate(self.castles)}
        out[ROW] = self.row
        out["unpriced"] = self.unpriced
        return out


def split_ranks(measures: list[int], table: list[int]) -> list[int]:
    """Points by rank for `measures` (higher is better; 0 scores nothing): a group of tied players
    shares the points of the places it takes, each getting the sum divided by its size, rounded
    down; the next player takes the place after the group."""
    out = [0] * len(measures)
    ranked = sorted((m for m in set(measures) if m > 0), reverse=True)
    place = 0
    for m in ranked:
        group = [p for p, x in enumerate(measures) if x == m]
        pts = sum(table[place:place + len(group)]) // len(group)
        for p in group:
            out[p] = pts
        place += len(group)
    return out
