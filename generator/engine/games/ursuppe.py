"""Ursuppe (Primordial Soup): the rules the data cannot say, written against the core's primitives.

Everything here is a rule stated by the sources (content/ursuppe, seed 002). The numbers the
rules use are read from the data's `values:` (spaces and food per space, food eaten and excreted,
starving damage, the damage that kills and the food a death leaves, BP income, the prices of
moving under own power and of division, the BP per ultraviolet point, the markers' start spaces,
what an advanced gene counts for) and from its components, setup steps and scoring tables;
none is typed here. A round is the data's six phases: move and eat (lowest score first), then
environment and ultraviolet check, genes, income and division, death and scoring (highest
score first). The game ends after the scoring of a round in which a marker reached the black
zone, or in which the last environment card was turned over.

Facts the sources leave out are *parameters* of a simulated game, sampled per seed over a
documented range so the validator explores them (docs/engine-ursuppe.md lists them):

- `board`, `walls` (gap-board-layout): only "19 spaces around a central island" is known. A
  STAND-IN board is sampled from a family of square grids: a 5x5 grid (larger if the data asks
  for more spaces) whose centre cell plus 0-2 neighbouring inner cells form the island, with
  border cells cut at random until the data's number of spaces is left, the soup connected and
  the island touching no cut cell; walls between neighbouring spaces at a rate of 0-15 %,
  never cutting the soup in two. The edge of the board and the island block movement.
- `drift`, `ozone` (gap-environment-cards): each environment card's drift direction (N, E, S
  or W) and ultraviolet threshold (stand-in range 4-14).
- `gene_price`, `gene_uv`, `advanced`, `marked_three` (gap-gene-cards, gap-gene-three): each
  printed gene card's price (stand-in 2-8 BP) and ultraviolet value (stand-in 0-3), which
  0-8 of them are advanced genes, and which 10-30 of them bear the "3" used with three
  players. Gene abilities are not simulated (the sources do not list them); all cards for sale
  lie open; an advanced gene is bought with BP alone. Blank cards stay in the box.
BP are real chips worth `setup-bp`'s `small` and `large` (1 and 5: the English rules copy and a
Spanish rules text): payments take change from the bank, and a bank short of chips pays what it
has (a fact, not a fault).
- `finish` (gap-finish-zone): the first space of the black zone, 40 or 42.
- `diet_three` (gap-three-players): with three players an amoeba eats either 1 of each of the
  2 other colours in play, or the data's 3 cubes as 2 of one other colour and 1 of the other.
- `starving_eats` (gap-starving): whether an amoeba that cannot eat enough still eats the
  needed cubes that are there. It never excretes: the seed excretes only "once it has eaten
  enough", and spieletest.at says a starving amoeba "scheidet auch nichts aus".
- `eaten_food` (gap-eaten-food): where eaten cubes go, "supply" (back to the food supply that
  excretion and death take from) or "out" (set aside, out of play). The figure "the food ran
  short" that the simulation reports is measured over both readings.
- `start_spaces` (gap-start-order): each player's score marker space, distinct, among the
  data's first..last.

Readings kept simple (docs/engine-ursuppe.md): with three players only the colours in play are placed, eaten and left by a
death, and the unused colour's cubes stay in the box (a Spanish rules text and the German reviews;
the seed says "each colour", gap-three-players); a wall also blocks adjacency for division; a
lone amoeba's division may go on any space but its own; starting amoebas and the free amoeba
are placed at random; ties of the eating choice are the state's random choice.
"""

from __future__ import annotations

import math
import random
from collections import Counter

from ...model import Game
from ..setup import BOX, SetupResult
from ..state import State, values

DIRS = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
DIE = ("W", "N", "E", "S", None, "choose")  # faces 1-6, as action-own-power's text states
AMOEBA, DP, FOOD, GENE, ENV = "amoeba", "dp", "food", "gene-card", "environment-card"
SMALL, LARGE = ("bp", "bp-small"), ("bp", "bp-large")
SUPPLY = "food-supply"
BANK = "bank"  # BP chips and damage points (setup-bank-bp, setup-bank-dp)
GENES = "gene-supply"  # setup lays out the gene cards in use here (how many: gap-gene-three)
EATEN = "eaten-food"  # cubes set aside after eating, when the sampled reading takes them out of play
# stand-in ranges for facts the sources leave out (see the docstring)
OZONE = (4, 14)
GENE_PRICE = (2, 8)
GENE_UV = (0, 3)
ADVANCED = (0, 8)
MARKED_THREE = (10, 30)
FINISH = (40, 42)  # the two values the sources mention
WALL_RATE = 0.15
ISLAND = (1, 3)


def _component(game: Game, cid: str):
    return next(c for c in game.components if c.id == cid)


def _kind_count(game: Game, cid: str, kid: str) -> int:
    return next(k.count for k in _component(game, cid).kinds if k.id == kid)


# ----- the stand-in board
def _connected(cells: set, walls: set = frozenset()) -> bool:
    if not cells:
        return False
    start = min(cells)
    seen, todo = {start}, [start]
    while todo:
        r, c = todo.pop()
        for dr, dc in DIRS.values():
            n = (r + dr, c + dc)
            if n in cells and n not in seen and frozenset(((r, c), n)) not in walls:
                seen.add(n)
                todo.append(n)
    return len(seen) == len(cells)


def sample_board(rng: random.Random, spaces: int) -> tuple[list[str], list[str]]:
    """A stand-in board: rows of '.' (soup), '#' (island), ' ' (no space), and walls 'r,c|r,c'."""
    side = 5
    while side * side - ISLAND[1] < spaces:
        side += 1
    centre = (side // 2, side // 2)
    grid = {(r, c) for r in range(side) for c in range(side)}
    for _attempt in range(1000):
        island = {centre}
        size = rng.randint(*ISLAND)
        while len(island) < size:
            r, c = rng.choice(sorted(island))
            dr, dc = rng.choice(list(DIRS.values()))
            if 0 < r + dr < side - 1 and 0 < c + dc < side - 1:
                island.add((r + dr, c + dc))
        soup = grid - island
        border = sorted(x for x in soup if x[0] in (0, side - 1) or x[1] in (0, side - 1))
        cut = len(soup) - spaces
        if not 0 <= cut <= len(border):
            continue
        removed = set(rng.sample(border, cut))
        soup -= removed
        near_island = {(r + dr, c + dc) for r, c in island for dr, dc in DIRS.values()}
        if near_island & removed or not _connected(soup):
            continue
        break
    else:  # pragma: no cover - the family always has a member for 19 spaces
        raise ValueError(f"no stand-in board with {spaces} spaces")
    rate = rng.uniform(0, WALL_RATE)
    walls: set = set()
    pairs = sorted((a, (a[0] + dr, a[1] + dc)) for a in soup for dr, dc in ((0, 1), (1, 0))
                   if (a[0] + dr, a[1] + dc) in soup)
    for a, b in pairs:
        if rng.random() < rate and _connected(soup, walls | {frozenset((a, b))}):
            walls.add(frozenset((a, b)))
    rows = ["".join("." if (r, c) in soup else "#" if (r, c) in island else " " for c in range(side))
            for r in range(side)]
    return rows, sorted("|".join(f"{r},{c}" for r, c in sorted(w)) for w in walls)


def parameters(game: Game, rng: random.Random) -> dict:
    v = values(game)
    printed = _kind_count(game, GENE, "gene-printed")
    env = _component(game, ENV).count
    rows, walls = sample_board(rng, v["setup-food-board"]["spaces"])
    first, last = v["setup-score-markers"]["first"], v["setup-score-markers"]["last"]
    return {
        "board": rows,
        "walls": walls,
        "drift": [rng.choice("NESW") for _ in range(env)],
        "ozone": [rng.randint(*OZONE) for _ in range(env)],
        "gene_price": [rng.randint(*GENE_PRICE) for _ in range(printed)],
        "gene_uv": [rng.randint(*GENE_UV) for _ in range(printed)],
        "advanced": sorted(rng.sample(range(printed), min(printed, rng.randint(*ADVANCED)))),
        "marked_three": sorted(rng.sample(range(printed), min(printed, rng.randint(*MARKED_THREE)))),
        "finish": rng.choice(FINISH),
        "diet_three": rng.choice(["one-each", "two-of-one"]),
        "starving_eats": rng.random() < 0.5,
        "eaten_food": rng.choice(["supply", "out"]),
        "start_spaces": rng.sample(range(first, last + 1), last - first + 1),
    }


def kind_counts(game: Game, params: dict) -> dict[str, dict[str, int]]:
    return {}  # every kind Ursuppe's setup takes has a known count


def new_state(game: Game, setup: SetupResult, seed: int, box: Counter, endless: set[str], params: dict) -> "Ursuppe":
    return Ursuppe(game, setup, seed, box, endless, params)


def colour(p: int) -> tuple:
    return (FOOD, f"colour-{p + 1}")


class Ursuppe(State):
    score_zone = "score-track"

    def __init__(self, game, setup, seed, box, endless, params):
        super().__init__(game, setup, seed, box, endless, params)
        self.setup_index = {s.id: i for i, s in enumerate(game.setup)}
        self.tables = {t.id: t for t in game.scoring.tables}
        self._board(params)
        self._food(setup)
        self._genes()
        self._environment()
        self.per_bp = {SMALL: self.v["setup-bp"]["small"], LARGE: self.v["setup-bp"]["large"]}
        self.scores = list(params["start_spaces"][:self.players])
        self.at: dict[tuple[int, int], int] = {}  # (player, number) -> space
        self._amoebas()
        self.over = False
        self.flow = self._play()
        self.pending = None  # the first round starts when the first action is asked for

    # ----- setup the data cannot say
    def _board(self, params) -> None:
        cells = [(r, c) for r, row in enumerate(params["board"]) for c, ch in enumerate(row) if ch == "."]
        index = {x: i for i, x in enumerate(cells)}
        walls = {frozenset(tuple(int(n) for n in a.split(",")) for a in w.split("|")) for w in params["walls"]}
        self.cells = cells
        self.nb = [{d: index.get((r + dr, c + dc)) if frozenset(((r, c), (r + dr, c + dc))) not in walls else None
                    for d, (dr, dc) in DIRS.items()} for r, c in cells]

    def space(self, i: int) -> str:
        return f"space:{i + 1:02d}"

    def _food(self, setup) -> None:
        """Setup put food on 'soup' and the rest in the supply, without colours: give the cubes
        their colours, per_space of each colour in play on each space, the rest in the supply."""
        food = _component(self.game, FOOD)
        per_colour = food.per_colour
        per_space = self.v["setup-food-board"]["per_space"]
        on_soup = sum(n for (c, _k), n in self.counts.get("soup", Counter()).items() if c == FOOD)
        rest = sum(n for (c, _k), n in self.counts.get(SUPPLY, Counter()).items() if c == FOOD)
        for z in ("soup", SUPPLY):
            for key in [k for k in self.count(z) if k[0] == FOOD]:
                del self.counts[z][key]
        step = self.setup_index["setup-food-board"]
        want = len(self.cells) * per_space * self.players
        if on_soup != want:
            self.fault("RB302", f"setup puts {on_soup} food on the soup, but {len(self.cells)} spaces x {per_space} "
                       f"of each of {self.players} colours is {want}", ("setup", step))
        if per_colour * self.players != on_soup + rest:  # the unused colours stay in the box
            self.fault("RB600", f"the food in setup ({on_soup + rest}) is not the {self.players} colours in play "
                       f"x {per_colour}", ("setup", self.setup_index["setup-food-supply"]))
        left = Counter({colour(k): per_colour for k in range(self.players)})
        for i in range(len(self.cells)):
            for k in range(self.players):
                n = min(per_space, left[colour(k)])
                if n < per_space:
                    self.ran_out[FOOD] += 1
                    self.fault("RB302", f"with {self.players} players the soup needs {len(self.cells) * per_space} "
                               f"food of each colour in play, and a colour has {per_colour}", ("setup", step))
                if n:
                    self.count(self.space(i))[colour(k)] += n
                    left[colour(k)] -= n
        self.count(SUPPLY).update(+left)
        self.food_zones = [self.space(i) for i in range(len(self.cells))] + [SUPPLY, EATEN]
        self.per_colour = per_colour

    def comp_index(self, cid: str) -> int:
        return next(i for i, c in enumerate(self.game.components) if c.id == cid)

    def _genes(self) -> None:
        printed = range(len(self.p["gene_price"]))
        used = set(self.p["marked_three"]) if self.players == 3 else set(printed)
        # setup laid out every gene card (the number in use is not known); the sample keeps `used`
        # for sale and puts the others back in the box
        laid = self.count(GENES)
        for key in [k for k in laid if k[0] == GENE]:
            self.count(BOX)[key] += laid.pop(key)
        box = self.count(BOX)
        box[(GENE, "gene-printed")] -= len(used)
        if not box[(GENE, "gene-printed")]:
            del box[(GENE, "gene-printed")]
        self.display = [(GENE, "gene-printed", i) for i in sorted(used)]
        self.genes = [[] for _ in range(self.players)]

    def _environment(self) -> None:
        cards = iter(range(len(self.p["drift"])))
        self.pile_of("environment-space", lambda piece: piece + (next(cards),))
        self.pile_of("environment-pile", lambda piece: piece + (next(cards),))

    def _amoebas(self) -> None:
        """The first amoebas (lowest score first, with damage) then the second ones (reverse
        order), each on a space without an amoeba, at random."""
        for key in [k for k in self.count("soup") if k[0] in (AMOEBA, DP)]:
            comp = key[0]
            n = self.counts["soup"].pop(key)
            if comp == DP:
                self.count(BANK)[(DP, "")] += n
            else:  # back to their owners, to be placed one by one below
                for p in range(self.players):
                    self.count(self.sup(p))[(AMOEBA, "")] += n // self.players
        s = self.setup_index
        first = self.game.setup[s["setup-first-amoeba"]].per_player
        damage = self.game.setup[s["setup-first-damage"]].per_player
        second = self.game.setup[s["setup-second-amoeba"]].per_player
        order = self.ascending()
        for players, n, dmg in ((order, first, damage), (order[::-1], second, 0)):
            for p in players:
                for _ in range(n):
                    free = [i for i in range(len(self.cells)) if not self.amoebas_on(i)]
                    a = self.place(p, self.rng.choice(free or range(len(self.cells))))
                    self.damage(a, dmg)
        self.say("start: " + "; ".join(f"P{p + 1} on score {self.scores[p]}" for p in range(self.players)))

    # ----- zones the module keeps itself
    def extra_zones(self):
        out = {"gene-display": self.display}
        for p, g in enumerate(self.genes):
            out[f"genes#{p + 1}"] = g
        return out

    # ----- helpers
    def sup(self, p: int) -> str:
        return f"player-supply#{p + 1}"

    def name(self, a) -> str:
        return f"P{a[0] + 1}-{a[1]}"

    def amoebas_on(self, i: int) -> list:
        return [a for a, s in self.at.items() if s == i]

    def mine(self, p: int) -> list[int]:
        return sorted(n for q, n in self.at if q == p)

    def ascending(self) -> list[int]:
        return sorted(range(self.players), key=lambda p: self.scores[p])

    def descending(self) -> list[int]:
        return self.ascending()[::-1]

    def bp(self, p: int) -> int:
        have = self.held_in(self.sup(p))
        return have[SMALL] + have[LARGE] * self.per_bp[LARGE]

    def gain_bp(self, p: int, n: int) -> None:
        """Chips from the bank: large ones first; a short bank pays what it has."""
        bank, large = self.held_in(BANK), self.per_bp[LARGE]
        want = n
        k = min(n // large, bank[LARGE])
        n -= self.take(BANK, self.sup(p), LARGE, k) * large
        n -= self.take(BANK, self.sup(p), SMALL, n)
        self.say(f"P{p + 1} receives {want - n} BP" + (f" (the bank is short by {n})" if n else "")
                 + f" -> {self.bp(p)}")

    def pay_bp(self, p: int, n: int) -> None:
        """Pay n BP (legal moves never ask more than the player has), taking change in small chips."""
        have, large = self.held_in(self.sup(p)), self.per_bp[LARGE]
        k = min(n // large, have[LARGE])
        n -= self.take(self.sup(p), BANK, LARGE, k) * large
        if have[SMALL] >= n:
            self.take(self.sup(p), BANK, SMALL, n)
            return
        self.take(self.sup(p), BANK, LARGE, 1)
        change = large - n
        got = self.take(BANK, self.sup(p), SMALL, change)
        if got < change:
            self.say(f"P{p + 1} gets {got} of {change} BP change: the bank is short")

    def place(self, p: int, i: int) -> tuple[int, int]:
        n = next(k for k in range(1, 100) if (p, k) not in self.at)
        a = (p, n)
        self.take(self.sup(p), self.space(i), (AMOEBA, ""), as_=(AMOEBA, self.name(a)))
        self.at[a] = i
        self.say(f"{self.name(a)} is placed on space {i + 1}")
        return a

    def damage(self, a, n: int) -> None:
        if n:
            got = self.take(BANK, "damage", (DP, ""), n, as_=(DP, self.name(a)))
            self.say(f"{self.name(a)} takes {n} damage" + (f" (only {got} DP left to mark it)" if got < n else ""))

    def damage_of(self, a) -> int:
        return self.has("damage", (DP, self.name(a)))

    def env_card(self):
        return self.look("environment-space")[-1][2]

    def uv(self, p: int) -> int:
        return sum(self.p["gene_uv"][c[2]] for c in self.genes[p])

    def gene_count(self, p: int) -> int:
        adv = set(self.p["advanced"])
        counts = self.v["score-advanced"]["counts"]
        return sum(counts if c[2] in adv else 1 for c in self.genes[p])

    def table(self, tid: str, n: int) -> int:
        for r in self.tables[tid].ranges:
            if r.min <= n and (r.max is None or n <= r.max):
                return r.points
        return 0

    # ----- the OpenSpiel-like interface
    def legal_actions(self) -> list:
        if self.pending is None:
            self._resume(None)
        return [] if self.over else list(self.pending)

    def apply(self, action) -> None:
        if self.pending is None:
            self._resume(None)
        if action not in self.pending:  # an illegal move is a value: logged, state unchanged
            self.say(f"illegal action {action!r} ignored")
            return
        self._resume(action)

    def _resume(self, action) -> None:
        try:
            self.pending = self.flow.send(action)
        except StopIteration:
            self.pending = []
            self.over = True
        self.check_colours()

    def is_over(self) -> bool:
        return self.over

    def check_colours(self) -> None:
        """The core conserves food as a whole; this checks every colour on its own."""
        zones = [self.held_in(z) for z in self.food_zones]
        for k in range(self.players):
            c = colour(k)
            n = sum(z.get(c, 0) for z in zones)
            if n != self.per_colour:
                self.fault("RB600", f"{abs(n - self.per_colour)} food of colour {k + 1} "
                           f"{'created' if n > self.per_colour else 'destroyed'}: the soup and the supply hold {n}",
                           ("components", self.comp_index(FOOD), "per_colour"))

    # ----- the rounds, as a generator: it yields the legal actions and receives the chosen one
    def _play(self):
        v = self.v
        while True:
            self.round += 1
            self.say(f"round {self.round} begins; drift {self.p['drift'][self.env_card()]}")
            # phase 1: move and eat, lowest score first, each amoeba by number
            for p in self.ascending():
                self.turn += 1
                for n in self.mine(p):
                    yield from self.move(p, (p, n))
                    self.eat((p, n))
            # phase 2: a new environment card, then the ultraviolet check
            self.put("environment-discard", self.piles["environment-space"].pop())
            card = self.draw("environment-pile")
            if card is not None:
                self.put("environment-space", card)
            e = self.env_card()
            self.say(f"environment card: drift {self.p['drift'][e]}, ultraviolet {self.p['ozone'][e]}")
            for p in self.descending():
                yield from self.uv_check(p, self.p["ozone"][e])
            # phase 3: new genes
            for p in self.descending():
                while True:
                    acts = [("buy", c[2]) for c in self.display if self.p["gene_price"][c[2]] <= self.bp(p)]
                    if not acts:
                        break
                    a = yield acts + [("done",)]
                    if a == ("done",):
                        break
                    self.buy(p, a[1])
            # phase 4: income and division
            for p in self.descending():
                self.gain_bp(p, v["phase-division"]["income"])
                yield from self.divide(p)
            # phase 5: death
            for p in self.descending():
                for n in self.mine(p):
                    if self.damage_of((p, n)) >= v["death-natural"]["damage"]:
                        self.die((p, n))
            # phase 6: scoring
            for p in self.descending():
                amoebas = len(self.mine(p))
                genes = self.gene_count(p)
                self.advance(p, self.table("table-amoebas", amoebas) + self.table("table-genes", genes),
                             f"{amoebas} amoebas, {genes} genes")
            if max(self.scores) >= self.p["finish"]:
                self.say(f"a marker reached the black zone (space {self.p['finish']}): the game ends")
                return
            if not self.piles.get("environment-pile"):
                self.say("the last environment card was turned over: the game ends")
                return

    def move(self, p, a):
        cost = self.v["action-own-power"]["cost"]
        acts = [("drift",)] + ([("own-power",)] if self.bp(p) >= cost else [])
        how = yield acts
        if how == ("drift",):
            d = self.p["drift"][self.env_card()]
        else:
            self.pay_bp(p, cost)
            face = self.rng.randrange(len(DIE))
            d = DIE[face]
            self.say(f"{self.name(a)} moves under its own power: the die shows {face + 1}")
            if d == "choose":
                d = (yield [("direction", x) for x in DIRS])[1]
        here = self.at[a]
        there = self.nb[here][d] if d else None
        if there is None:
            self.say(f"{self.name(a)} stays on space {here + 1}" + (f" (blocked to the {d})" if d else ""))
            return
        self.take(self.space(here), self.space(there), (AMOEBA, self.name(a)))
        self.at[a] = there
        self.say(f"{self.name(a)} moves {d} to space {there + 1}")

    def diets(self, p: int) -> list[Counter]:
        """What an amoeba of player p may eat: one Counter of colours per way of eating."""
        others = [colour(k) for k in range(self.players) if k != p]
        eat = self.v["eat-food"]["eat"]
        if len(others) >= eat or self.p["diet_three"] == "one-each":
            return [Counter({c: 1 for c in others[:eat]})]
        return [Counter({c: 1 for c in others}) + Counter({double: eat - len(others)}) for double in others]

    def eat(self, a) -> None:
        p, i = a[0], self.at[a]
        here = self.held_in(self.space(i))
        ways = [w for w in self.diets(p) if all(here[c] >= n for c, n in w.items())]
        fed = bool(ways)
        if fed:
            meal = self.rng.choice(ways)
        else:
            self.damage(a, self.v["eat-starve"]["damage"])
            if not self.p["starving_eats"]:
                meal = Counter()
            else:
                meal = Counter({c: min(n, here[c]) for c, n in self.diets(p)[0].items()})
        eaten_to = SUPPLY if self.p["eaten_food"] == "supply" else EATEN
        for c, n in sorted(meal.items()):
            self.take(self.space(i), eaten_to, c, n)
        if fed:  # only once it has eaten enough (seed 002; spieletest.at)
            want = self.v["eat-excrete"]["excrete"]
            got = self.take(SUPPLY, self.space(i), colour(p), want)
            shown = f"excretes {got}" + (f" (food limit: {want - got} missing)" if got < want else "")
        else:
            shown = "excretes nothing"
        self.say(f"{self.name(a)} {'eats' if fed else 'starves, eats'} {sum(meal.values())} on space {i + 1}, {shown}")

    def uv_check(self, p, ozone):
        per = self.v["uv-pay"]["bp"]
        while self.uv(p) > ozone:
            need = math.ceil((self.uv(p) - ozone) / per)
            acts = [("pay-uv", need)] if self.bp(p) >= need else []
            acts += [("give-up", c[2]) for c in self.genes[p]]
            a = yield acts
            if a[0] == "pay-uv":
                self.pay_bp(p, need)
                self.say(f"P{p + 1} pays {need} BP for ultraviolet {self.uv(p)} over {ozone}")
                return
            c = next(c for c in self.genes[p] if c[2] == a[1])
            self.genes[p].remove(c)
            self.display.append(c)
            self.say(f"P{p + 1} gives up gene {c[2] + 1} (ultraviolet {self.uv(p)} against {ozone})")

    def buy(self, p, gid) -> None:
        c = next(c for c in self.display if c[2] == gid)
        self.pay_bp(p, self.p["gene_price"][gid])
        self.display.remove(c)
        self.genes[p].append(c)
        adv = " (advanced)" if gid in self.p["advanced"] else ""
        self.say(f"P{p + 1} buys gene {gid + 1}{adv} for {self.p['gene_price'][gid]} BP")

    def divide(self, p):
        cost = self.v["action-divide"]["cost"]
        spaces = range(len(self.cells))
        if not self.mine(p) and self.has(self.sup(p), (AMOEBA, "")):
            a = yield [("free", i) for i in spaces]
            self.place(p, a[1])
            self.say(f"P{p + 1} had no amoeba on the board: a free one")
        while self.bp(p) >= cost and self.has(self.sup(p), (AMOEBA, "")):
            mine = {self.at[(p, n)] for n in self.mine(p)}
            if len(mine) == 1 and len(self.mine(p)) == 1:
                targets = [i for i in spaces if i not in mine]
            else:
                targets = sorted({j for i in mine for j in self.nb[i].values() if j is not None} - mine)
            if not targets:
                return
            a = yield [("divide", i) for i in targets] + [("done",)]
            if a == ("done",):
                return
            self.pay_bp(p, cost)
            self.say(f"P{p + 1} pays {cost} BP for a division")
            self.place(p, a[1])

    def die(self, a) -> None:
        p, i = a[0], self.at.pop(a)
        self.take("damage", BANK, (DP, self.name(a)), self.damage_of(a), as_=(DP, ""))
        self.take(self.space(i), self.sup(p), (AMOEBA, self.name(a)), as_=(AMOEBA, ""))
        food = self.v["death-natural"]["food"]
        got = sum(self.take(SUPPLY, self.space(i), colour(k), food) for k in range(self.players))
        self.say(f"{self.name(a)} dies on space {i + 1}, leaving {got} food"
                 + (f" (food limit: {food * self.players - got} missing)" if got < food * self.players else ""))

    def advance(self, p, n: int, why: str) -> None:
        """Move the marker n spaces; spaces holding another marker are jumped and not counted."""
        others = {s for q, s in enumerate(self.scores) if q != p}
        pos = self.scores[p]
        for _ in range(n):
            pos += 1
            while pos in others:
                pos += 1
        self.gain_points(p, pos - self.scores[p], why)
