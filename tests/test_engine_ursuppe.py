"""Ursuppe's engine module: random play to the end at every player count with its own invariants
(food conserved per colour across eating, excretion and death), the stand-in board, the rules
one at a time, mutation tests on a copy of the content, and a golden transcript.

Regenerate the golden transcript with RULEBOOK_REGEN=1 after a deliberate change, and read the diff."""

import os
import random
from collections import Counter
from pathlib import Path

import pytest

from conftest import ROOT, edit, line_of, one_game_content
from generator.cli import validate
from generator.engine.games import ursuppe
from generator.engine.play import play
from generator.engine.setup import player_counts, run_setup
from generator.engine.state import initial_box
from generator.project import read_project

GOLDEN = Path(__file__).parent / "golden" / "transcripts"
GAME_FILE = "ursuppe/game.yaml"
_project, _diags = read_project(ROOT / "content")
GAME = _project.games["ursuppe"].model
V = ursuppe.values(GAME)
FOOD = next(c for c in GAME.components if c.id == "food")


def _state(players=4, seed=0, **override):
    params = ursuppe.parameters(GAME, random.Random(seed))
    params.update(override)
    setup = run_setup(GAME, players, "standard", seed)
    box, endless = initial_box(GAME)
    return ursuppe.new_state(GAME, setup, seed, box, endless, params)


def checking_policy(state, actions, rng):
    """The random policy, after checking what the core cannot see: every colour's food in play, each
    amoeba where the module says it is, nobody below zero BP, markers on distinct spaces."""
    per = Counter()
    for z in state.counts.values():
        for (comp, kind), n in z.items():
            if comp == "food":
                per[kind] += n
    expected = Counter({f"colour-{k + 1}": FOOD.per_colour for k in range(state.players)})
    expected[""] = FOOD.per_colour * (GAME.colours - state.players)  # the unused colours, in the box
    assert per == +expected, per
    on_board = Counter()
    for i in range(len(state.cells)):
        for (comp, kind), n in state.count(state.space(i)).items():
            if comp == "amoeba":
                on_board[kind] += n
                p, num = kind[1:].split("-")
                assert state.at[(int(p) - 1, int(num))] == i
    assert sum(on_board.values()) == len(state.at)
    for p in range(state.players):
        assert len(state.mine(p)) + state.count(state.sup(p))[("amoeba", "")] == 7
    assert len(set(state.scores)) == state.players
    return actions[rng.randrange(len(actions))]


@pytest.mark.parametrize("players", player_counts(GAME))
def test_random_play_to_the_end_with_the_invariants(players):
    ends = Counter()
    for seed in range(12):
        out = play(GAME, players, "standard", seed, policy=checking_policy)
        assert out.fault is None, (seed, out.fault, out.tail)
        assert 1 <= out.round <= GAME.rounds.max
        assert out.turns == out.round * players
        assert len(set(out.scores)) == players
        reached = max(out.scores) >= out.params["finish"]
        assert reached or out.round == GAME.rounds.max, out.tail
        ends[reached] += 1
        assert "the game ends" in out.tail[-1]
    assert sum(ends.values()) == 12


def test_the_stand_in_board_has_the_data_s_spaces_around_an_island():
    spaces = V["setup-food-board"]["spaces"]
    for seed in range(60):
        rows, walls = ursuppe.sample_board(random.Random(seed), spaces)
        cells = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "."}
        island = {(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#"}
        assert len(cells) == spaces and 1 <= len(island) <= 3
        wall_set = {frozenset(tuple(int(n) for n in a.split(",")) for a in w.split("|")) for w in walls}
        assert ursuppe._connected(cells, wall_set)
        for r, c in island:  # in the middle, with soup all around
            assert all((r + dr, c + dc) in cells | island for dr, dc in ursuppe.DIRS.values())


def test_the_sampled_parameters_stay_in_their_ranges():
    printed = 30
    for seed in range(50):
        prm = ursuppe.parameters(GAME, random.Random(seed))
        assert len(prm["drift"]) == len(prm["ozone"]) == 11
        assert set(prm["drift"]) <= set("NESW")
        assert len(prm["gene_price"]) == len(prm["gene_uv"]) == printed
        assert prm["finish"] in (40, 42)
        assert sorted(prm["start_spaces"]) == [1, 2, 3, 4]
        assert 10 <= len(prm["marked_three"]) <= printed


def _clear(state, i):
    z = state.count(state.space(i))
    for key in [k for k in z if k[0] == "food"]:
        state.count(ursuppe.SUPPLY)[key] += z.pop(key)


def test_eating_takes_one_of_each_other_colour_and_excretes_its_own():
    s = _state(4)
    a = next(iter(s.at))
    i = s.at[a]
    _clear(s, i)
    for k in range(4):
        s.take(ursuppe.SUPPLY, s.space(i), ursuppe.colour(k), 1)
    before = s.damage_of(a)
    s.eat(a)
    here = s.count(s.space(i))
    own = ursuppe.colour(a[0])
    assert here[own] == 1 + V["eat-excrete"]["excrete"]
    assert sum(here[ursuppe.colour(k)] for k in range(4) if k != a[0]) == 0
    assert s.damage_of(a) == before


def test_a_starving_amoeba_takes_damage_and_never_excretes():
    for eats in (False, True):
        s = _state(4, starving_eats=eats)
        a = next(iter(s.at))
        i = s.at[a]
        _clear(s, i)
        other = ursuppe.colour((a[0] + 1) % 4)
        s.take(ursuppe.SUPPLY, s.space(i), other, 1)
        before = s.damage_of(a)
        s.eat(a)
        here = s.count(s.space(i))
        assert s.damage_of(a) == before + V["eat-starve"]["damage"]
        assert here[other] == (0 if eats else 1)
        assert here[ursuppe.colour(a[0])] == 0  # excretion only once it has eaten enough (seed 002)


def test_eaten_cubes_go_where_the_sampled_reading_says():
    for reading, zone in (("supply", ursuppe.SUPPLY), ("out", ursuppe.EATEN)):
        s = _state(4, eaten_food=reading)
        a = next(iter(s.at))
        i = s.at[a]
        _clear(s, i)
        for k in range(4):
            s.take(ursuppe.SUPPLY, s.space(i), ursuppe.colour(k), 1)
        before = s.count(zone).copy()
        s.eat(a)
        gained = sum(s.count(zone)[ursuppe.colour(k)] - before[ursuppe.colour(k)] for k in range(4) if k != a[0])
        assert gained == V["eat-food"]["eat"], reading


def test_three_player_diets():
    s = _state(3, diet_three="two-of-one")
    assert all(sum(w.values()) == V["eat-food"]["eat"] and len(w) == 2 for w in s.diets(0))
    s = _state(3, diet_three="one-each")
    assert s.diets(0) == [Counter({ursuppe.colour(1): 1, ursuppe.colour(2): 1})]


def test_excretion_and_death_respect_the_food_limit():
    s = _state(4)
    a = next(iter(s.at))
    i = s.at[a]
    supply = s.count(ursuppe.SUPPLY)
    keep = ursuppe.colour(0)
    moved = supply[keep] - 1  # leave one cube of colour 1 in the supply
    s.take(ursuppe.SUPPLY, s.space((i + 1) % len(s.cells)), keep, moved)
    food = s.count(s.space(i))
    before = Counter({k: n for k, n in food.items() if k[0] == "food"})
    s.die(a)
    after = s.count(s.space(i))
    per = V["death-natural"]["food"]
    assert after[keep] - before[keep] == 1  # only what was left
    assert all(after[ursuppe.colour(k)] - before[ursuppe.colour(k)] == per for k in (1, 2, 3))
    assert a not in s.at and s.count("damage")[("dp", s.name(a))] == 0
    assert s.ran_out["food"] == 1


def test_markers_jump_over_other_markers():
    s = _state(4)
    s.scores = [1, 2, 3, 5]
    s.advance(0, 3, "test")  # 2 and 3 are taken: 4, then 5 is taken, so 6, 7
    assert s.scores[0] == 7


def test_scoring_tables_read_from_the_data():
    s = _state(4)
    assert [s.table("table-amoebas", n) for n in range(8)] == [0, 0, 0, 1, 2, 4, 5, 6]
    assert [s.table("table-genes", n) for n in (0, 2, 3, 6, 20)] == [0, 0, 1, 4, 4]


def test_bp_change_is_made_in_chips():
    s = _state(4, large_bp=5)
    s.gain_bp(0, 12)
    have = s.count(s.sup(0))
    assert have[ursuppe.LARGE] == 2 and s.bp(0) == 16
    s.pay_bp(0, 13)
    assert s.bp(0) == 3


def test_a_seed_replays_exactly():
    a = play(GAME, 4, "standard", 5, keep_log=True)
    assert a.log == play(GAME, 4, "standard", 5, keep_log=True).log


def test_golden_transcript_of_one_ursuppe_game():
    out = play(GAME, 3, "standard", 1, keep_log=True)
    text = "\n".join(out.log) + "\n"
    path = GOLDEN / "ursuppe-3p-standard-seed1.txt"
    if os.environ.get("RULEBOOK_REGEN"):
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), "engine behaviour changed: RULEBOOK_REGEN=1 and read the diff"


# ----- mutation tests: break one number in a copy of the shipped content
@pytest.fixture
def ursuppe_content(tmp_path):
    return one_game_content(tmp_path, "ursuppe")


def test_mutation_food_per_colour_too_small_for_the_board_at_4_players(ursuppe_content):
    f = ursuppe_content / GAME_FILE
    edit(f, "  count: 220\n  per_colour: 55\n", "  count: 148\n  per_colour: 37\n")
    _p, diags = validate(ursuppe_content, None, seeds=1)
    # 3 players: each colour's supply share computes to 37 - 19 x 2 = -1 (a diagnostic at the share);
    # the knock-on shortages are not reported on top of it
    share = "  per_player: per_colour(food) - value(setup-food-board.spaces) * value(setup-food-board.per_space)"
    assert [(d.code, d.line) for d in diags] == [("RB307", line_of(f, share))]
    assert "per_player: the amount computes to -1 with 3 players" in diags[0].message
