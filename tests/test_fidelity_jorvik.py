"""Jórvík against its seed (004, a Chinese blog post of the rules): the findings of the fidelity
review (issue 14) that were fixed, pinned so they cannot come back. Seed lines are quoted."""

import re
from functools import partial

import pytest

from fidelity import LANGS, credits_as_the_seed_states, item, items, load, pages, seed_line, term
from generator.engine.play import play
from generator.engine.setup import player_counts, run_setup

GAME = load("jorvik").games["jorvik"].model

_items, _item, _term = partial(items, GAME), partial(item, GAME), partial(term, GAME)


def test_the_interest_trail_lies_below_its_card():
    # seed l.100 「卡片區 5 上船卡下方的興趣步道」, l.107 「興趣步道上方的卡片」
    assert "卡片區 5 上船卡下方的興趣步道" in seed_line("004", 100)
    definition = _term("term-trail").definition
    assert "上方" not in definition["zh-TW"] and "下方" in definition["zh-TW"]
    assert "below the card" in definition["en"] and "debajo de la carta" in definition["es"]


def test_cards_act_outside_the_personal_card_area_too():
    # seed l.194 the free purchase works 「購買的當階段也適用」 (the card is still in the unloading
    # area), l.193/l.201 on-purchase cards never reach the personal area: the glossary must not
    # say that only cards there take effect
    definition = _term("term-personal-area").definition
    assert "只有這裡的卡片在遊戲中" not in definition["zh-TW"]
    assert "only these act" not in definition["en"] and "solo ellas actúan" not in definition["es"]


def test_the_jarl_game_does_not_use_all_cards():
    # seed l.73, l.75 「賈爾遊戲模式時也移除以上秋天卡」
    assert "賈爾遊戲模式時也移除以上秋天卡" in seed_line("004", 73)
    jarl = next(m for m in GAME.modes if m.id == "jarl")
    for text in (jarl.text, _term("term-jarl").definition):
        assert "使用所有卡片" not in text["zh-TW"] and "所有卡片" not in text["zh-TW"]
        assert "all cards" not in text["en"] and "todas las cartas" not in text["es"]
        assert "秋天卡" in text["zh-TW"] and "autumn" in text["en"]


def test_the_round_text_agrees_with_the_end_of_the_game():
    # seed l.153 「供應階段一開始，當最後『皮特克人的進攻』卡是牌庫裏唯一的一張卡片時，遊戲結束」:
    # not "when the deck runs out" (the player aid prints this text)
    assert "是牌庫裏唯一的一張卡片時，遊戲結束" in seed_line("004", 153)
    text = _item("round-phases").text
    assert "牌庫用完" not in text["zh-TW"] and "runs out" not in text["en"] and "se agota" not in text["es"]
    assert "最後的皮克特人進攻卡" in text["zh-TW"] and "final Attack of the Picts" in text["en"]


@pytest.mark.parametrize("iid", ["demand-cleanup", "demand-cleanup-jarl", "buy-nobody", "buy-reserve"])
def test_goods_on_every_discarded_ship_go_to_the_common_goods_area(iid):
    # seed l.97 「如果一張船卡被棄掉…所有在該張船上的貨物方塊都要放到遊戲圖板上的共同貨物區」
    assert "所有在該張船上的貨物方塊都要放到遊戲圖板上的共同貨物區" in seed_line("004", 97)
    text = _item(iid).text
    assert "共同貨物區" in text["zh-TW"], iid
    assert "common goods area" in text["en"] and "zona común" in text["es"], iid
    assert "If such a card is a ship" not in text["en"]


@pytest.mark.parametrize("mode", ["karl", "jarl"])
def test_starting_coins_lie_in_front_of_the_player_not_in_the_viking_supply(mode):
    # seed l.55, l.69 「從一般供應區拿取 5 元並把它們放到你的面前」
    assert "放到你的面前" in seed_line("004", 55) and "放到你的面前" in seed_line("004", 69)
    for players in player_counts(GAME, mode):
        setup = run_setup(GAME, players, mode, 0)
        for p in range(1, players + 1):
            assert setup.total(f"player-supply#{p}", "coin") == 0
            assert setup.total(f"player-area#{p}", "coin") == _item("setup-player-coins").per_player
    out = play(GAME, player_counts(GAME, mode)[0], mode, 0)
    assert out.ok, out.fault


def test_the_seed_s_card_name_for_the_picts_is_findable():
    # the seed writes the card 「皮特克人的進攻」 (l.35, 48, 84, 153 …); the pages spell the people 皮克特
    assert "皮特克人的進攻" in _term("term-pict-attack").aliases["zh-TW"]


def test_no_unsourced_editorial_claims():
    # not in the seed: "skald", the trickster-god flavour, wooden figures, and which Jórvík card
    # each Speicherstadt card became (l.20-23 name only the Speicherstadt cards)
    bard = _term("term-bard")
    assert "skald" not in bard.definition["en"] and "skald" not in bard.aliases.get("en", [])
    assert "escaldo" not in bard.aliases.get("es", [])
    assert "trickster" not in _term("term-loki").definition["en"]
    assert "wooden" not in _term("term-viking").definition["en"]
    for iid in ("diff-snitch", "diff-smuggler", "diff-mayor", "diff-auction-hall-effect"):
        for tag in LANGS:
            assert "Jórvík" not in _item(iid).text[tag] and "約克城" not in _item(iid).text[tag], (iid, tag)


def test_the_oracle_card_has_one_name_in_every_language():
    # seed l.180 「神諭卡」: zh said oracle, es/en said god
    term = _term("term-god").term
    assert term["zh-TW"] == "神諭卡" and term["en"] == "oracle card" and term["es"] == "carta de oráculo"


def test_notes_about_sources_live_in_gaps_not_in_rule_items():
    # issue 14: which source says what is a gap's or a source's business; the Speicherstadt
    # comparison chapter is the one place that is about another game's rules
    pattern = re.compile(r"擴充規則|倉庫城|心得|Speicherstadt|Kaispeicher|review|reseña", re.I)
    comparison = {i.id for s in GAME.rules if s.id == "rules-speicherstadt" for i in s.items}
    for it in _items():
        if it.id in comparison or not it.text:
            continue
        for tag in LANGS:
            assert not pattern.search(it.text[tag]), (it.id, tag)
    gap = next(g for g in GAME.gaps if g.id == "gap-card-slots").text
    assert "Kaispeicher" in gap["en"] and "Kaispeicher" in gap["zh-TW"]


def test_the_rulebook_is_in_the_box_and_not_a_playing_piece():
    assert seed_line("004", 226).strip() == "1 本規則書"
    rulebook = next(c for c in GAME.components if c.id == "rules-booklet")
    assert rulebook.role == "reference" and rulebook.count == 1



def test_the_artist_and_the_boardgamegeek_page_are_the_seeds(tmp_path):
    # seed 004 l.219 「美術設計：Marc Margielsky」, l.220 「BGG頁面：…」 (fidelity review M3: credits missing)
    credits_as_the_seed_states(GAME, "004", 219, 220, pages(load("jorvik"), "jorvik", tmp_path))
