"""Castles of Mad King Ludwig against its seed (003, zh-TW), after the fidelity review: the
completion rewards are rules and sit in the rulebook; the player colours the seed names are not a
gap; the glossary says what the seed says; no source notes inside setup or turn text."""

import re

from fidelity import LANGS, credits_as_the_seed_states, english_text, game_fixtures, said, seed_line, values

GAME = "castles-of-mad-king-ludwig"
ROOM_TYPES = ("living", "activity", "sleeping", "outdoor", "utility", "food", "corridor", "downstairs")


project, castles, page = game_fixtures(GAME, "castles")


def section(game, section_id):
    return next(s for s in game.rules if s.id == section_id)


def test_the_rulebook_chapter_on_completing_rooms_gives_all_eight_rewards(castles):
    items = {i.id: i for i in section(castles, "rules-completion").items}
    assert [t for t in ROOM_TYPES if f"complete-{t}" in items] == list(ROOM_TYPES)
    # the seed's numbers live once, on the room-type cards the simulation plays; the rules name them
    cards = {c.id: c for g in castles.cards for c in g.cards}
    for t in ROOM_TYPES:
        rule = items[f"complete-{t}"]
        assert all(str(v).startswith(f"value(room-type-{t}.") for v in rule.values.values()), (t, rule.values)
        assert values(castles, rule) == values(castles, cards[f"room-type-{t}"]), t
    assert values(castles, items["complete-activity"]) == {"points": 5}          # seed line 184
    assert values(castles, items["complete-outdoor"]) == {"money": 10000}        # seed line 204
    assert values(castles, items["complete-food"]) == {"money": 5000}            # seed lines 216-217
    assert values(castles, items["complete-downstairs"]) == {"every": 2, "others": 7}  # seed line 246


def test_the_rulebook_page_shows_the_rewards_and_scoring_step_6_points_to_them(castles, page):
    items = {i.id: i for i in section(castles, "rules-completion").items}
    for tag in LANGS:
        index = page[(tag, "index")]
        chapter = index.index("\n## " + section(castles, "rules-completion").title[tag])
        for t in ROOM_TYPES:
            assert index.index(said(items[f"complete-{t}"], tag, castles), chapter) > chapter, (tag, t)
    step6 = next(i for i in castles.scoring.during if i.id == "score-step-completion")
    assert "完成房間" in step6.text["zh-TW"] and "Completing rooms" in step6.text["en"]
    assert "卡片參考" not in section(castles, "rules-completion").intro["zh-TW"]


def test_the_seed_names_the_four_player_colours(castles):
    line = seed_line("003", 264) + seed_line("003", 265) + seed_line("003", 266)
    for colour in ("黃色", "紅色", "綠色", "藍色"):
        assert colour in line
    assert "gap-player-colours" not in {g.id for g in castles.gaps}
    for cid in ("foyer", "player-marker"):
        comp = next(c for c in castles.components if c.id == cid)
        assert comp.gap is None
        for colour in ("黃色", "紅色", "綠色", "藍色"):
            assert colour in comp.note["zh-TW"]
        assert all(c in comp.note["en"] for c in ("yellow", "red", "green", "blue"))


def test_the_glossary_says_what_the_seed_says(castles):
    terms = {t.id: t.definition for t in castles.glossary}
    # the game ends at the end of the round the deck runs out (seed line 154)
    assert "那一輪結束後" in terms["term-room-card"]["zh-TW"] and "after the round" in terms["term-room-card"]["en"]
    # square feet: the top right corner only (seed lines 163-164), the same in every language
    assert "背面" not in terms["term-square-feet"]["zh-TW"]
    # room types are told by symbols; the seed never mentions tile colours (seed lines 126-127)
    assert "顏色" not in terms["term-room-tile"]["zh-TW"] and "colour" not in terms["term-room-tile"]["en"]


def test_the_hallway_board_links_to_its_own_definition(castles):
    # "迴廊圖板" used to link its first two characters to the hallway tile's definition
    from generator.render import linker_for
    for tag, sentence in (("zh-TW", setup_text(castles, "setup-hallway-board", "zh-TW")),
                          ("en", setup_text(castles, "setup-hallway-board", "en"))):
        linked = linker_for(castles, tag).render(sentence)
        assert "term-hallway-board" in linked and "term-hallway)" not in linked, linked


def setup_text(game, step_id, tag):
    return next(s for s in game.setup if s.id == step_id).text[tag]


def test_no_source_notes_inside_setup_turn_or_action_text(castles):
    words = {"zh-TW": "來源", "es": "fuente", "en": "source"}
    items = castles.setup + castles.rounds.start + castles.rounds.turn + castles.rounds.end + castles.actions
    for it in items:
        if it.text:
            for tag, word in words.items():
                assert word not in it.text[tag].lower(), (it.id, it.text[tag])


def test_setup_adds_nothing_the_seed_does_not_say(castles):
    steps = {s.id: s for s in castles.setup}
    # seed line 70: face down, no "without looking"; lines 60, 62: "the corresponding place"
    assert "不要看" not in steps["setup-remove-room-tiles"].text["zh-TW"]
    assert "without looking" not in steps["setup-remove-room-tiles"].text["en"]
    for sid in ("setup-room-cards", "setup-bonus-deck"):
        assert "圖板上" not in steps[sid].text["zh-TW"] and "of the board" not in steps[sid].text["en"]
    # the favour tiles are drawn at random according to a review, the count per player is the seed's
    assert set(steps["setup-favors"].source) == {"seed-003", "gamersalliance-review"}


def test_the_downstairs_symbol_has_one_name_the_seeds(castles, page):
    zh = page[("zh-TW", "index")] + page[("zh-TW", "cards")]
    assert "每個你的某種房間" in zh and "你的每個某種房間" not in zh


def test_english_uses_one_spelling_and_no_gendered_pronoun_for_players(castles):
    english = english_text(castles)
    assert not re.search(r"\b(gray|color|colors|favor|favors|center|neighbor\w*)\b", english)
    assert not re.search(r"\b(he|his|him|she|her)\b", english)


def test_spanish_names(castles):
    food = next(c for g in castles.cards for c in g.cards if c.id == "room-type-food")
    assert food.name["es"] == "Comedor"
    coins = next(c for c in castles.components if c.id == "coin")
    assert [k.name["es"] for k in coins.kinds] == ["monedas de 5000", "monedas de 1000"]



def test_the_artist_and_the_boardgamegeek_page_are_the_seeds(castles, page):
    # seed 003 l.300 「美術設計：Keith Curtis、Ollin Timm」, l.301 「BGG頁面：…」 (fidelity review: credits missing)
    credits_as_the_seed_states(castles, "003", 300, 301, page)
