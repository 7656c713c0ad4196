"""Ursuppe against its seed (002, Kevin Lee's summary) and the recorded public sources: the
findings of the fidelity review (issue 14) that were fixed, pinned so they cannot come back.
Seed lines are quoted in each test."""

import random
import re
from functools import partial

import pytest

from fidelity import LANGS, item, items, load, seed_line, term
from generator.check.simulate import DEFAULT_SEEDS
from generator.engine.games import ursuppe
from generator.engine.play import play
from generator.engine.setup import player_counts, run_setup
from generator.engine.state import initial_box
from generator.render import linker_for, term_label

GAME = load("ursuppe").games["ursuppe"].model

_items, _item, _term = partial(items, GAME), partial(item, GAME), partial(term, GAME)


def _gap(gid):
    return next(g for g in GAME.gaps if g.id == gid)


@pytest.mark.parametrize("players", player_counts(GAME))
def test_gene_cards_are_in_play_not_in_the_box(players):
    # seed L25 「若玩家僅有三個時, 使用基因卡下方有 "3" 的卡片」, L73 phase 3 buys them:
    # the components page must not say that every gene card stays in the box
    setup = run_setup(GAME, players, "standard", 0)
    assert setup.total("box", "gene-card") < next(c.count for c in GAME.components if c.id == "gene-card")


def test_phase_five_states_the_seed_s_death_threshold():
    # seed L88 「當阿米巴受二點或更多點傷害時, 則稱為自然死亡」: the phase summary (the only death
    # text of the player aid) says "2 or more", not "too much damage"
    assert "當阿米巴受二點或更多點傷害時, 則稱為自然死亡" in seed_line("002", 88)
    phase = _item("phase-death")
    assert phase.values["damage"] == _item("death-natural").values["damage"] == 2
    for tag in LANGS:
        assert "{damage}" in phase.text[tag]
    assert "太多" not in phase.text["zh-TW"] and "too much" not in phase.text["en"]


def test_three_player_food_rules_agree_and_name_both_readings():
    # seed L57 「吃其他三位玩家顏色各一個食物」 cannot be followed by 3 players, and L24/L89 say
    # 「每種顏色」: the eat rule no longer demands every other colour, and the disagreement is
    # said on the page with both sides named, not silently picked
    assert "每種顏色二個食物" in seed_line("002", 24) and "吃其他三位玩家顏色各一個食物" in seed_line("002", 57)
    eat = _item("eat-food")
    assert "自己顏色以外的每種顏色" not in eat.text["zh-TW"]
    assert "四人遊戲" in eat.text["zh-TW"] and "four players" in eat.text["en"]
    for iid in ("eat-food", "death-natural", "setup-food-board"):
        assert _item(iid).gap == "gap-three-players", iid
    gap = _gap("gap-three-players").text
    for tag in LANGS:
        assert "Kevin Lee" in gap[tag] and "keirat" in gap[tag] and "Spieleteufel" in gap[tag], tag
    sources = _item("setup-food-board").source
    assert {"seed-002", "src-keirat", "src-spieleteufel"} <= set(sources)


@pytest.mark.parametrize("players", player_counts(GAME))
def test_the_colour_nobody_chose_stays_in_the_box(players):
    # a Spanish rules text: 「Los cubos de comida y las amebas de colores que no se hayan elegido deben
    # guardarse」; the components page must not count them as used with three players
    food = next(c for c in GAME.components if c.id == "food")
    setup = run_setup(GAME, players, "standard", 0)
    assert setup.total("box", "food") == food.per_colour * (GAME.colours - players)
    assert "src-entretenimiento" in _item("setup-food-supply").source
    assert play(GAME, players, "standard", 0).ok


def test_a_large_bp_chip_is_worth_five():
    # the gap "how much is a large BP chip" is settled by the Spanish rules text 「Los grandes BP
    # cuentan como 5」; the simulation pays with that value instead of sampling one
    assert _item("setup-bp").values == {"small": 1, "large": 5}
    assert "gap-bp-large" not in {g.id for g in GAME.gaps}
    assert "large_bp" not in ursuppe.parameters(GAME, random.Random(0))
    box, endless = initial_box(GAME)
    state = ursuppe.new_state(GAME, run_setup(GAME, 4, "standard", 0), 0, box, endless,
                              ursuppe.parameters(GAME, random.Random(0)))
    assert state.per_bp == {ursuppe.SMALL: 1, ursuppe.LARGE: 5}


def test_rule_texts_carry_no_notes_about_which_source_says_what():
    # issue 14: editorial notes about sources live in `source:` and gaps, not inside rule text
    pattern = re.compile(r"根據(英文|一份|德文)|取自|英文規則副本|德文評論|according to (the|an) (english|german)"
                         r"|comes from the|según (la|el|un|una) (copia|resumen|glosario|reseña)|procede de", re.I)
    for item in _items():
        for tag in LANGS:
            if item.text and tag in item.text:
                assert not pattern.search(item.text[tag]), (item.id, tag, item.text[tag])


def test_a_starving_amoeba_does_not_excrete():
    # seed L57 「當阿米巴吃夠足夠的食物後, 則吐出自己顏色的二個食物」: excretion follows a full
    # meal; gap-starving keeps only what the sources leave open (eating the few cubes there)
    assert "當阿米巴吃夠足夠的食物後, 則吐出自" in seed_line("002", 57)
    assert "排出" not in _gap("gap-starving").text["zh-TW"]
    assert "excrete" not in _gap("gap-starving").text["en"]
    assert "spieletest" in str(_item("eat-excrete").source) and "does not excrete" in _item("eat-excrete").text["en"]
    params = ursuppe.parameters(GAME, random.Random(0))
    assert "starving_excretes" not in params


def test_the_food_shortage_figure_covers_both_readings_of_where_eaten_food_goes():
    # no source says where eaten cubes go (gap-eaten-food): the validator's seeds sample both
    # readings, and the food runs short under each, so the page's figure is not a guess about it
    seen = {}
    for players in player_counts(GAME):
        for seed in range(DEFAULT_SEEDS):
            out = play(GAME, players, "standard", seed)
            assert out.ok, out.fault
            seen.setdefault(out.params["eaten_food"], []).append(bool(out.ran_out.get("food")))
    assert set(seen) == {"supply", "out"}
    assert all(all(v) for v in seen.values()), seen
    assert "都試過" in _gap("gap-eaten-food").text["zh-TW"] and "both readings" in _gap("gap-eaten-food").text["en"]


def test_ascending_order_is_also_the_order_of_the_first_amoebas():
    # seed L30 「分數少的玩家先放置第一隻阿米巴在場上」: not "only phase 1"
    assert "分數少的玩家先放置第一隻阿米巴在場上" in seed_line("002", 30)
    definition = _term("term-ascending").definition
    assert "只用於" not in definition["zh-TW"] and "only" not in definition["en"].lower()
    assert "準備" in definition["zh-TW"] and "setup" in definition["en"]


def test_score_track_spaces_link_to_the_score_track_not_to_soup_spaces():
    # seed L28 「計分格」: a tooltip on the track's spaces must not define a soup space
    for tag in LANGS:
        linker = linker_for(GAME, tag)
        for iid in ("score-skip", "setup-score-markers"):
            html = linker.render(_item(iid).text[tag])
            assert term_label("ursuppe", "term-space") not in html, (iid, tag, html)


def test_scoring_moves_the_marker_in_grammatical_chinese():
    # 前進 is intransitive: 「前進計分標記」 was ungrammatical
    for iid in ("phase-scoring", "score-phase-six"):
        assert "前進計分標記" not in _item(iid).text["zh-TW"] and "標記前進" not in _item(iid).text["zh-TW"]
