"""The shipped Ulm data: clean, and the components page says what each player count uses."""

import pytest

from conftest import ROOT
from generator.cli import validate
from generator.engine.setup import all_setups
from generator.render import component_table


@pytest.fixture(scope="module")
def ulm():
    project, diags = validate(ROOT / "content", ["ulm"])
    assert [d for d in diags if d.severity.value == "error"] == []
    return project.games["ulm"].model


def test_ulm_supports_two_to_four_players_in_both_modes(ulm):
    assert (ulm.players.min, ulm.players.max) == (2, 4)
    assert {m.id for m in ulm.modes} == {"basic", "tower-variant"}


@pytest.mark.parametrize("mode", ["basic", "tower-variant"])
def test_what_each_player_count_uses(ulm, mode):
    rows = {r["component"].id: r for r in component_table(ulm, all_setups(ulm), mode)}
    # the player-colour pieces follow the number of players; the rest is used whole
    assert rows["barge"]["used"] == [2, 3, 4]
    assert rows["seal"]["used"] == [26, 39, 52] and rows["seal"]["left"] == [26, 13, 0]
    assert rows["family-shield"]["used"] == [6, 9, 12]
    # 10 of the 12 tower tiles are stacked, 2 go back to the box; 4 of 8 descendants are shown
    assert rows["tower-tile"]["left"] == [2, 2, 2]
    assert rows["descendant"]["used"] == [4, 4, 4]
    assert rows["action-tile"]["used"] == [50, 50, 50]


def test_every_unknown_count_names_a_gap_that_the_page_shows(ulm):
    gaps = {g.id for g in ulm.gaps}
    for comp in ulm.components:
        for kind in comp.kinds:
            if kind.count is None:
                assert (kind.gap or comp.gap) in gaps, kind.id


def test_a_changed_card_value_reaches_the_simulation(tmp_path):
    """The module reads the cards' numbers from `values:`: the cathedral card's 6 points for a
    discard, changed to 7 in a copy of the content, change exactly those gains and the score."""
    import re

    from conftest import edit, one_game_content
    from generator.engine.play import play

    content = one_game_content(tmp_path, "ulm")
    shipped, _d = validate(content, ["ulm"], simulation=False)
    edit(content / "ulm" / "cards.yaml", "    values:\n      points: 6\n      parts: 3\n",
         "    values:\n      points: 7\n      parts: 3\n")
    changed, diags = validate(content, ["ulm"], simulation=False)
    assert [d for d in diags if d.severity.value == "error"] == []
    gain = re.compile(r"r\d+ t\d+: P(\d) \+(\d+) points \(cathedral card\)")
    for seed in range(30):
        before = play(shipped.games["ulm"].model, 3, "basic", seed, keep_log=True)
        plays = [m for m in map(gain.match, before.log) if m]
        if plays:
            break
    assert plays, "no seed in 0-29 discards a cathedral card"
    after = play(changed.games["ulm"].model, 3, "basic", seed, keep_log=True)
    assert {m.group(2) for m in plays} == {"6"}
    assert [(m.group(1), m.group(2)) for m in map(gain.match, after.log) if m] == [(m.group(1), "7") for m in plays]
    extra = [sum(m.group(1) == str(p + 1) for m in plays) for p in range(3)]
    assert after.scores == [s + e for s, e in zip(before.scores, extra)]
