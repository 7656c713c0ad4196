"""One failing input per simulation diagnostic (RB600-RB605), asserting code, file, line, column.

The invariants are exercised with a deliberately broken engine module for the tests' tiny game;
the Ulm cases break one number in a copy of the shipped content (mutation tests)."""


import pytest

from conftest import edit, line_of, one_game_content
from generator.cli import validate
from generator.engine.games import MODULES
from generator.engine.state import State

GAME = "tiny/game.yaml"
ULM = "ulm/game.yaml"
BREAK = {"how": ""}

# (id, break the module how, edit to tiny (old, new) or None, code, line, column)
ENGINE_CASES = [
    ("sim-conservation", "create", None, "RB600", 18, 12),
    ("sim-negative", "negative", None, "RB601", 16, 5),
    ("sim-score-off-track", "score", ("  - {id: supply, name: {zh-TW: 供應區, es: reserva, en: supply}}",
                                      "  - {id: supply, name: {zh-TW: 供應區, es: reserva, en: supply}, track_max: 10}"),
     "RB602", 31, 74),
    ("sim-no-end", "endless", None, "RB603", 54, 10),
    ("sim-empty-pile", "empty", None, "RB604", 31, 5),
    ("sim-engine-error", "crash", None, "RB605", 2, 5),
]


class BrokenState(State):
    """A game that plays 5 rounds of one 'step' each and breaks one invariant on purpose."""

    score_zone = "supply"

    def legal_actions(self):
        return [("step",)]

    def apply(self, action):
        how = BREAK["how"]
        self.round += 1
        self.turn += 1
        self.say(f"step {self.round}")
        if how == "create" and self.round == 2:
            self.count("supply")[("cube", "cube-blue")] += 1
        if how == "negative" and self.round == 2:
            self.count("supply")[("cube", "cube-blue")] -= 21
            self.count("hand#1")[("cube", "cube-blue")] += 21
        if how == "score":
            self.gain_points(0, 4, "a step")
        if how == "empty" and self.round == 2:
            self.draw("supply")
        if how == "crash" and self.round == 2:
            raise KeyError("oops")

    def is_over(self):
        return self.round >= 5 and BREAK["how"] != "endless"


def parameters(game, rng):
    return {}


def kind_counts(game, params):
    return None


def new_state(game, setup, seed, box, endless, params):
    return BrokenState(game, setup, seed, box, endless)


@pytest.mark.parametrize("case", ENGINE_CASES, ids=[c[0] for c in ENGINE_CASES])
def test_each_simulation_code_has_a_failing_input(good_content, monkeypatch, case):
    _id, how, change, code, line, column = case
    monkeypatch.setitem(MODULES, "tiny", __name__)
    monkeypatch.setitem(BREAK, "how", how)
    if change:
        edit(good_content / GAME, *change)
    _p, diags = validate(good_content, None, seeds=2)
    hits = [d for d in diags if d.code == code]
    assert hits, [(d.code, d.message) for d in diags]
    d = hits[0]
    assert d.file.endswith(GAME)
    assert (d.line, d.column) == (line, column), d.message
    assert "tiny, 2 players, basic, seed 0" in d.message and "round" in d.message
    assert d.hint.startswith("replay it with")


def test_no_simulation_with_no_sim(good_content, monkeypatch):
    monkeypatch.setitem(MODULES, "tiny", __name__)
    monkeypatch.setitem(BREAK, "how", "create")
    _p, diags = validate(good_content, None, simulation=False)
    assert diags == []


@pytest.fixture
def ulm_content(tmp_path):
    return one_game_content(tmp_path, "ulm")


def test_mutation_per_player_count_exceeds_the_box_at_4_players(ulm_content):
    f = ulm_content / ULM
    edit(f, "  do: place\n  component: coin\n  per_player: 2\n", "  do: place\n  component: coin\n  per_player: 7\n")
    _p, diags = validate(ulm_content, None, seeds=1)
    assert [(d.code, d.line, d.column) for d in diags] == [("RB302", line_of(f, "- id: setup-player-coins"), 3)]
    assert "with 4 players (basic) this step takes 7 'coin' from 'general-supply', which holds 5 at this point" in diags[0].message


def test_mutation_tower_tiles_too_few_for_the_rounds(ulm_content):
    f = ulm_content / ULM
    edit(f, "  count: 12\n  note:\n    zh-TW: 用來標示輪數", "  count: 11\n  note:\n    zh-TW: 用來標示輪數")
    _p, diags = validate(ulm_content, None, seeds=1)
    assert [(d.code, d.line, d.column) for d in diags] == [("RB604", line_of(f, "- id: round-stack"), 3)]
    d = diags[0]
    assert "simulation of ulm, 2 players, tower-variant, seed 0, round 10" in d.message
    assert "a draw from 'round-stack' found it empty" in d.message


def test_mutation_draw_pile_without_its_reshuffle_rule(ulm_content):
    f = ulm_content / ULM
    edit(f, "  on_empty: reshuffle\n  refill_from: discard-pile\n", "")
    edit(f, "  count: 33\n", "  count: 12\n")  # a deck too small for the game
    _p, diags = validate(ulm_content, None, seeds=3)
    codes = {(d.code, d.line) for d in diags}
    assert ("RB604", line_of(f, "- id: draw-pile")) in codes, [(d.code, d.message) for d in diags]
