"""Ulm against its two seeds (000 zh-TW, 001 es), after the fidelity review: where the seeds
disagree the page says so and names both; what one seed states is not hedged; no source notes
inside rule text or card texts."""

import re

from fidelity import LANGS, credits_as_the_seed_states, english_text, game_fixtures, said, seed_line

GAME = "ulm"


project, ulm, page = game_fixtures(GAME, "ulm")


def item(game, item_id):
    everything = (game.setup + game.rounds.start + game.rounds.turn + game.rounds.end + game.actions
                  + game.scoring.during + game.scoring.final + game.scoring.tie_breaks
                  + [i for s in game.rules for i in s.items] + [c for g in game.cards for c in g.cards])
    return next(i for i in everything if i.id == item_id)


# The first tie-break: seed 000 line 302 counts seals in the quarters, seed 001 line 136 counts
# quarters with seals. Both are stated, each with its source, and the open question is a gap.
BOTH_TIE_BREAKS = {
    "zh-TW": ("中文來源", "城區裡徽章數量較多", "西班牙文來源", "徽章分布的城區比其他玩家都多"),
    "es": ("fuente china", "más sellos en los barrios", "fuente en español", "en más barrios que los de cualquier otro"),
    "en": ("Chinese source", "more seals in the quarters", "Spanish source", "in more quarters than anyone else"),
}


def test_the_seeds_disagree_on_the_first_tie_break():
    assert "城區裏徽章數量較多的玩家勝出" in seed_line("000", 302)
    assert "cuyos sellos estén representados en más barrios" in seed_line("001", 136)


def test_the_tie_break_states_both_seeds_rules_and_names_both_sources(ulm):
    first = ulm.scoring.tie_breaks[0]
    assert set(first.source) == {"seed-000", "seed-001"}
    assert {s.id: s.language for s in ulm.sources}["seed-000"] == "zh-TW"
    assert {s.id: s.language for s in ulm.sources}["seed-001"] == "es"
    for tag, (src_a, rule_a, src_b, rule_b) in BOTH_TIE_BREAKS.items():
        text = said(first, tag)
        assert text.index(src_a) < text.index(rule_a) < text.index(src_b) < text.index(rule_b), (tag, text)
    assert first.gap in {g.id for g in ulm.gaps}


def test_the_rulebook_page_shows_both_tie_breaks_in_every_language(page):
    for tag, phrases in BOTH_TIE_BREAKS.items():
        index = page[(tag, "index")]
        for phrase in phrases:
            assert phrase in index, (tag, phrase)
        # both seeds are named in the list of sources, by title (not by file name); the tie-break
        # links to the Spanish one, which is not the primary source
        sources = index[index.index("(ulm-sources)="):]
        assert "Ulm 烏姆城" in sources and "Reglas del juego Ulm" in sources
        assert "_4edbb4431cdd5f62.txt" not in index
        assert "](#ulm-seed-001)" in index[:index.index("(ulm-sources)=")]


def test_a_blocked_row_reopens_when_the_outer_tiles_are_removed_a_clear_action_being_one_way(ulm):
    # seed 001 line 75: "por ejemplo, cuando un jugador ha utilizado una acción de eliminación";
    # Reformation (a chronicle card) and the reset rule remove pushed-out tiles too
    freed = item(ulm, "grid-freed")
    assert "只有" not in said(freed, "zh-TW") and "solo" not in said(freed, "es") and "only" not in said(freed, "en")
    assert "例如" in said(freed, "zh-TW") and "por ejemplo" in said(freed, "es") and "for example" in said(freed, "en")
    # the seeds' two wordings are a gap the rule names (given once under "Sources and gaps"),
    # not a "note on the sources" item inside the rules chapter
    assert freed.gap == "gap-freeing-rows"
    gap = next(g for g in ulm.gaps if g.id == "gap-freeing-rows")
    assert "中文來源" in gap.text["zh-TW"] and "西班牙文來源" in gap.text["zh-TW"] and "por ejemplo" in gap.text["en"]
    assert not [i for i in ulm_items(ulm) if i.id.endswith("-sources")]
    blocked = next(t for t in ulm.glossary if t.id == "term-blocked-row")
    assert "cleared" not in blocked.definition["en"] and "removed" in blocked.definition["en"]


def test_silver_coats_of_arms_also_put_a_seal_on_the_cathedral_edge(ulm):
    # seed 000 lines 53-55: silver or gold, the player puts a seal on the cathedral edge
    assert "無論是銀邊或金邊" in seed_line("000", 55)
    mark = item(ulm, "coa-cathedral-mark")
    assert "銀邊" in said(mark, "zh-TW") and "plateado" in said(mark, "es") and "silver" in said(mark, "en")
    for it in (item(ulm, "coa-silver"), item(ulm, "coa-silver-tiles")):
        assert "教堂區邊緣" in said(it, "zh-TW") and "borde" in said(it, "es") and "edge of the cathedral" in said(it, "en")
        assert "只提供" not in said(it, "zh-TW") and "only" not in said(it, "en")
    silver = next(t for t in ulm.glossary if t.id == "term-silver-edge")
    assert "only" not in silver.definition["en"] and "cathedral edge" in silver.definition["en"]


def test_cleared_tiles_go_face_down_as_the_chinese_seed_says_and_no_tile_side_says_all(ulm):
    clear = item(ulm, "action-clear")
    assert "正面朝下" in said(clear, "zh-TW") and "boca abajo" in said(clear, "es") and "face down" in said(clear, "en")
    assert "所有" not in said(clear, "zh-TW")
    for tag, word in (("zh-TW", "來源"), ("es", "fuente"), ("en", "source")):
        assert word not in said(clear, tag)


def test_no_dangling_descendants_page_and_the_card_reference_is_named_as_the_site_names_it(page):
    for tag, wrong, right in (("zh-TW", "傳人頁", "卡片參考"), ("es", "página de descendientes", "Referencia de cartas"),
                              ("en", "descendants page", "Card reference")):
        index = page[(tag, "index")]
        assert wrong not in index
        assert right in index  # the link to the card reference is labelled so, and the text names it


def test_the_cards_page_labels_the_chronicle_cards(ulm, page):
    group = next(g for g in ulm.cards if g.id == "chronicle-cards")
    assert {c.kind for c in group.cards} == {"card-chronicle"}
    assert group.title == {"zh-TW": "紀事卡", "es": "Cartas de crónica", "en": "Chronicle cards"}
    for tag in LANGS:
        cards = page[(tag, "cards")]
        heading = cards.index("\n## " + group.title[tag])
        for card in group.cards:
            assert cards.index(card.name[tag]) > heading


def test_no_source_notes_inside_card_texts_or_action_and_turn_rules(ulm):
    """Which source says what belongs with the sources and gaps, not in the rule a player reads
    at the table, nor on a card insert. A seed disagreement that changes a rule is the exception:
    the rule states both (the tie-break) or a note of its own sits after it."""
    words = {"zh-TW": "來源", "es": "fuente", "en": "source"}
    texts = [u.text for g in ulm.cards for c in g.cards for u in c.uses]
    texts += [c.text for g in ulm.cards for c in g.cards if c.text]
    texts += [i.text for i in ulm.setup + ulm.rounds.start + ulm.rounds.turn + ulm.actions if i.text]
    texts += [i.text for s in ulm.rules for i in s.items if i.text and not i.id.endswith("-sources")]
    for text in texts:
        for tag, word in words.items():
            assert word not in text[tag].lower(), text[tag]


def test_loading_docks_hold_one_of_each_colour_only_at_setup(ulm):
    docks = next(t for t in ulm.glossary if t.id == "term-loading-docks")
    assert "準備時" in docks.definition["zh-TW"] and "at setup" in docks.definition["en"]


def test_every_shown_fact_has_a_listed_source_the_year_too(ulm):
    assert ulm.year == 2016
    assert any(str(ulm.year) in s.title and s.where.startswith("https://") for s in ulm.sources)


def test_no_invented_per_language_card_set(ulm):
    card = next(c for c in ulm.components if c.id == "card")
    assert "33" not in card.note["zh-TW"] and "33" not in card.note["en"]


def test_english_uses_one_spelling_and_no_gendered_pronoun_for_players(ulm):
    english = english_text(ulm)
    assert not re.search(r"\b(gray|color|colors|colored|favor|center)\b", english), \
        re.search(r".{30}\b(gray|color|colors|colored|favor|center)\b.{30}", english)
    assert not re.search(r"\b(he|his|him|she|her)\b", english)


def test_chinese_uses_the_seeds_terms(ulm, page):
    zh = page[("zh-TW", "index")] + page[("zh-TW", "cards")] + page[("zh-TW", "glossary")]
    for seed_term in ("百搭", "矩陣", "改革", "漁夫的角力", "烏姆第 1 紀年"):
        assert seed_term in zh
    for drift in ("萬用", "方陣", "宗教改革", "漁夫角力", "烏姆第一紀年", "1 個遊船", "選擇性："):
        assert drift not in zh


def ulm_items(ulm):
    return [i for section in ulm.rules for i in section.items]


def test_the_rules_come_in_two_booklets_that_are_not_playing_pieces(ulm):
    # seed 000 l.534 「2 本規則書」 (l.35: one for the rules, one for the history and the components);
    # seed 001 l.17: «instrucciones en 2 partes: el reglamento básico y el Ulm Chronicle»
    assert seed_line("000", 534).strip() == "2 本規則書"
    assert "instrucciones en 2 partes: el reglamento básico y el Ulm Chronicle" in seed_line("001", 17)
    booklets = next(c for c in ulm.components if c.id == "rules-booklet")
    assert booklets.role == "reference" and booklets.count == 2
    assert [(k.id, k.count) for k in booklets.kinds] == [("rules-booklet-basic", 1), ("rules-booklet-chronicle", 1)]



def test_the_artist_and_the_boardgamegeek_page_are_the_seeds(ulm, page):
    # seed 000 l.526 「美術設計：Michael Menzel」, l.527 「BGG頁面：…」 (fidelity review: credits missing)
    credits_as_the_seed_states(ulm, "000", 526, 527, page)
