"""Jórvík: the rules the data cannot say, written against the core's primitives.

Every rule here is stated by the sources (content/jorvik, seed 004); every number the rules use
is read from the data (`values:` of setup steps, rules items, cards and scoring items, the feast
table), never typed here. The sources show the individual cards only as pictures, so most card
facts are *parameters* of a simulated game, sampled per seed (docs/engine-jorvik.md lists them):

- `slots`, `upper`: which card spaces (1-6, and 7-12 in the Jarl game) are used per player count
  (gap-card-slots). With 4 players the sources give them (spaces 1-5, 7-11); otherwise the count
  is sampled from players .. players+2 (capped at the 6 spaces of a row; The Speicherstadt's
  players+1 lies inside) and the spaces at random.
- `autumn_jarl_only`, `autumn_removed`, `autumn_removed_jarl`: how many of the 29 autumn cards
  are Jarl-only (6-18, around the 12 of the other seasons) and how many are removed with 2, 3
  and 5 players (0 to a third of the Karl, resp. Jarl-only, autumn cards; none with 4 players,
  as the sources say) (gap-autumn-removal).
- `pict_seasons`, `pict_gain`, `pict_loss`: the season of each of the 3 Pict attack cards among
  the season cards, and the points on all 4 attack cards (1-6 each) (gap-pict-cards). Read: the
  attack cards are not Jarl-only, and no autumn removal list takes one.
- `type_weights`: the mix of card types (gap-card-lists): each card that is not an attack card
  gets a type drawn with these random weights; the Jarl-only types (small ship, god) and the
  brown-viking building (its vikings are only in the Jarl supply) only go to Jarl-only cards.
  Each card's printed values are drawn when the deck is built: warrior defence within the range
  the data gives; small ship 1 or 2 goods; craftsman 1-4 material spaces (Karl cards ask basic
  goods), worth spaces..3×spaces points (the sources' example: 2 spaces, 5 points); trader
  1-3 coins and 0-2 points; journey 1-5 points; god and trader goods at random.
- `feast_beyond`: feast scoring past the table's last row (gap-feast-more): `cap` (stay at the
  last row) or `grow` (the table's step keeps growing by the same amount).
- `brown_discard`: whether the brown-viking card is discarded when its `first` or its `last`
  brown viking is used (gap-brown-card).

Readings and abstractions (kept simple, listed in docs/engine-jorvik.md): the final attack card is
revealed only when it is the last card at the start of a supply phase, so a deck that reaches it
mid-phase leaves spaces empty; the "at any time" once-only cards (rework, fetch a good, theft) are
used during their owner's own unloading; goods stored earlier join the goods to distribute and
return to storage if nothing else was done with them; the champion guard doubles the strongest
warrior; the Loki swap exchanges two vikings on interest trails; an empty bag yields nothing
(gap-empty-bag).
"""

from __future__ import annotations

import random
from collections import Counter

from ...model import Game
from ..setup import BOX, SetupResult, applies
from ..state import State, values

CARD = "card"
DECK = "draw-pile"
BAG = "bag-zone"
SUPPLY = "general-supply"
COMMON = "common-goods"  # the common goods area of the board (a module zone)
FINAL = "card-pict-final"
ATTACK = "card-pict-attack"
OWN, BROWN = ("viking", "viking-player"), ("viking", "viking-brown")
COIN = ("coin", "")
# types a Karl card may not have: Jarl-only by the data (modes: [jarl]) or by the supply they need
BROWN_CARD = "card-building-brown"
FORCED_MAX = 1000  # forced moves folded into one step: a bound, far above any real sequence


def _card_types(game: Game) -> tuple[list[str], set[str]]:
    """The card ids a season card can be (attack cards apart) and those only Jarl-only cards are."""
    types, jarl = [], set()
    for group in game.cards:
        for c in group.cards:
            if c.id in (ATTACK, FINAL):
                continue
            types.append(c.id)
            if c.modes == ["jarl"]:
                jarl.add(c.id)
    if any(s.component == "viking" and s.kind == "viking-brown" and s.modes == ["jarl"] for s in game.setup):
        jarl.add(BROWN_CARD)
    return types, jarl


def _seasons(game: Game) -> list[str]:
    """The season kinds of the card component, in the order setup stacks them (bottom first)."""
    seen = []
    for s in game.setup:
        if s.component == CARD and s.kind and s.to == DECK and s.kind not in seen:
            seen.append(s.kind)
    return [k for k in seen if k != _final_kind(game)]


def _final_kind(game: Game) -> str:
    return next(c.kind for g in game.cards for c in g.cards if c.id == FINAL)


def _karl_count(game: Game, kind: str) -> int | None:
    step = next((s for s in game.setup if s.component == CARD and s.kind == kind and applies(s, "karl")
                 and isinstance(s.count, int)), None)
    return step.count if step else None


def parameters(game: Game, rng: random.Random) -> dict:
    v = values(game)
    spaces = v["demand-order"]["spaces"]
    known_p = v["supply-slots"]["players"]
    slots, upper = {}, {}
    for p in range(game.players.min, game.players.max + 1):
        for out, known in ((slots, v["supply-slots"]["four"]), (upper, v["supply-jarl-row"]["four"])):
            if p == known_p:
                out[p] = list(range(1, known + 1))
            else:
                n = rng.randint(min(p, spaces), min(p + 2, spaces))
                out[p] = sorted(rng.sample(range(1, spaces + 1), n))
    autumn = _seasons(game)[0]
    total = next(k.count for c in game.components if c.id == CARD for k in c.kinds if k.id == autumn)
    jarl_only = rng.randint(6, 18)
    none_at = v["setup-deck-players"]["players_none"]
    counts = [p for p in range(game.players.min, game.players.max + 1) if p != none_at]
    types, _jarl = _card_types(game)
    attacks = next(c.count for g in game.cards for c in g.cards if c.id == ATTACK)
    return {
        "slots": slots,
        "upper": upper,
        "autumn_jarl_only": jarl_only,
        "autumn_removed": {p: (rng.randint(0, (total - jarl_only) // 3) if p in counts else 0) for p in slots},
        "autumn_removed_jarl": {p: (rng.randint(0, jarl_only // 3) if p in counts else 0) for p in slots},
        "pict_seasons": [rng.choice(_seasons(game)) for _ in range(attacks)],
        "pict_gain": [rng.randint(1, 6) for _ in range(attacks + 1)],
        "pict_loss": [rng.randint(1, 6) for _ in range(attacks + 1)],
        "type_weights": {t: round(rng.gammavariate(2.0, 1.0), 2) for t in types},
        "feast_beyond": rng.choice(["cap", "grow"]),
        "brown_discard": rng.choice(["first", "last"]),
    }


def kind_counts(game: Game, params: dict):
    return None  # the card kinds (seasons) and goods kinds are all counted in the data


def new_state(game: Game, setup: SetupResult, seed: int, box: Counter, endless: set[str], params: dict) -> Jorvik:
    return Jorvik(game, setup, seed, box, endless, params)


class Jorvik(State):
    score_zone = "score-track"

    def __init__(self, game, setup, seed, box, endless, params):
        super().__init__(game, setup, seed, box, endless, params)
        v = self.v
        self.jarl = self.mode == "jarl"
        n = self.players
        self.row = v["demand-order"]["spaces"]
        self.lower = list(params["slots"][n])
        self.upper = [self.row + s for s in params["upper"][n]] if self.jarl else []
        self.trail_max = v["demand-full"]["max"]
        comp = {c.id: c for c in game.components}
        goods = comp["goods"]
        karl_goods = next(s for s in game.setup if s.component == "goods" and s.kinds and applies(s, "karl"))
        self.basic = sorted(karl_goods.kinds)
        self.all_goods = [k.id for k in goods.kinds]
        self.info: dict[int, dict] = {}
        self.build_deck()
        self.pile_of(BAG)
        self.scores = [v["setup-score-markers"]["space"]] * n
        self.space: dict[int, tuple] = {}  # card space -> card
        self.trails: dict[int, list] = {}  # lower space -> [(viking piece, owner)], top first
        self.reserve: list = []  # [(card, owner, viking piece)], leftmost first
        self.cargo: dict[int, list] = {}  # card serial -> goods on a ship
        self.materials: dict[int, list] = {}  # craftsman serial -> goods on its material spaces (None: empty)
        self.pool: list = []  # (goods piece, stored before?) being distributed by the unloading player
        self.start = 0
        self.queue: list = []  # decisions to take before the flow goes on: (player, what, data)
        self.after_queue = None
        self._legal = None
        self.over = False
        self.round_start()

    # ----- the deck
    def build_deck(self) -> None:
        g, p = self.game, self.p
        final_kind = _final_kind(g)
        types, jarl_types = _card_types(g)
        karl_types = [t for t in types if t not in jarl_types]
        w = p["type_weights"]
        seasons = _seasons(g)
        autumn = seasons[0]
        stack = []
        have = self.counts.get(DECK, Counter())
        for _ in range(have[(CARD, final_kind)]):
            stack.append(self.new_card(final_kind, FINAL, False, attack=len(p["pict_seasons"])))
        have.pop((CARD, final_kind), None)
        attack_no = 0
        for kind in seasons:
            n = have[(CARD, kind)]
            karl = n - p["autumn_jarl_only"] if kind == autumn else _karl_count(g, kind)
            karl = max(0, min(n if karl is None else karl, n))
            jarl_only = n - karl if self.jarl else 0
            out = n - karl - jarl_only  # Karl game: the Jarl-only autumn cards leave the deck
            if kind == autumn:
                rem, rem_j = p["autumn_removed"][self.players], p["autumn_removed_jarl"][self.players] if self.jarl else 0
                karl, jarl_only, out = karl - rem, jarl_only - rem_j, out + rem + rem_j
            if out:
                self.take(DECK, BOX, (CARD, kind), out)
                self.say(f"{out} {kind} cards go back to the box (Jarl-only or removed for {self.players} players)")
            season = []
            for _ in range(p["pict_seasons"].count(kind)):
                season.append(self.new_card(kind, ATTACK, False, attack=attack_no))
                attack_no += 1
            picts = len(season)
            for i in range(karl + jarl_only - picts):
                is_jarl = i >= karl - picts
                pick = types if is_jarl else karl_types
                t = self.rng.choices(pick, [w[x] for x in pick])[0]
                season.append(self.new_card(kind, t, is_jarl))
            self.rng.shuffle(season)
            stack += season
            have.pop((CARD, kind), None)
        self.counts.pop(DECK, None)
        self.piles[DECK] = stack
        made = Counter(self.info[c[3]]["type"] for c in stack if len(c) > 3)
        self.say("deck: " + ", ".join(f"{t} {k}" for t, k in sorted(made.items())))

    def new_card(self, kind: str, cid: str, jarl_only: bool, attack: int | None = None) -> tuple:
        serial = len(self.info)
        rng, v = self.rng, self.v
        goods = self.all_goods if jarl_only else self.basic
        info: dict = {"type": cid}
        if cid in (ATTACK, FINAL):
            info.update(gain=self.p["pict_gain"][attack], loss=self.p["pict_loss"][attack])
        elif cid == "card-warrior":
            info["defence"] = rng.randint(v[cid]["min"], v[cid]["max"])
        elif cid == "card-ship":
            info["goods"] = v[cid]["goods"]
        elif cid == "card-ship-small":
            info["goods"] = rng.choice([1, v[cid]["two"]])
        elif cid == "card-craftsman":
            k = rng.randint(1, 4)
            info.update(needs=[rng.choice(goods) for _ in range(k)], points=rng.randint(k, 3 * k))
        elif cid == "card-trader":
            info.update(good=rng.choice(goods), coins=rng.randint(1, 3), points=rng.randint(0, 2))
        elif cid == "card-journey":
            info["points"] = rng.randint(1, 5)
        elif cid == "card-god":
            info["good"] = rng.choice(goods)
        self.info[serial] = info
        return (CARD, kind, cid, serial)

    # ----- zones the module keeps itself
    def extra_zones(self):
        return {
            "card-spaces": list(self.space.values()),
            "interest-trails": [vk for t in self.trails.values() for vk, _o in t],
            "reserve-row": [x for c, _o, vk in self.reserve for x in (c, vk)],
            "ship-cargo": [g for gs in self.cargo.values() for g in gs],
            "material-spaces": [g for gs in self.materials.values() for g in gs],
            "distributing": [g for g, _s in self.pool],
        }

    # ----- helpers
    def sup(self, p: int) -> str:
        return f"player-supply#{p + 1}"

    def purse(self, p: int) -> str:
        """A player's coins lie in front of them (seed l.55, 69), not in the viking supply."""
        return f"player-area#{p + 1}"

    def coins(self, p: int) -> int:
        return self.has(self.purse(p), COIN)

    def earn(self, p: int, n: int, why: str) -> None:
        """Coins are unlimited: what the supply lacks is made up (the rules' stand-in)."""
        got = self.take(SUPPLY, self.purse(p), COIN, min(n, self.has(SUPPLY, COIN)))
        self.add(self.purse(p), COIN, n - got)
        self.say(f"P{p + 1} takes {n} coin{'s' if n != 1 else ''} ({why})")

    def pay(self, p: int, n: int, to: int | None = None) -> None:
        self.take(self.purse(p), self.purse(to) if to is not None else SUPPLY, COIN, n)

    def cards(self, p: int) -> list:
        return self.pile(f"cards#{p + 1}")

    def unloading(self, p: int) -> list:
        return self.pile(f"unloading#{p + 1}")

    def owned(self, p: int, cid: str, also_unloading: bool = False) -> list:
        out = [c for c in self.look(f"cards#{p + 1}") if c[2] == cid]
        if also_unloading:
            out += [c for c in self.look(f"unloading#{p + 1}") if c[2] == cid]
        return out

    def to_box(self, card: tuple) -> None:
        """A card goes back to the box; goods on it go to the common goods area."""
        for g in self.cargo.pop(card[3], []):
            self.count(COMMON)[g] += 1
        for g in self.materials.pop(card[3], []):
            if g:
                self.count(COMMON)[g] += 1
        self.count(BOX)[card[:2]] += 1

    def discard_owned(self, p: int, card: tuple) -> None:
        for where in (self.cards(p), self.unloading(p)):
            if card in where:
                where.remove(card)
                self.to_box(card)
                return

    def name(self, card: tuple) -> str:
        i = self.info.get(card[3]) if len(card) > 3 else None
        if not i:
            return card[2] if len(card) > 2 else card[1]
        extra = {k: x for k, x in i.items() if k != "type"}
        return card[2][len("card-"):] + (f" {extra}" if extra else "")

    def viking_home(self, vk: tuple, owner: int) -> None:
        """A viking leaves a trail or the reserve row: home, or to the box if brown (used)."""
        if vk == BROWN:
            self.add(BOX, BROWN)
            brown = self.owned(owner, BROWN_CARD, True)
            left = self.has(f"brown-card#{owner + 1}", BROWN)
            out = sum(1 for t in self.trails.values() for vk2, o in t if vk2 == BROWN and o == owner)
            out += sum(1 for _c, o, vk2 in self.reserve if vk2 == BROWN and o == owner)
            if brown and (self.p["brown_discard"] == "first" or not (left or out)):
                rest = self.take(f"brown-card#{owner + 1}", BOX, BROWN, left)
                self.discard_owned(owner, brown[0])
                self.say(f"P{owner + 1}'s brown-viking card is discarded" + (f" with {rest} unused" if rest else ""))
        else:
            self.add(self.sup(owner), vk)

    # ----- round flow
    def round_start(self) -> None:
        self.round += 1
        deck = self.pile(DECK)
        self.say(f"round {self.round} begins; start player P{self.start + 1}; {len(deck)} cards in the deck")
        if len(deck) == 1 and deck[0][2] == FINAL:
            card = self.draw(DECK)
            self.say("only the final Attack of the Picts is left: it is resolved, then the game ends")
            self.attack(card)
            self.then(self.final_scoring)
            return
        self.to_fill = self.lower + self.upper
        self.continue_supply()

    def then(self, step) -> None:
        """Run `step` now, or once the queued decisions are taken."""
        if self.queue:
            self.after_queue = step
            self.phase = "decide"
        else:
            step()

    def continue_supply(self) -> None:
        while self.to_fill:
            deck = self.pile(DECK)
            if len(deck) == 1 and deck[0][2] == FINAL:
                self.say(f"only the final attack is left in the deck: spaces {self.to_fill} stay empty this round")
                break
            card = self.draw(DECK)
            if card is None:
                break
            if card[2] == ATTACK:
                self.attack(card)
                if self.queue:
                    self.then(self.continue_supply)
                    return
                continue
            space = self.to_fill.pop(0)
            self.space[space] = card
            self.say(f"space {space}: {self.name(card)}")
            if card[2] in ("card-ship", "card-ship-small"):
                load = [g for g in (self.draw(BAG, at_random=True) for _ in range(self.info[card[3]]["goods"])) if g]
                self.cargo[card[3]] = load
                self.say(f"  the ship takes {', '.join(g[1][6:] for g in load) or 'nothing'} from the bag")
        self.to_fill = []
        self.demand_start()

    def defence(self, p: int) -> int:
        ws = sorted((self.info[c[3]]["defence"] for c in self.look(f"cards#{p + 1}") if c[2] == "card-warrior"), reverse=True)
        champions = len(self.owned(p, "card-guard-champion"))
        return sum(ws) + sum(ws[:champions])

    def attack(self, card: tuple) -> None:
        i = self.info[card[3]]
        d = [self.defence(p) for p in range(self.players)]
        self.say(f"Attack of the Picts (+{i['gain']}/-{i['loss']}): defence {d}")
        self.to_box(card)
        if len(set(d)) == 1:
            self.say("all defences are equal: nobody gains or loses points")
            return
        for p in range(self.players):
            if d[p] == max(d):
                self.gain_points(p, i["gain"], "repels the Picts")
                if self.owned(p, "card-guard-glory"):
                    self.queue.append((p, "glory", i["gain"]))
            elif d[p] == min(d):
                if self.owned(p, "card-guard-ransom") and self.coins(p) >= self.v["card-guard-ransom"]["coins"]:
                    self.queue.append((p, "ransom", i["loss"]))
                else:
                    self.gain_points(p, -i["loss"], "the Picts' attack")

    # ----- demand
    def demand_start(self) -> None:
        self.trails = {s: [] for s in self.lower if s in self.space}
        self.phase = "demand"
        self.current = self.start
        if not self.placements(self.current):
            self.next_placer()

    def placements(self, p: int) -> list:
        kinds = [vk for vk, z in ((OWN, self.sup(p)), (BROWN, f"brown-card#{p + 1}")) if self.has(z, vk)]
        acts = [("trail", s, vk) for s, t in self.trails.items() if len(t) < self.trail_max for vk in kinds]
        acts += [("reserve", s, vk) for s in self.upper if s in self.space for vk in kinds]
        return acts

    def next_placer(self) -> None:
        for k in range(1, self.players + 1):
            p = (self.current + k) % self.players
            if self.placements(p):
                self.current = p
                return
        self.demand_end()

    def do_place(self, p: int, how: str, s: int, vk: tuple) -> None:
        self.turn += 1
        src = self.sup(p) if vk == OWN else f"brown-card#{p + 1}"
        self.remove(src, vk)  # into a trail or the reserve row: the module's own places
        if how == "trail":
            self.trails[s].append((vk, p))
            self.say(f"P{p + 1} queues a {vk[1]} for space {s} (place {len(self.trails[s])})")
        else:
            card = self.space.pop(s)
            self.reserve.append((card, p, vk))
            self.say(f"P{p + 1} reserves space {s} ({self.name(card)})")
        self.next_placer()

    def demand_end(self) -> None:
        for k in range(self.players):
            p = (self.start + k) % self.players
            for c in self.owned(p, "card-loki-swap"):
                self.queue.append((p, "loki", c))
        self.then(self.cleanup)

    def cleanup(self) -> None:
        for s in sorted(self.space):
            if s in self.upper or not self.trails.get(s):
                card = self.space.pop(s)
                self.to_box(card)
                self.trails.pop(s, None)
                self.say(f"nobody wants space {s}: {self.name(card)} goes back to the box")
        self.buy_next()

    # ----- buy
    def buy_next(self) -> None:
        self.phase = "buy"
        if self.space:
            s = min(self.space)
            self.current = self.trails[s][0][1]
            return
        if self.reserve:
            self.phase = "reserve"
            self.current = self.reserve[0][1]
            return
        self.unload_start()

    def bought(self, p: int, card: tuple, price: int, free: bool) -> None:
        if free:
            c = self.owned(p, "card-building-free", True)[0]
            self.discard_owned(p, c)
            self.say(f"P{p + 1} returns the free-purchase card and takes {self.name(card)} for nothing")
        else:
            self.pay(p, price)
            self.say(f"P{p + 1} buys {self.name(card)} for {price}")
        t = card[2]
        self.unloading(p).append(card)
        if t == "card-building-coins":
            self.earn(p, self.v[t]["coins"], "instant money")
        elif t == "card-loki-tribute":
            for o in range(self.players):
                if o != p:
                    n = min(self.coins(o), self.v[t]["coins"])
                    self.pay(o, n, to=p)
                    self.say(f"P{o + 1} pays P{p + 1} {n} (Loki's tribute)")
        elif t == BROWN_CARD:
            got = self.take(SUPPLY, f"brown-card#{p + 1}", BROWN, self.v[t]["vikings"])
            self.say(f"P{p + 1} puts {got} brown viking{'s' if got != 1 else ''} on the card")

    def do_buy(self, p: int, act: str) -> None:
        s = min(self.space)
        trail = self.trails[s]
        if act == "pass":
            vk, o = trail.pop(0)
            self.viking_home(vk, o)
            self.say(f"P{p + 1} passes on space {s}")
            if trail:
                self.current = trail[0][1]
                return
            self.to_box(self.space.pop(s))
            self.say(f"nobody buys space {s}: the card goes back to the box")
        else:
            card = self.space.pop(s)
            self.bought(p, card, len(trail), act == "free")
            back = list(trail)
            trail.clear()
            for vk, o in back:
                self.viking_home(vk, o)
        del self.trails[s]
        self.buy_next()

    def do_reserve(self, p: int, act: str) -> None:
        card, o, vk = self.reserve[0]
        price = len(self.reserve)
        self.reserve.pop(0)
        if act == "return":
            self.to_box(card)
            self.say(f"P{p + 1} returns the reserved {self.name(card)} to the box")
        else:
            self.bought(p, card, price, act == "free")
        self.viking_home(vk, o)
        self.buy_next()

    # ----- unloading
    def unload_start(self) -> None:
        self.unloaders = [(self.start + k) % self.players for k in range(self.players)]
        self.unload_next()

    def unload_next(self) -> None:
        if not self.unloaders:
            self.start = (self.start + 1) % self.players
            self.say(f"the start player marker passes to P{self.start + 1}")
            self.round_start()
            return
        p = self.current = self.unloaders.pop(0)
        v = self.v
        inc = v["unload-income-jarl"] if self.jarl else v["unload-income"]
        area = self.unloading(p)
        n = inc["income"] if area else inc["idle"]
        n += len(self.owned(p, "card-building-income", True)) * v["card-building-income"]["coins"]
        self.earn(p, n, "income")
        for c in [c for c in area if c[2] not in ("card-ship", "card-ship-small")]:
            area.remove(c)
            if c[2] in ("card-building-coins", "card-loki-tribute"):
                self.to_box(c)
            else:
                self.cards(p).append(c)
        for c in area:
            self.pool += [(g, False) for g in self.cargo.pop(c[3], [])]
        for z in (f"storage#{p + 1}", f"warehouse#{p + 1}"):
            for g, k in sorted(self.counts.pop(z, Counter()).items()):
                self.pool += [(g, True)] * k
        self.giving = None
        self.phase = "unload"
        self.say(f"P{p + 1} distributes {', '.join(g[1][6:] for g, _s in self.pool) or 'no goods'}")

    def pool_kinds(self) -> list[str]:
        return sorted({g[1] for g, _s in self.pool})

    def pool_take(self, kind: str) -> tuple:
        """Take a good of this kind out of the goods being distributed (ship goods first)."""
        i = min((i for i, (g, _s) in enumerate(self.pool) if g[1] == kind), key=lambda i: self.pool[i][1])
        return self.pool.pop(i)[0]

    def storage_room(self, p: int) -> dict[str, int]:
        v = self.v
        room = {"storage": v["goods-storage"]["board"] - sum(self.held_in(f"storage#{p + 1}").values()),
                "warehouse": len(self.owned(p, "card-building-warehouse")) * v["card-building-warehouse"]["spaces"]
                - sum(self.held_in(f"warehouse#{p + 1}").values())}
        return {k: n for k, n in room.items() if n > 0}

    def unload_actions(self, p: int) -> list:
        v = self.v
        if self.giving:
            if self.giving[0]:
                return [("give", k) for k in self.pool_kinds()]
            return [("take", k[1]) for k in sorted(self.held_in(COMMON)) if self.held_in(COMMON)[k] > 0]
        kinds = self.pool_kinds()
        acts: list = [("done",)]
        mine = self.look(f"cards#{p + 1}")
        for c in mine:
            i = self.info.get(c[3], {})
            if c[2] == "card-craftsman":
                mats = self.materials.setdefault(c[3], [None] * len(i["needs"]))
                acts += [("slot", k, c[3], j) for j, k in enumerate(i["needs"]) if mats[j] is None and k in kinds]
            elif c[2] == "card-trader" and i["good"] in kinds:
                acts.append(("sell", i["good"], c[3]))
            elif c[2] == "card-god" and self.jarl and i["good"] in kinds and ("offer", i["good"]) not in acts:
                acts.append(("offer", i["good"]))
            elif c[2] == "card-building-market" and any(self.held_in(COMMON).values()):
                acts.append(("market", c[3]))
            elif c[2] == "card-building-rework":
                acts += [("rework", c[3], c2[3]) for c2 in self.owned(p, "card-craftsman") if any(self.materials.get(c2[3], []))]
            elif c[2] == "card-loki-steal":
                for o in range(self.players):
                    if o == p:
                        continue
                    for c2 in self.owned(o, "card-craftsman"):
                        mats = self.materials.get(c2[3], [])
                        if any(mats) and None in mats:
                            acts += [("steal", c[3], c2[3], j) for j, g in enumerate(mats) if g]
        if kinds:
            acts += [("store", k, z) for z in self.storage_room(p) for k in kinds]
        if len(self.pool) >= v["goods-trade"]["give"]:
            acts.append(("trade3",))
        if len(self.pool) >= v["goods-sell"]["give"]:
            acts.append(("sell2",))
        if self.owned(p, "card-building-exchange") and len(self.pool) >= v["card-building-exchange"]["give"]:
            acts.append(("exchange",))
        return acts

    def do_unload(self, p: int, act: tuple) -> None:
        v, kind = self.v, act[0]
        if kind == "give":
            self.count(COMMON)[self.pool_take(act[1])] += 1
            n, then = self.giving
            self.giving = (n - 1, then)
            if n == 1 and then == "coin":
                self.giving = None
                self.earn(p, 1, "two goods for a coin")
            return
        if kind == "take":
            self.giving = None
            g = ("goods", act[1])
            common = self.count(COMMON)
            common[g] -= 1
            if not common[g]:
                del common[g]
            self.pool.append((g, False))
            self.say(f"P{p + 1} takes {act[1][6:]} from the common goods")
            return
        if kind == "done":
            back = 0
            for g, stored in self.pool:
                room = self.storage_room(p)
                if stored and room:
                    self.count(f"{next(iter(room))}#{p + 1}")[g] += 1
                else:
                    self.count(COMMON)[g] += 1
                    back += 1
            self.pool = []
            area = self.unloading(p)
            self.cards(p).extend(area)
            area.clear()
            self.say(f"P{p + 1} is done unloading" + (f"; {back} goods go to the common goods area" if back else ""))
            self.unload_next()
            return
        if kind == "slot":
            _k, good, serial, j = act
            self.materials[serial][j] = self.pool_take(good)
            self.say(f"P{p + 1} puts {good[6:]} on a craftsman")
        elif kind == "sell":
            self.count(COMMON)[self.pool_take(act[1])] += 1
            self.earn(p, self.info[act[2]]["coins"], f"sells {act[1][6:]} to a trader")
        elif kind == "offer":
            self.count(COMMON)[self.pool_take(act[1])] += 1
            self.gain_points(p, v["goods-offering"]["points"], f"offers {act[1][6:]} to a god")
        elif kind == "store":
            self.count(f"{act[2]}#{p + 1}")[self.pool_take(act[1])] += 1
            self.say(f"P{p + 1} stores {act[1][6:]} ({act[2]})")
        elif kind in ("trade3", "sell2", "exchange"):
            n = v["goods-trade" if kind == "trade3" else "goods-sell" if kind == "sell2" else "card-building-exchange"]["give"]
            self.giving = (n, "coin" if kind == "sell2" else "take")
            self.say(f"P{p + 1} gives {n} goods ({kind})")
        elif kind == "market":
            self.discard_owned(p, next(c for c in self.look(f"cards#{p + 1}") if c[3] == act[1]))
            self.giving = (0, "take")
        elif kind == "rework":
            self.discard_owned(p, next(c for c in self.look(f"cards#{p + 1}") if c[3] == act[1]))
            mats = self.materials[act[2]]
            taken = [j for j, g in enumerate(mats) if g][:v["card-building-rework"]["goods"]]
            for j in taken:
                self.pool.append((mats[j], False))
                mats[j] = None
            self.say(f"P{p + 1} takes {len(taken)} goods back from a craftsman")
        elif kind == "steal":
            self.discard_owned(p, next(c for c in self.look(f"cards#{p + 1}") if c[3] == act[1]))
            mats = self.materials[act[2]]
            self.pool.append((mats[act[3]], False))
            self.say(f"P{p + 1} steals {mats[act[3]][1][6:]} from an opponent's craftsman")
            mats[act[3]] = None

    # ----- decisions queued by attacks and the end of the demand phase
    def decide_actions(self) -> list:
        what = self.queue[0][1]
        if what == "loki":
            spots = [(s, i) for s, t in self.trails.items() for i in range(len(t))]
            acts = [("keep",)]
            for a in range(len(spots)):
                for b in range(a + 1, len(spots)):
                    (sa, ia), (sb, ib) = spots[a], spots[b]
                    if self.trails[sa][ia] != self.trails[sb][ib]:
                        acts.append(("swap", spots[a], spots[b]))
            return acts
        return [("yes",), ("no",)]

    def do_decide(self, act: tuple) -> None:
        p, what, data = self.queue.pop(0)
        if what == "glory" and act == ("yes",):
            self.discard_owned(p, self.owned(p, "card-guard-glory")[0])
            self.gain_points(p, data, "glory guard doubles the attack's points")
        elif what == "ransom":
            if act == ("yes",):
                self.pay(p, self.v["card-guard-ransom"]["coins"])
                self.say(f"P{p + 1} pays the ransom and loses no points")
            else:
                self.gain_points(p, -data, "the Picts' attack")
        elif what == "loki" and act[0] == "swap":
            (sa, ia), (sb, ib) = act[1], act[2]
            ta, tb = self.trails[sa], self.trails[sb]
            ta[ia], tb[ib] = tb[ib], ta[ia]
            self.discard_owned(p, data)
            self.say(f"P{p + 1} uses Loki to swap place {ia + 1} of space {sa} with place {ib + 1} of space {sb}")
        if not self.queue:
            step, self.after_queue = self.after_queue, None
            step()

    # ----- the interface
    def legal_actions(self) -> list:
        if self._legal is None:
            self._legal = self._actions()
        return self._legal

    def _actions(self) -> list:
        if self.over:
            return []
        ph, p = self.phase, self.current
        if ph == "decide":
            return self.decide_actions()
        if ph == "demand":
            return self.placements(p)
        if ph in ("buy", "reserve"):
            price = len(self.trails[min(self.space)]) if ph == "buy" else len(self.reserve)
            acts = [("pass",) if ph == "buy" else ("return",)]
            if self.coins(p) >= price:
                acts.append(("buy",))
            if self.owned(p, "card-building-free", True):
                acts.append(("free",))
            return acts
        if ph == "unload":
            return self.unload_actions(p)
        return []

    def apply(self, action) -> None:
        """Apply a legal action (an illegal one is logged and ignored), then every move that is
        forced (the only legal one: a pass that cannot be a buy, "done" with nothing to distribute)
        within the same step."""
        if action not in self.legal_actions():
            self.say(f"illegal action {action!r} ignored")
            return
        self._apply(action)
        for _ in range(FORCED_MAX):
            acts = self.legal_actions()
            if len(acts) != 1:
                break
            self._apply(acts[0])

    def _apply(self, action) -> None:
        self._legal = None
        ph, p = self.phase, self.current
        if ph == "decide":
            self.do_decide(action)
        elif ph == "demand":
            self.do_place(p, *action)
        elif ph == "buy":
            self.do_buy(p, action[0])
        elif ph == "reserve":
            self.do_reserve(p, action[0])
        else:
            self.do_unload(p, action)

    def is_over(self) -> bool:
        return self.over

    # ----- the end
    def feast_points(self, n: int) -> int:
        table = next(t for t in self.game.scoring.tables if t.id == "table-feasts")
        for r in table.ranges:
            if r.min <= n and (r.max is None or n <= r.max):
                return r.points
        if n < table.domain_min:
            return 0
        pts = [r.points for r in table.ranges]
        last = pts[-1]
        if self.p["feast_beyond"] == "cap" or len(pts) < 3:
            return last
        step, grow = pts[-1] - pts[-2], (pts[-1] - pts[-2]) - (pts[-2] - pts[-3])
        for _ in range(n - table.domain_max):
            step += grow
            last += step
        return last

    def final_scoring(self) -> None:
        v = self.v
        for k in range(self.players):
            p = (self.start + k) % self.players
            mine = self.look(f"cards#{p + 1}") + self.look(f"unloading#{p + 1}")
            of = Counter(c[2] for c in mine)
            info = [self.info.get(c[3], {}) if len(c) > 3 else {} for c in mine]
            crafts = [(c, i) for c, i in zip(mine, info) if c[2] == "card-craftsman"]
            done = sum(i["points"] for c, i in crafts if all(self.materials.get(c[3], [None])))
            self.gain_points(p, done, "completed craftsmen")
            self.gain_points(p, sum(i["points"] for c, i in zip(mine, info) if c[2] == "card-trader"), "traders")
            if of["card-feast"]:
                self.gain_points(p, self.feast_points(of["card-feast"]), f"{of['card-feast']} feasts")
            journeys = sorted((i["points"] for c, i in zip(mine, info) if c[2] == "card-journey"), reverse=True)
            self.gain_points(p, sum(journeys) + sum(journeys[:of["card-bard-double"]]), "journeys")
            ships = of["card-ship"] + of["card-ship-small"]
            bard = (of["card-bard-coins"] * v["card-bard-coins"]["points"] * self.coins(p)
                    + of["card-bard-ships"] * v["card-bard-ships"]["points"] * ships
                    + of["card-bard-traders"] * v["card-bard-traders"]["points"] * of["card-trader"]
                    + of["card-bard-warriors"] * v["card-bard-warriors"]["points"] * of["card-warrior"]
                    + of["card-bard-craftsmen"] * v["card-bard-craftsmen"]["points"] * of["card-craftsman"]
                    + of["card-bard-journeys"] * v["card-bard-journeys"]["points"] * of["card-journey"])
            self.gain_points(p, bard, "bards")
            stored = sum(self.held_in(f"warehouse#{p + 1}").values())
            self.gain_points(p, stored * v["card-building-warehouse"]["points"], "goods in the warehouse")
        self.say("final scores: " + " ".join(f"P{i + 1}={s}" for i, s in enumerate(self.scores)))
        self.over = True
