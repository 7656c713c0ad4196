"""Benchmark: simulated games per second, and the engine against a hand-written yardstick.

Prints, for every game with an engine module, full simulated games per second per player count
and mode (random play, invariants after every step; the median of --runs runs), and the ratio
of the engine to a yardstick: `yardstick_game`, a minimal hand-written loop of the same Ulm
basic game the engine's Ulm module plays (its docstring says exactly what it plays and leaves
out; tests/test_engine.py checks it still takes as many decisions per game as the engine),
measured in the same run, alternating with the engine, --runs times; the median ratio is the
figure (the machine may be shared and noisy). The goal: the engine within 5x of it.
Parsing against validation is bench/parse.py's. Figures go to docs/performance.md.

    .venv/bin/python bench/validate.py [--games N] [--runs R] [--content DIR] [--only ulm]
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.engine.games import module_for  # noqa: E402
from generator.engine.play import play  # noqa: E402
from generator.engine.setup import player_counts  # noqa: E402
from generator.project import read_project  # noqa: E402


QUARTERS = ("tillage", "leaning-house", "garden", "town-hall", "shipyard", "reichenauer-hof",
            "goose-tower", "oath-house")
TILLAGE, LEANING, GARDEN, TOWN_HALL, SHIPYARD, HOF, GOOSE, OATH = range(8)
MONEY, CLEAR, CARD, RIVER, SEAL = range(5)  # the five action-tile colours
CATHEDRAL, TRADE, CHRONICLE = range(3)  # a card is (kind, part or good, colours or colour) or (CHRONICLE, id)
CHRONICLES = ("first", "city-wall", "freeze", "jousting", "patrician", "reformation", "siege", "swabian", "sparrow")
DESCENDANTS = ("abbot", "builder", "scholar", "merchant", "mint-master", "councilman", "city-guard", "barge-driver")


def _lanes():
    out = []
    for side in range(4):
        for lane in range(3):
            cells = ([lane, 3 + lane, 6 + lane], [lane * 3 + 2, lane * 3 + 1, lane * 3],
                     [6 + lane, 3 + lane, lane], [lane * 3, lane * 3 + 1, lane * 3 + 2])[side]
            out.append((cells, ((side + 2) % 4) * 3 + lane))
    return out


LANES = _lanes()
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def yardstick_numbers(game) -> dict:
    """The rule numbers the yardstick uses, read once from the data (outside the timed loop),
    the same `values:` the engine's Ulm module reads."""
    from generator.engine.state import values
    v = values(game)
    comp = {c.id: c for c in game.components}
    per = {s.id: s.per_player for s in game.setup if s.per_player}
    return {
        "rounds": game.rounds.count, "tiles": comp["action-tile"].count, "cards": comp["card"].count,
        "chronicles": next(k.count for k in comp["card"].kinds if k.id == "card-chronicle"),
        "coats": comp["coat-of-arms"].count, "coins": comp["coin"].count, "sparrows": comp["sparrow"].count,
        "seals": per["setup-player-seals"] - per["setup-score-marker"], "shields": per["setup-player-shields"],
        "start_coins": per["setup-player-coins"], "start_sparrows": per["setup-player-sparrows"], "start": v["setup-score-marker"]["space"],
        "display": next(s.count for s in game.setup if s.id == "setup-descendants"),
        "money": v["action-money"]["coins"], "mint": v["desc-mint-master"]["coins"],
        "buy_tiles": v["action-card"]["tiles"], "look": v["action-card"]["look"],
        "river": v["action-river"]["steps"], "seal_cost": v["action-seal"]["cost"],
        "builder": v["desc-builder"]["draw"], "guard": v["desc-city-guard"]["points"],
        "tillage_coins": v["quarter-tillage"]["coins"], "tillage_steps": v["quarter-tillage"]["max_steps"],
        "hall_coins": v["quarter-town-hall"]["coins"], "hof": v["quarter-reichenauer-hof"]["points"],
        "goose": v["quarter-goose-tower"]["draw"], "coat_draw": v["quarter-leaning-house-garden"]["draw"],
        "f_sparrows": v["score-final-sparrows"]["points"], "f_river": v["score-final-river"]["points"],
        "f_card": v["score-final-cards"]["card"],
    }


def yardstick_game(players: int, rng: random.Random, n: dict) -> int:
    """Ulm's basic game as a minimal hand-written loop: the yardstick of the engine's speed.

    It plays what `generator/engine/games/ulm.py` plays in the basic mode, with the same random
    policy (one of the legal choices, uniformly): the same sampled unknowns per game (tile
    colours, cathedral/trade cards, gold coats and their points, bonus, quarter and cathedral-edge
    position, river length and bridge, the quarters beside each river space, quarter capacities);
    a setup with the data's numbers (grid 2 of each colour but 1 card, docks 1 of each, the rest in the bag, 1 tile each, coins, sparrows, seals,
    shields, 4 of 8 descendants shown, chronicles + cathedral/trade cards shuffled, coats of arms
    shuffled); and every turn: blocked grid emptied into the bag, draw 1 (Builder: 2, keep 1),
    keep / spend a sparrow to swap with a dock / Scholar, push into an open lane (coat-of-arms
    marks pay a sparrow, City Guard scores 3 in a line), the 3 activated tiles in any order —
    money (Mint Master), clear a side (Abbot takes a dock), card (an extra play, or 2 tiles back
    to the bag for 1 card, or the look-2-keep-1 of a pair / Councilman), river (Barge Driver),
    seal (paid, on a quarter beside the barge or anywhere after City Wall, not beyond its
    capacity, with each quarter's privilege: Tillage dock + coin + 0-2 steps, Leaning House and
    Garden a coat of arms with its points, edge mark and gold family shield and bonus, Town Hall
    a card + coin or dock, Shipyard a dock + a card action, Reichenauer Hof points per quarter,
    Goose Tower a discard or 1 of 3 drawn, Oath House a descendant) — one free card play per
    round plus card actions (cathedral and trade cards pay a tile, all 9 chronicles' effects),
    Merchant's swap once a round, end the turn; the draw pile reshuffles its discards; final
    scoring of sparrows, river, cards (parts sets, trade sets) and chronicles.

    Left out: the tower variant's 12 tiles (the engine is compared in the basic mode, where the
    round's tower tile has no effect, so the yardstick does not even stack them), the transcript,
    the invariants, components the turn never moves (board, cathedral, barges as pieces, seals on
    the score track), and the engine's names: tiles, quarters, descendants and chronicles are
    small ints and strings, supplies are per-player ints. Returns the number of decisions taken.
    """
    randrange = rng.randrange
    # ---- the unknowns, sampled as the engine samples them (parameters())
    weights = [rng.gammavariate(2.0, 1.0) for _ in range(5)]
    mix = [3, 3, 2, 3, 3]
    for c in rng.choices(range(5), weights, k=n["tiles"] - sum(mix)):
        mix[c] += 1
    others = n["cards"] - n["chronicles"]
    gold = rng.randint(1, min(8, n["coats"] - 1))
    coat_quarter = rng.sample(range(8), gold) + [None] * (n["coats"] - gold)
    coat_points = [rng.randint(1, 4) for _ in range(n["coats"])]
    coat_bonus = [rng.randint(1, 3) for _ in range(n["coats"])]
    coat_edge = rng.sample(range(12), n["coats"])
    length = rng.randint(10, 16)
    last = length - 1
    north, south = [], []
    for bank in (north, south):
        names = rng.sample([q for q in range(8) if q not in north], 4)
        cuts = sorted(rng.sample(range(1, length), 3))
        bounds = [0] + cuts + [length]
        for q, a, b in zip(names, bounds, bounds[1:]):
            bank += [q] * (b - a)
    bridge = rng.randint(length // 3, 2 * length // 3)
    capacity = [rng.randint(3, 6) for _ in range(8)]
    cathedral_cards = rng.randint(0, others)
    # ---- setup
    grid = [MONEY, MONEY, CLEAR, CLEAR, CARD, RIVER, RIVER, SEAL, SEAL]  # the setup's tiles by colour
    docks = [MONEY, CLEAR, CARD, RIVER, SEAL]
    rng.shuffle(grid)
    rng.shuffle(docks)
    bag = [c for c in range(5) for _ in range(mix[c] - grid.count(c) - 1)]
    out = [None] * 12
    cards = [(CATHEDRAL, randrange(3), tuple(rng.sample(range(5), 2))) for _ in range(cathedral_cards)]
    cards += [(TRADE, randrange(3), randrange(5)) for _ in range(others - cathedral_cards)]
    cards += [(CHRONICLE, c) for c in CHRONICLES]
    rng.shuffle(cards)
    discard = []
    coats = list(range(n["coats"]))
    rng.shuffle(coats)
    display = rng.sample(DESCENDANTS, n["display"])
    coins_sup = n["coins"] - n["start_coins"] * players
    sparrows_sup = n["sparrows"] - n["start_sparrows"] * players
    coins = [n["start_coins"]] * players
    sparrows = [n["start_sparrows"]] * players
    seals = [n["seals"]] * players
    shields = [n["shields"]] * players
    tiles = [[0] * 5 for _ in range(players)]
    for p in range(players):
        tiles[p][bag.pop(randrange(len(bag)))] += 1
    hands = [[] for _ in range(players)]
    tableau = [[] for _ in range(players)]
    coat_count = [0] * players
    owned = [set() for _ in range(players)]
    pos = [0] * players
    scores = [n["start"]] * players
    qseals = [[] for _ in range(8)]
    marks = {}
    gold_owner = {}
    seal_cost, look, goose, tillage_steps = n["seal_cost"], n["look"], n["goose"], n["tillage_steps"]

    def bag_draw():
        if not bag:
            return None  # gap-empty-bag: nothing drawn
        i = randrange(len(bag))
        bag[i], bag[-1] = bag[-1], bag[i]
        return bag.pop()

    def take_dock(p, i):
        if i is None or docks[i] is None:
            return
        tiles[p][docks[i]] += 1
        docks[i] = None
        for j in range(5):
            if docks[j] is None:
                t = bag_draw()
                if t is None:
                    return
                docks[j] = t

    def earn(p, k):
        nonlocal coins_sup
        k = min(k, coins_sup)
        coins_sup -= k
        coins[p] += k

    def pay(p, k):
        nonlocal coins_sup
        k = min(k, coins[p])
        coins[p] -= k
        coins_sup += k

    def draw_card():
        if not cards:
            if not discard:
                return None
            cards.extend(discard)
            discard.clear()
            rng.shuffle(cards)
        return cards.pop()

    def take_card(p, k, keep):
        seen = [c for c in (draw_card() for _ in range(k)) if c is not None]
        if seen:
            hands[p].append(seen.pop(min(keep, len(seen) - 1)))
            discard.extend(seen)

    def move(p, steps):
        for _ in range(steps):
            nxt = pos[p] + 1
            while nxt <= last and nxt in [pos[o] for o in range(players) if o != p]:
                nxt += 1
            if nxt > last:
                break
            pos[p] = nxt

    def open_lanes():
        rows = [not (out[9 + r] or out[3 + r]) for r in range(3)]
        cols = [not (out[c] or out[6 + c]) for c in range(3)]
        return [k for k in range(12) if (cols if k // 3 in (0, 2) else rows)[k % 3]]

    def held(p):
        return [c for c in range(5) if tiles[p][c]]

    def to_bag(p, c):
        tiles[p][c] -= 1
        bag.append(c)

    def seal_choices(p):
        if not seals[p] or coins[p] < seal_cost:
            return []
        i = min(pos[p], last)
        where = range(8) if city_wall else dict.fromkeys((north[i], south[i]))
        acts = []
        full = [i for i, d in enumerate(docks) if d is not None]
        dk = full or [None]
        for q in where:
            if len(qseals[q]) >= capacity[q]:
                continue
            if q == TILLAGE:
                acts += [("seal", q, (i, s)) for i in dk for s in range(tillage_steps + 1)]
            elif q in (LEANING, GARDEN):
                acts += [("seal", q, 0), ("seal", q, 1)]
            elif q == TOWN_HALL:
                acts += [("seal", q, "coin")] + [("seal", q, ("dock", i)) for i in full]
            elif q == SHIPYARD:
                acts += [("seal", q, i) for i in dk]
            elif q == GOOSE:
                acts += [("seal", q, ("discard", j)) for j in range(len(discard))]
                acts += [("seal", q, ("draw", k)) for k in range(goose)]
            elif q == OATH:
                acts += [("seal", q, j) for j in range(len(display))] or [("seal", q, None)]
            else:
                acts.append(("seal", q, None))
        return acts

    def chronicle_args(p, cid):
        if cid == "first":
            if not seals[p] or not coins[p]:
                return []
            i = min(pos[p], last)
            return [q for q in dict.fromkeys((north[i], south[i])) if len(qseals[q]) < capacity[q]]
        if cid == "freeze":
            return ["coins", "tiles"]
        if cid == "jousting":
            return [1, 2, 3, 4]
        if cid == "patrician":
            return ["choose"] if phase == "pick" and drawn else []
        if cid == "reformation":
            slots = [i for i, t in enumerate(out) if t is not None]
            return [(i,) for i in slots] + list(itertools.combinations(slots, 2))
        if cid == "siege":
            return list(range(1, min(3, coins[p]) + 1))
        if cid == "swabian":
            return held(p) if phase == "act" else []
        if cid == "sparrow":
            return list(range(1, min(5, sparrows[p]) + 1))
        return [None]

    def coat(p, keep):
        k = min(len(coats), n["coat_draw"])
        drawn_coats = [coats.pop() for _ in range(k)]
        if not drawn_coats:
            return
        first = drawn_coats[keep % len(drawn_coats)]
        order = [first] + [c for c in drawn_coats if c != first]
        chosen = next((c for c in order if coat_quarter[c] is None or shields[p]), None)
        for c in drawn_coats:
            if c != chosen:
                coats.insert(0, c)
        if chosen is None:
            return
        coat_count[p] += 1
        scores[p] += coat_points[chosen]
        if seals[p]:
            seals[p] -= 1
            marks[coat_edge[chosen]] = p
        q = coat_quarter[chosen]
        if q is not None:
            shields[p] -= 1
            gold_owner[q] = (p, coat_bonus[chosen])

    def seal(p, q, arg):
        nonlocal city_wall
        pay(p, seal_cost)
        city_wall = False
        seals[p] -= 1
        qseals[q].append(p)
        if q in gold_owner:
            owner, bonus = gold_owner[q]
            scores[owner] += bonus
        if q == TILLAGE:
            take_dock(p, arg[0])
            earn(p, n["tillage_coins"])
            move(p, arg[1])
        elif q in (LEANING, GARDEN):
            coat(p, arg)
        elif q == TOWN_HALL:
            take_card(p, 1, 0)
            if arg == "coin":
                earn(p, n["hall_coins"])
            else:
                take_dock(p, arg[1])
        elif q == SHIPYARD:
            take_dock(p, arg)
            remaining.append(CARD)
        elif q == HOF:
            scores[p] += n["hof"] * sum(1 for s in qseals if p in s)
        elif q == GOOSE:
            if arg[0] == "discard":
                hands[p].append(discard.pop(arg[1]))
            else:
                take_card(p, goose, arg[1])
        elif arg is not None:  # Oath House
            owned[p].add(display.pop(arg))
            if seals[p]:
                seals[p] -= 1

    steps = 0
    for _round in range(n["rounds"]):
        free_play = [True] * players
        merchant_used = [False] * players
        for p in range(players):
            # ---- the start of a turn
            remaining = []
            extra_plays = 0
            city_wall = False
            mine = owned[p]
            if not open_lanes():
                bag += [t for t in out if t is not None]
                out = [None] * 12
            drawn = []
            for _ in range(n["builder"] if "builder" in mine else 1):
                t = bag_draw()
                if t is not None:
                    drawn.append(t)
            phase = "builder" if len(drawn) > 1 else "pick"
            while phase != "done":
                # ---- the choices
                if phase == "builder":
                    acts = [("builder", i) for i in range(len(drawn))]
                elif phase == "choose":
                    acts = [("choose", c) for c in sorted(set(bag))]
                elif phase == "push":
                    acts = [("push", k) for k in open_lanes()]
                else:
                    acts = []
                    if phase == "pick":
                        if drawn:
                            acts.append(("keep",))
                            if sparrows[p]:
                                acts += [("sparrow", i) for i, d in enumerate(docks) if d is not None]
                        if "scholar" in mine:
                            acts += [("scholar", c) for c in held(p)]
                        if not drawn and not acts:
                            acts.append(("keep",))
                    else:
                        for c in sorted(set(remaining)):
                            if c == MONEY:
                                acts.append(("money",))
                            elif c == CLEAR:
                                sides = [s for s in range(4) if any(t is not None for t in out[s * 3:s * 3 + 3])]
                                dk = [None] + [i for i, d in enumerate(docks) if d is not None] if "abbot" in mine else [None]
                                acts += [("clear", s, i) for s in sides for i in dk]
                            elif c == CARD:
                                if hands[p]:
                                    acts.append(("extra-play",))
                                if n["buy_tiles"] == 2:
                                    have = held(p)
                                    for a, b in itertools.combinations_with_replacement(have, 2):
                                        if a == b and tiles[p][a] < 2:
                                            continue
                                        acts += [("buy", a, b, k) for k in range(2 if a == b or "councilman" in mine else 1)]
                            elif c == RIVER:
                                acts += [("river", e) for e in range(("barge-driver" in mine) + 1)]
                            else:
                                acts += seal_choices(p)
                        acts.append(("end",))
                    if free_play[p] or extra_plays:
                        for i, c in enumerate(hands[p]):
                            acts.append(("play", i, "keep", None))
                            if c[0] == CATHEDRAL:
                                acts += [("play", i, "discard", t) for t in dict.fromkeys(c[2]) if tiles[p][t]]
                            elif c[0] == TRADE:
                                if tiles[p][c[2]]:
                                    acts.append(("play", i, "discard", c[2]))
                            else:
                                acts += [("play", i, "discard", a) for a in chronicle_args(p, c[1])]
                    if "merchant" in mine and not merchant_used[p]:
                        acts += [("merchant", c, i) for c in held(p) for i, d in enumerate(docks) if d is not None]
                a = acts[randrange(len(acts))]
                steps += 1
                # ---- carrying it out
                verb = a[0]
                if verb == "push":
                    cells, slot = LANES[a[1]]
                    tile = drawn.pop()
                    out[slot] = grid[cells[2]]
                    grid[cells[2]], grid[cells[1]], grid[cells[0]] = grid[cells[1]], grid[cells[0]], tile
                    remaining = [grid[c] for c in cells]
                    owner = marks.get(a[1])
                    if owner is not None and sparrows_sup:
                        sparrows_sup -= 1
                        sparrows[owner] += 1
                    if "city-guard" in mine and any(grid[x] == grid[y] == grid[z] for x, y, z in LINES):
                        scores[p] += n["guard"]
                    phase = "act"
                elif verb == "keep":
                    phase = "push" if drawn else "act"
                elif verb == "end":
                    phase = "done"
                elif verb == "money":
                    remaining.remove(MONEY)
                    earn(p, n["money"] + ("mint-master" in mine) * n["mint"])
                elif verb == "clear":
                    remaining.remove(CLEAR)
                    for i in range(a[1] * 3, a[1] * 3 + 3):
                        if out[i] is not None:
                            tiles[p][out[i]] += 1
                            out[i] = None
                    take_dock(p, a[2])
                elif verb == "river":
                    remaining.remove(RIVER)
                    move(p, n["river"] + a[1])
                elif verb == "seal":
                    remaining.remove(SEAL)
                    seal(p, a[1], a[2])
                elif verb == "buy":
                    remaining.remove(CARD)
                    to_bag(p, a[1])
                    to_bag(p, a[2])
                    take_card(p, look if a[1] == a[2] or "councilman" in mine else 1, a[3])
                elif verb == "extra-play":
                    remaining.remove(CARD)
                    extra_plays += 1
                elif verb == "play":
                    if free_play[p]:
                        free_play[p] = False
                    else:
                        extra_plays -= 1
                    c = hands[p].pop(a[1])
                    arg = a[3]
                    if a[2] == "keep":
                        tableau[p].append(c)
                        continue
                    discard.append(c)
                    if c[0] == CATHEDRAL:
                        to_bag(p, arg)
                        scores[p] += 6
                    elif c[0] == TRADE:
                        to_bag(p, arg)
                    elif c[1] == "first":
                        pay(p, 1)
                        seals[p] -= 1
                        qseals[arg].append(p)
                    elif c[1] == "city-wall":
                        city_wall = True
                    elif c[1] == "freeze":
                        if arg == "coins":
                            earn(p, 2)
                        else:
                            for _ in range(2):
                                t = bag_draw()
                                if t is not None:
                                    tiles[p][t] += 1
                    elif c[1] == "jousting":
                        move(p, arg)
                    elif c[1] == "patrician":
                        bag.append(drawn.pop())
                        phase = "choose"
                    elif c[1] == "reformation":
                        for s in arg:
                            tiles[p][out[s]] += 1
                            out[s] = None
                    elif c[1] == "siege":
                        pay(p, arg)
                        scores[p] += 2 * arg
                    elif c[1] == "swabian":
                        remaining.append(arg)
                    else:  # Ulm Sparrow
                        sparrows[p] -= arg
                        sparrows_sup += arg
                        earn(p, arg)
                elif verb == "sparrow":
                    sparrows[p] -= 1
                    sparrows_sup += 1
                    drawn[-1], docks[a[1]] = docks[a[1]], drawn[-1]
                    phase = "push"
                elif verb == "builder":
                    keep = drawn.pop(a[1])
                    bag.extend(drawn)
                    drawn = [keep]
                    phase = "pick"
                elif verb == "choose":
                    drawn.append(bag.pop(bag.index(a[1])))
                    phase = "pick"
                elif verb == "scholar":
                    for t in drawn:
                        tiles[p][t] += 1
                    tiles[p][a[1]] -= 1
                    drawn = [a[1]]
                    phase = "push"
                else:  # merchant
                    merchant_used[p] = True
                    tiles[p][a[1]] -= 1
                    tiles[p][docks[a[2]]] += 1
                    docks[a[2]] = a[1]
    # ---- final scoring
    for p in range(players):
        discard += hands[p]
        hands[p] = []
        tab = tableau[p]
        ids = {c[1] for c in tab if c[0] == CHRONICLE}
        scores[p] += sparrows[p] * n["f_sparrows"] + (min(sparrows[p], 5) if "sparrow" in ids else 0)
        scores[p] += (pos[p] - bridge) * n["f_river"]
        cath = [c[1] for c in tab if c[0] == CATHEDRAL]
        trade = [c[1] for c in tab if c[0] == TRADE]
        pts = n["f_card"] * (len(cath) + len(trade))
        if len(set(cath)) == 3:
            pts += 9 * min(cath.count(i) for i in range(3))
        goods = [trade.count(g) for g in range(3)]
        pts += max(3 * d + 6 * sum((k - d) // 3 for k in goods) for d in range(min(goods) + 1))
        if "first" in ids:
            pts += 2 * coat_count[p]
        if "city-wall" in ids:
            pts += 2 * sum(1 for s in qseals if s and all(s.count(p) > s.count(o) for o in range(players) if o != p))
        if "freeze" in ids:
            pts += min(coins[p], 6)
        if "jousting" in ids:
            ahead = sum(1 for o in range(players) if pos[o] > pos[p])
            pts += 6 if ahead == 0 else 3 if ahead == 1 else 0
        if "patrician" in ids:
            pts += 4
        if "reformation" in ids:
            pts += 2 * len(cath)
        if "siege" in ids:
            pts += len(tab)
        if "swabian" in ids:
            pts += 2 * len(held(p))
        scores[p] += pts
    return steps


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=50, help="games per player count and mode, per run")
    ap.add_argument("--runs", type=int, default=5, help="runs; the medians are printed")
    ap.add_argument("--content", type=Path, default=ROOT / "content")
    ap.add_argument("--only", help="one game id (the yardstick runs for ulm only)")
    ap.add_argument("--no-yardstick", action="store_true")
    args = ap.parse_args()

    project, _ = read_project(args.content)
    print(f"# simulated games per second (random play, invariants after every step; {args.games} games "
          f"each, median of {args.runs} runs)")
    for gid, doc in sorted(project.games.items()):
        if args.only and gid != args.only:
            continue
        if module_for(gid) is None:
            print(f"{gid}: no engine module (setup only)")
            continue
        g = doc.model
        for mode in g.modes:
            for p in player_counts(g, mode.id):
                rates, step_rates = [], []
                for _ in range(args.runs):
                    t = time.perf_counter()
                    steps = sum(play(g, p, mode.id, seed).steps for seed in range(args.games))
                    dt = time.perf_counter() - t
                    rates.append(args.games / dt)
                    step_rates.append(steps / dt)
                print(f"{gid} {p}p {mode.id}: {median(rates):7.1f} games/s  ({median(step_rates):8.0f} steps/s)")

    if "ulm" in project.games and not args.no_yardstick and args.only in (None, "ulm"):
        g = project.games["ulm"].model
        n = yardstick_numbers(g)
        print(f"# yardstick: a hand-written loop of the same Ulm basic game against the engine "
              f"({args.games} games each, alternating, median of {args.runs} runs)")
        for p in player_counts(g, "basic"):
            ys, es, ratios = [], [], []
            for r in range(args.runs):
                rng = random.Random(f"yardstick/{p}/{r}")
                t = time.perf_counter()
                for _ in range(args.games):
                    yardstick_game(p, rng, n)
                y = args.games / (time.perf_counter() - t)
                t = time.perf_counter()
                for seed in range(r * args.games, (r + 1) * args.games):
                    play(g, p, "basic", seed)
                e = args.games / (time.perf_counter() - t)
                ys.append(y)
                es.append(e)
                ratios.append(y / e)
            print(f"ulm {p}p basic: yardstick {median(ys):7.1f} games/s, engine {median(es):6.1f} games/s: "
                  f"engine is {median(ratios):4.1f}x slower (runs: {' '.join(f'{x:.1f}' for x in sorted(ratios))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
