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
    ("sim-engine-error-sampling", "crash-params", None, "RB605", 2, 5),  # raised past play() before
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
        if how == "sneak" and self.round == 1:  # keeps a zone to change it later, unseen
            self.kept = self.count("supply")
        if how == "sneak" and self.round == 3:
            self.kept[("cube", "cube-blue")] += 1
        if how == "sneak-move" and self.round == 1:
            self.kept = self.count("supply"), self.count("hand#1")
        if how == "sneak-move" and self.round == 3:  # a move: nothing created, but not through a primitive
            self.kept[0][("cube", "cube-blue")] -= 1
            self.kept[1][("cube", "cube-blue")] += 1

    def is_over(self):
        return self.round >= 5 and BREAK["how"] != "endless"

    def describe(self):
        if BREAK["how"] == "crash-describe":
            raise KeyError("describe")
        return super().describe()

    def final_scores(self):
        if BREAK["how"] == "crash-scores":
            raise ZeroDivisionError("division by zero")
        return super().final_scores()


def parameters(game, rng):
    if BREAK["how"] == "crash-params":
        raise ValueError("sample larger than population")
    return {}


def kind_counts(game, params):
    return None


def new_state(game, setup, seed, box, endless, params):
    return BrokenState(game, setup, seed, box, endless)


@pytest.mark.parametrize("full", ["", "1"], ids=["incremental", "full-check"])
@pytest.mark.parametrize("case", ENGINE_CASES, ids=[c[0] for c in ENGINE_CASES])
def test_each_simulation_code_has_a_failing_input(good_content, monkeypatch, case, full):
    _id, how, change, code, line, column = case
    monkeypatch.setenv("RULEBOOK_FULL_CHECK", full)  # the same diagnostics with every zone recounted every step
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


def test_a_zone_changed_behind_the_primitives_back_is_still_caught(good_content, monkeypatch):
    """The conservation check recounts only the zones a step reached; a module that keeps a zone
    and changes it later is caught by the full recount at the next round (here: the same step,
    as every step of this game is a round), and named as the module's bug with the full check."""
    monkeypatch.setitem(MODULES, "tiny", __name__)
    monkeypatch.setitem(BREAK, "how", "sneak")
    _p, diags = validate(good_content, None, seeds=1)
    assert [(d.code, d.line, d.column) for d in diags] == [("RB600", 18, 12)]
    assert "round 3" in diags[0].message and "1 'cube' created" in diags[0].message


def test_the_full_check_names_a_module_that_moves_pieces_behind_the_primitives_back(good_content, monkeypatch):
    from generator.engine.play import play
    from generator.project import read_project
    monkeypatch.setitem(MODULES, "tiny", __name__)
    monkeypatch.setitem(BREAK, "how", "sneak-move")
    game = read_project(good_content)[0].games["tiny"].model
    assert play(game, 2, "basic", 0).fault is None  # nothing created: the totals agree
    out = play(game, 2, "basic", 0, full_check=True)
    assert out.fault.code == "RB605" and out.round == 3
    assert "changed hand#1, supply behind the primitives' back" in out.fault.message


@pytest.mark.parametrize("how", ["crash", "crash-describe", "crash-scores"])
def test_a_failing_module_is_reported_in_the_transcript_too(good_content, monkeypatch, how):
    """Replaying a game with its transcript (keep_log) once raised UnboundLocalError when the
    module failed before its first description: the fault must be reported, never raised."""
    from generator.engine.play import play
    from generator.project import read_project
    monkeypatch.setitem(MODULES, "tiny", __name__)
    monkeypatch.setitem(BREAK, "how", how)
    game = read_project(good_content)[0].games["tiny"].model
    out = play(game, 2, "basic", 0, keep_log=True)
    assert out.fault is not None and out.fault.code == "RB605", out.fault
    assert "the engine module failed" in out.fault.message
    assert out.log[0] == "# tiny, 2 players, basic, seed 0" and out.log[-1].startswith("# FAULT RB605")


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
    assert [(d.code, d.line, d.column) for d in diags] == [("RB302", line_of(f, "  per_player: 7"), 3)]  # the amount
    assert diags[0].message == ("with 4 players (basic) each player takes 7 'coin' from 'general-supply': 28 in all, "
                                "but it holds 26 before this step (and with 4 players (tower-variant))")


def test_mutation_tower_tiles_too_few_for_the_rounds(ulm_content):
    f = ulm_content / ULM
    edit(f, "  count: 12\n  note:\n    zh-TW: 用來標示輪數", "  count: 11\n  note:\n    zh-TW: 用來標示輪數")
    # 11 tiles while the card reference describes 12: a static diagnostic (RB305) at the count ...
    _p, diags = validate(ulm_content, None, seeds=1)
    assert [(d.code, d.line) for d in diags] == [("RB305", line_of(f, "  count: 11"))]
    # ... and with one described tile fewer too, the simulation finds the round stack empty
    cards = ulm_content / "ulm" / "cards.yaml"
    text = cards.read_text(encoding="utf-8")
    start = text.index("  - id: tower-choose-tile\n")
    cards.write_text(text[:start] + text[text.index("- id: coats-of-arms-tiles\n", start):], encoding="utf-8")
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


@pytest.mark.parametrize("old, new", [
    ("    en: city coats of arms\n  count: 12\n", "    en: city coats of arms\n  count: 0\n"),
    ("    en: city coats of arms\n  count: 12\n", "    en: city coats of arms\n  count: 1\n"),
    ("    en: city coats of arms\n  count: 12\n", "    en: city coats of arms\n  count: 99\n"),
    ("    en: tower tiles\n  count: 12\n", "    en: tower tiles\n  count: 13\n"),
], ids=["no-coats", "one-coat", "99-coats", "13-tower-tiles"])
def test_mutation_odd_counts_are_played_not_crashed_on(ulm_content, old, new):
    """Found by the property test: more tower tiles than the data describes ran the module out of
    names (StopIteration), and 0, 1 or 99 coats of arms made sampling the unknowns raise past
    the simulation's guard (validate itself crashed). A piece beyond the described cards has no
    rule now, a coat beyond the 12 push positions marks none, and a failure while sampling is RB605."""
    edit(ulm_content / ULM, old, new)
    _p, diags = validate(ulm_content, None, seeds=1)
    assert not [d for d in diags if d.code == "RB605"], [(d.code, d.message) for d in diags]


def test_mutation_cathedral_grid_not_nine_tiles(ulm_content):
    """The grid's tile counts are values now ({brown} brown …): a grid of 8 is a diagnostic at the
    step, not a crash of the module (found by the property test of test_hostile_fuzz.py)."""
    f = ulm_content / ULM
    edit(f, "    brown: 1\n", "    brown: 0\n")
    _p, diags = validate(ulm_content, None, seeds=1)
    assert [(d.code, d.line) for d in diags] == [("RB302", line_of(f, "- id: setup-grid"))]
    assert "the cathedral grid is 3×3 = 9 tiles, but setup puts 8 there" in diags[0].message
