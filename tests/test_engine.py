"""The simulation engine: every game at every player count and mode with random play, a golden
transcript of one seeded Ulm game, replays, and the command line around it.

Regenerate the golden transcript with RULEBOOK_REGEN=1 after a deliberate change, and read
the diff: it is the engine's behaviour, step by step."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT
from generator.engine.games import module_for
from generator.engine.play import play
from generator.engine.setup import player_counts
from generator.project import read_project

GOLDEN = Path(__file__).parent / "golden" / "transcripts"
SEEDS = 8  # per player count and mode; the CLI's default validation plays more

_project, _diags = read_project(ROOT / "content")
GAMES = {gid: doc.model for gid, doc in _project.games.items()}
CONFIGS = [(p, m.id, gid) for gid, g in sorted(GAMES.items()) for m in g.modes for p in player_counts(g, m.id)]


@pytest.mark.parametrize("p, mode, gid", CONFIGS, ids=[f"{p}p-{m}-{g}" for p, m, g in CONFIGS])
def test_random_play_to_the_end(p, mode, gid):
    game = GAMES[gid]
    for seed in range(SEEDS):
        out = play(game, p, mode, seed)
        if module_for(gid) is None:  # setup only: its shortages are the static RB302's to report
            assert out.fault is None or out.fault.code == "RB302", out.fault
            continue
        assert out.fault is None, (seed, out.fault, out.tail)
        if game.rounds.count:  # a fixed number of rounds, one turn per player each (Ulm)
            assert out.round == game.rounds.count
            assert out.turns == game.rounds.count * p
        else:  # the game ends by its own condition (no fault: it ended within the engine's bound)
            assert out.round >= 1
            if game.rounds.max:  # and within the bound the data declares
                assert out.round <= game.rounds.max, (out.round, game.rounds.max)
        assert len(out.scores) == p


@pytest.mark.parametrize("gid", sorted(g for g in GAMES if module_for(g)))
def test_the_modules_change_zones_only_where_the_conservation_check_sees_it(gid):
    """With full_check every zone is recounted after every step as well: the incremental check
    (which recounts only the zones a step reached) must have seen every change."""
    game = GAMES[gid]
    for mode in game.modes:
        for p in player_counts(game, mode.id):
            for seed in range(2):
                out = play(game, p, mode.id, seed, full_check=True)
                assert out.fault is None, (p, mode.id, seed, out.fault, out.tail)


def test_a_seed_replays_exactly():
    g = GAMES["ulm"]
    a = play(g, 4, "tower-variant", 5, keep_log=True)
    b = play(g, 4, "tower-variant", 5, keep_log=True)
    assert a.log == b.log and a.scores == b.scores
    assert play(g, 4, "tower-variant", 6, keep_log=True).log != a.log


def test_golden_transcript_of_one_ulm_game():
    out = play(GAMES["ulm"], 3, "tower-variant", 1, keep_log=True)
    text = "\n".join(out.log) + "\n"
    path = GOLDEN / "ulm-3p-tower-variant-seed1.txt"
    if os.environ.get("RULEBOOK_REGEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), "engine behaviour changed: RULEBOOK_REGEN=1 and read the diff"


def test_the_sampled_parameters_respect_what_the_sources_say():
    import random

    from generator.engine.games import ulm
    g = GAMES["ulm"]
    for seed in range(50):
        prm = ulm.parameters(g, random.Random(seed))
        assert sum(prm["tile_mix"].values()) == 50
        assert all(prm["tile_mix"][c] >= n for c, n in ulm.SETUP_NEEDS.items())
        assert 1 <= prm["gold_coats"] <= 8 and len(set(q for q in prm["coat_quarter"] if q)) == prm["gold_coats"]
        assert sorted(prm["coat_edge"]) == list(range(12))
        assert len(prm["north"]) == len(prm["south"]) == prm["river_length"]


def test_the_cli_default_seeds_match_the_simulation():
    from generator import cli
    from generator.check.simulate import DEFAULT_SEEDS
    assert cli._DEFAULT_SEEDS == DEFAULT_SEEDS


def _rulebook(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], cwd=cwd, capture_output=True, text=True)


def test_validate_simulates_and_replays_one_seed():
    r = _rulebook("validate", "ulm", "--seed", "3")
    assert r.returncode == 0, r.stderr
    r = _rulebook("validate", "ulm", "--seeds", "2")
    assert r.returncode == 0, r.stderr
    r = _rulebook("validate", "--seeds", "-1")
    assert r.returncode == 2


def test_the_bench_yardstick_plays_the_same_ulm_game_as_the_engine():
    """bench/validate.py's yardstick (a hand-written loop the engine's speed is measured against)
    must keep playing the engine's Ulm basic game: as many decisions per game, within noise."""
    import importlib.util
    import random
    spec = importlib.util.spec_from_file_location("bench_validate", ROOT / "bench" / "validate.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    g = GAMES["ulm"]
    numbers = bench.yardstick_numbers(g)
    for p in player_counts(g, "basic"):
        rng = random.Random(p)
        yard = sum(bench.yardstick_game(p, rng, numbers) for _ in range(60)) / 60
        engine = sum(play(g, p, "basic", seed).steps for seed in range(60)) / 60
        assert abs(yard - engine) < 0.06 * engine, (p, yard, engine)
