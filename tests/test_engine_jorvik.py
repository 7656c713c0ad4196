"""Jórvík's engine module: random play to the end at every player count and mode, the rules the
issue names as scenarios (trails, the descending price, the reserve row, material spaces, Pict
attack ties, income, the end), the sampled parameters against the sources, and a mutation test."""

import random

import pytest
from conftest import ROOT, edit, line_of, one_game_content

from generator.cli import validate
from generator.engine.games import jorvik
from generator.engine.play import play
from generator.engine.setup import player_counts, run_setup
from generator.engine.state import initial_box
from generator.project import read_project

_project, _diags = read_project(ROOT / "content")
GAME = _project.games["jorvik"].model
V = jorvik.values(GAME)
CONFIGS = [(p, m.id) for m in GAME.modes for p in player_counts(GAME, m.id)]


@pytest.mark.parametrize("p, mode", CONFIGS, ids=[f"{p}p-{m}" for p, m in CONFIGS])
def test_random_play_ends_with_the_final_attack(p, mode):
    for seed in range(6):
        out = play(GAME, p, mode, seed, keep_log=True)
        assert out.fault is None, (seed, out.fault, out.tail)
        assert 1 <= out.round <= GAME.rounds.max and len(out.scores) == p
        assert any("only the final Attack of the Picts is left" in line for line in out.log)
        assert "final scores:" in out.log[-3]


def state(p=3, mode="jarl", seed=0, **override):
    params = jorvik.parameters(GAME, random.Random(seed))
    params.update(override)
    setup = run_setup(GAME, p, mode, seed)
    box, endless = initial_box(GAME)
    return jorvik.new_state(GAME, setup, seed, box, endless, params)


def card(s, cid, **info):
    serial = len(s.info)
    s.info[serial] = {"type": cid, **info}
    return ("card", "card-winter", cid, serial)


def test_parameters_keep_what_the_sources_say():
    for seed in range(40):
        prm = jorvik.parameters(GAME, random.Random(seed))
        assert prm["slots"][4] == [1, 2, 3, 4, 5] and prm["upper"][4] == [1, 2, 3, 4, 5]
        assert prm["autumn_removed"][4] == prm["autumn_removed_jarl"][4] == 0
        assert all(1 <= len(prm["slots"][p]) <= V["demand-order"]["spaces"] for p in prm["slots"])
        assert len(prm["pict_seasons"]) == 3 and len(prm["pict_gain"]) == 4


def test_the_deck_is_stacked_by_season_with_the_final_attack_at_the_bottom():
    s = state(4, "karl")
    deck = s.piles["draw-pile"] + [c for c in s.space.values()]
    assert deck[0][2] == "card-pict-final"
    kinds = [c[1] for c in s.piles["draw-pile"][1:]]
    order = [k for i, k in enumerate(kinds) if i == 0 or kinds[i - 1] != k]
    assert order == ["card-autumn", "card-summer", "card-spring", "card-winter"][:len(order)]
    assert not any(c[2] in ("card-god", "card-ship-small", "card-building-brown") for c in deck)


def test_a_pict_attack_ties_gain_or_lose_alike_and_all_equal_is_nobody():
    s = state(4, "karl")
    for p, d in enumerate([3, 3, 1, 1]):
        s.cards(p).append(card(s, "card-warrior", defence=d))
    before = list(s.scores)
    s.attack(card(s, "card-pict-attack", gain=4, loss=2))
    assert [a - b for a, b in zip(s.scores, before)] == [4, 4, -2, -2]
    for p in (2, 3):
        s.cards(p).append(card(s, "card-warrior", defence=2))
    before = list(s.scores)
    s.attack(card(s, "card-pict-attack", gain=4, loss=2))
    assert s.scores == before


def test_the_price_falls_as_the_queue_shortens():
    s = state(3, "karl")
    s.space = {1: card(s, "card-journey", points=3)}
    s.trails = {1: [(jorvik.OWN, 0), (jorvik.OWN, 1), (jorvik.OWN, 2)]}
    for p in range(3):
        s.count(s.sup(p))[jorvik.OWN] -= 1
    s.reserve, s.phase, s.current, s._legal = [], "buy", 0, None
    coins = [s.coins(p) for p in range(3)]
    s._apply(("pass",))
    assert s.current == 1 and len(s.trails[1]) == 2
    s._apply(("buy",))
    assert s.coins(1) == coins[1] - 2
    assert [c[2] for c in s.unloading(1)] == ["card-journey"]
    assert all(s.count(s.sup(p))[jorvik.OWN] == 3 for p in range(3))


def test_the_reserve_row_costs_its_length():
    s = state(3, "jarl")
    s.space, s.trails = {}, {}
    s.reserve = [(card(s, "card-journey", points=1), p, jarl_viking(s, p)) for p in range(3)]
    s.phase, s.current, s._legal = "reserve", 0, None
    coins = s.coins(0)
    s._apply(("buy",))
    assert s.coins(0) == coins - 3 and len(s.reserve) == 2 and s.current == 1
    s._apply(("return",))
    coins2 = s.coins(2)
    s._apply(("buy",))
    assert s.coins(2) == coins2 - 1


def jarl_viking(s, p):
    s.count(s.sup(p))[jorvik.OWN] -= 1
    return jorvik.OWN


def test_a_good_on_a_material_space_stays_there():
    s = state(2, "karl")
    crafts = card(s, "card-craftsman", needs=["goods-wool", "goods-iron"], points=5)
    s.cards(0).append(crafts)
    s.pool = [(("goods", "goods-wool"), False)]
    s.phase, s.current, s.giving, s.unloaders, s._legal = "unload", 0, None, [], None
    assert ("slot", "goods-wool", crafts[3], 0) in s.legal_actions()
    s._apply(("slot", "goods-wool", crafts[3], 0))
    assert s.materials[crafts[3]] == [("goods", "goods-wool"), None]
    s.pool = [(("goods", "goods-iron"), False)]
    acts = s.legal_actions()
    assert not any(a[0] in ("rework", "steal") for a in acts)  # nothing takes the wool back
    assert ("slot", "goods-iron", crafts[3], 1) in acts


def test_income_is_one_or_two_and_one_more_in_the_jarl_game():
    for mode, rule in (("karl", "unload-income"), ("jarl", "unload-income-jarl")):
        s = state(2, mode)
        s.unloading(0).append(card(s, "card-journey", points=1))
        coins = [s.coins(0), s.coins(1)]
        s.unloaders = [0, 1]
        s.unload_next()
        assert s.coins(0) == coins[0] + V[rule]["income"]
        s._legal = None
        s._apply(("done",))
        assert s.coins(1) == coins[1] + V[rule]["idle"]


def test_feasts_beyond_the_table():
    assert [state(feast_beyond="cap").feast_points(n) for n in (1, 4, 5)] == [2, 14, 14]
    assert [state(feast_beyond="grow").feast_points(n) for n in (4, 5, 6)] == [14, 20, 27]


@pytest.fixture
def jorvik_content(tmp_path):
    return one_game_content(tmp_path, "jorvik")


def test_mutation_a_deck_without_its_final_attack_runs_dry(jorvik_content):
    f = jorvik_content / "jorvik" / "game.yaml"
    edit(f, "  kind: card-final\n  count: 1\n  to: draw-pile\n", "  kind: card-final\n  count: 0\n  to: draw-pile\n")
    _p, diags = validate(jorvik_content, None, seeds=1)
    assert [(d.code, d.line, d.column) for d in diags] == [("RB604", line_of(f, "- id: draw-pile"), 3)]
    d = diags[0]
    assert "simulation of jorvik, 2 players, karl, seed 0" in d.message
    assert "a draw from 'draw-pile' found it empty, and the data gives no rule for that" in d.message
