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
