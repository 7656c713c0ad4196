"""Benchmark: simulated games per second, and what validation costs next to parsing.

Prints, for every game with an engine module, full simulated games per second per player count
and mode (random play, invariants after every step); the time of `rulebook validate --no-sim`
against the time of only parsing the same YAML in the same run; and a yardstick: a minimal
hand-written loop of the same Ulm turn (draw, push into the 3x3 grid, 3 actions; no invariants,
no data) whose rate the engine should stay within 5x of. Figures go to docs/performance.md.

    .venv/bin/python bench/validate.py [--games N] [--content DIR]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from generator import check  # noqa: E402
from generator.engine.games import module_for  # noqa: E402
from generator.engine.play import play  # noqa: E402
from generator.engine.setup import player_counts  # noqa: E402
from generator.load import load_game_dir  # noqa: E402
from generator.project import game_folders, read_project  # noqa: E402


SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def best_of(n: int, fn) -> float:
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def yardstick_game(players: int, rng: random.Random) -> int:
    """A minimal Ulm: 10 rounds; draw, push, carry out 3 actions. Returns the turns played."""
    bag = [c for c in range(5) for _ in range(8)]
    grid = [rng.choice(range(5)) for _ in range(9)]
    out = [None] * 12
    coins, pos, tiles = [2] * players, [0] * players, [[] for _ in range(players)]
    lanes = []
    for side in range(4):
        for lane in range(3):
            cells = ([lane, 3 + lane, 6 + lane], [lane * 3 + 2, lane * 3 + 1, lane * 3],
                     [6 + lane, 3 + lane, lane], [lane * 3, lane * 3 + 1, lane * 3 + 2])[side]
            lanes.append((cells, ((side + 2) % 4) * 3 + lane))
    turns = 0
    for _round in range(10):
        for p in range(players):
            turns += 1
            open_ = [i for i, (_c, slot) in enumerate(lanes) if out[slot] is None and out[(slot + 6) % 12] is None]
            if not open_:
                bag += [t for t in out if t is not None]
                out = [None] * 12
                open_ = list(range(12))
            tile = bag.pop(rng.randrange(len(bag)))
            cells, slot = lanes[rng.choice(open_)]
            out[slot] = grid[cells[2]]
            grid[cells[2]], grid[cells[1]], grid[cells[0]] = grid[cells[1]], grid[cells[0]], tile
            for c in (grid[cells[0]], grid[cells[1]], grid[cells[2]]):
                if c == 0:
                    coins[p] += 1
                elif c == 1:
                    side = rng.randrange(4)
                    for i in range(side * 3, side * 3 + 3):
                        if out[i] is not None:
                            tiles[p].append(out[i])
                            out[i] = None
                elif c == 2 and len(tiles[p]) >= 2:
                    bag += [tiles[p].pop(), tiles[p].pop()]
                elif c == 3:
                    pos[p] += 1
                elif c == 4 and coins[p] >= 2:
                    coins[p] -= 2
    return turns


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200, help="games per player count and mode")
    ap.add_argument("--content", type=Path, default=ROOT / "content")
    args = ap.parse_args()

    project, _ = read_project(args.content)
    print(f"# simulated games per second (random play, invariants after every step; {args.games} games each)")
    for gid, doc in sorted(project.games.items()):
        if module_for(gid) is None:
            print(f"{gid}: no engine module (setup only)")
            continue
        g = doc.model
        for mode in g.modes:
            for p in player_counts(g):
                t = time.perf_counter()
                steps = 0
                for seed in range(args.games):
                    steps += play(g, p, mode.id, seed).steps
                dt = time.perf_counter() - t
                print(f"{gid} {p}p {mode.id}: {args.games / dt:7.1f} games/s  ({steps / dt:8.0f} steps/s)")

    folders = game_folders(args.content)
    files = [f for d in folders for f in sorted(d.glob("*.yaml"))]
    plain = best_of(5, lambda: [yaml.load(f.read_text(encoding="utf-8"), Loader=SafeLoader) for f in files])
    parse = best_of(5, lambda: [load_game_dir(f, args.content.parent) for f in folders])
    static = best_of(5, lambda: check.run(read_project(args.content)[0], simulation=False))
    read = best_of(5, lambda: read_project(args.content))
    print("# validate --no-sim against parsing only (best of 5, in-process)")
    print(f"yaml.safe_load only ({'C' if SafeLoader is not yaml.SafeLoader else 'pure Python'}):  {plain * 1000:7.1f} ms")
    print(f"parse YAML with positions:  {parse * 1000:7.1f} ms")
    print(f"parse + schema (read):      {read * 1000:7.1f} ms")
    print(f"validate --no-sim (total):  {static * 1000:7.1f} ms  ({static / parse:.1f}x parsing)")

    if "ulm" in project.games:
        g = project.games["ulm"].model
        print("# yardstick: a minimal hand-written loop of the same Ulm turn")
        for p in player_counts(g):
            rng = random.Random(p)
            n = args.games * 5
            dt = best_of(1, lambda: [yardstick_game(p, rng) for _ in range(n)])
            engine = best_of(1, lambda: [play(g, p, "basic", s) for s in range(args.games)])
            y, e = n / dt, args.games / engine
            print(f"ulm {p}p: yardstick {y:8.0f} games/s, engine {e:6.1f} games/s: engine is {y / e:5.1f}x slower")
    return 0


if __name__ == "__main__":
    sys.exit(main())
