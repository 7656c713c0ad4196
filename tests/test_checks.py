"""One failing fixture per diagnostic code: a valid content folder with one thing broken.

Each case names the file to edit, the text to replace, and the diagnostic expected: its
code, and the line and column of the value at fault."""

from pathlib import Path

import pytest

from conftest import ROOT, edit, mark_current
from generator.cli import validate
from generator.diagnostics import CODES

GAME = "tiny/game.yaml"
SITE = "site.yaml"

CASES = [
    # (id, file, old, new, code, line, column)
    ("yaml-syntax", GAME, "designer: Test Designer", "designer: [Test", "RB001", 4, 11),
    ("duplicate-key", GAME, "designer: Test Designer", "designer: Test Designer\ndesigner: Other", "RB002", 5, 1),
    ("unsafe-yaml", GAME, "designer: Test Designer", "designer: !!python/name:os.system x", "RB003", 4, 11),
    ("bad-file", SITE, None, "- just\n- a list\n", "RB004", 1, 1),
    ("bad-character", GAME, "designer: Test Designer", "designer: Te\u200bst Designer", "RB006", 4, 13),
    ("over-cap", GAME, "designer: Test Designer", "designer: " + "x" * 10_001, "RB007", 4, 10_001),
    ("wrong-type", GAME, "colours: 3", "colours: three", "RB100", 6, 10),
    ("missing-key", GAME, "designer: Test Designer\n", "", "RB101", 2, 1),
    ("unknown-key", GAME, "  - id: pawn\n", "  - id: pawn\n    cuont: 3\n", "RB102", 23, 5),
    ("duplicate-id", GAME, "id: step-take", "id: step-cubes", "RB200", 46, 9),
    ("unresolved-reference", GAME, "    to: hand\n    text: {zh-TW: \"每位", "    to: hands\n    text: {zh-TW: \"每位", "RB201", 44, 9),
    ("breakdown-sum", GAME, "count: null, gap: gap-red", "count: 11", "RB300", 18, 12),
    ("per-colour-count", GAME, "per_colour: 2", "per_colour: 3", "RB301", 25, 17),
    ("setup-exceeds-box", GAME, "per_player: {2: 2, 3: 2}", "per_player: {2: 2, 3: 11}", "RB302", 50, 24),
    ("player-count-table", GAME, "per_player: {2: 2, 3: 2}", "per_player: {2: 2}", "RB303", 50, 17),
    ("unknown-count", GAME, "count: null, gap: gap-red", "count: null", "RB304", 21, 81),
    ("described-count", GAME, "glossary:\n", "  - id: group-pawns\n    title: {zh-TW: 棋子, es: Peones, en: Pawns}\n"
     "    component: pawn\n    cards:\n      - {id: pawn-one, name: {zh-TW: 棋子, es: Peón, en: Pawn}, count: 5}\nglossary:\n",
     "RB305", 24, 12),
    ("total-to-each-player", GAME, "per_player: {2: 2, 3: 2}", "by_players: {2: 4, 3: 6}", "RB306", 50, 5),
    ("bad-expression", GAME, "values: {cost: 3}", "values: {cost: 3 // (3 - 3)}", "RB307", 68, 20),
    # the pawns declared not a playing piece, while a setup step deals them
    ("setup-moves-reference", GAME, "    per_colour: 2\n", "    per_colour: 2\n    role: reference\n", "RB308", 43, 16),
    ("untranslated", GAME, "name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game}",
     "name: {zh-TW: 小遊戲, es: Juego pequeño}", "RB400", 3, 7),
    ("unknown-language", GAME, "name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game}",
     "name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game, fr: Petit jeu}", "RB401", 3, 54),
    ("placeholder-mismatch", GAME, "en: \"Pay {cost} coins", "en: \"Pay {n} coins", "RB402", 67, 95),
    ("undefined-placeholder", GAME, "values: {cost: 3}", "values: {price: 3}", "RB403", 67, 19),
    ("number-mismatch", GAME, "es: El juego termina tras cinco rondas.", "es: El juego termina tras seis rondas.", "RB404", 63, 35),
    ("empty-text", GAME, "en: A small game for tests.", "en: \" \"", "RB405", 7, 70),
    ("unmatched-acknowledgement", GAME, "glossary:\n", "acknowledge:\n  - {code: RB500, at: table-cubes, key: '3',"
     " reason: {zh-TW: 照來源。, es: Como la fuente., en: As the source.}}\nglossary:\n", "RB202", 100, 41),
    ("range-gap", GAME, "{min: 3, max: 5, points: 2}", "{min: 4, max: 5, points: 2}", "RB500", 83, 11),
    ("range-overlap", GAME, "{min: 3, max: 5, points: 2}", "{min: 2, max: 5, points: 2}", "RB501", 83, 11),
    # a sheet without the game's scoring table (reported at the sheet's sections)
    ("aid-missing-table", GAME, "show: [score-cubes, table-cubes]", "show: [score-cubes]", "RB700", 108, 7),
    # a second mode, and a line only for it on the first mode's sheet
    ("aid-wrong-mode", GAME,
     ("  - {id: basic, name: {zh-TW: 基本, es: Básico, en: Basic}}", "        modes: [basic]\n        count: 2",
      "show: [turn-take, action-buy]", "label: {zh-TW: 購買的價格, es: Precio de compra, en: Price of buying}}"),
     ("  - {id: basic, name: {zh-TW: 基本, es: Básico, en: Basic}}\n  - {id: solo, name: {zh-TW: 單人, es: Solitario, en: Solo}}",
      "        modes: [solo]\n        count: 2", "show: [turn-take, action-buy, card-bonus]",
      "label: {zh-TW: 購買的價格, es: Precio de compra, en: Price of buying}}\n"
      "  - {id: aid-solo, modes: [solo], sections: [{id: aid-solo-tables, show: [table-cubes]}]}"),
     "RB701", 111, 39),
    ("aid-mode-uncovered", GAME, "  - {id: basic, name: {zh-TW: 基本, es: Básico, en: Basic}}",
     "  - {id: basic, name: {zh-TW: 基本, es: Básico, en: Basic}}\n  - {id: solo, name: {zh-TW: 單人, es: Solitario, en: Solo}}",
     "RB702", 106, 3),
    ("dangling-pointer", GAME, "en: Put all cubes in the supply.", 'en: "Put all cubes in the [supply](#suply)."', "RB710", 39, 76),
    ("pointer-mismatch", GAME, "en: Put all cubes in the supply.", 'en: "Put all cubes in the [supply](#step-take)."', "RB711", 39, 76),
    ("unlinked-pointer", GAME, "en: Put all cubes in the supply.", "en: Put all cubes in the supply (see Actions).", "RB712", 39, 76),
    ("us-spelling", GAME, "en: Put all cubes in the supply.", "en: Put all cubes in the center.", "RB730", 39, 76),
    ("source-note-in-rule", GAME, "en: Put all cubes in the supply.", "en: Put all cubes in the supply; one source says so.", "RB731", 39, 76),
    ("unsourced-item", GAME, "  - {id: src-test, title: Test source, where: tests/fixtures}",
     "  - {id: src-test, title: Test source, where: tests/fixtures}\n  - {id: src-web, title: A web page, where: https://example.org/}",
     "RB720", 35, 9),
]


def run(content: Path):
    _project, diags = validate(content, None)
    return diags


def test_the_good_fixture_is_clean(good_content):
    assert run(good_content) == []


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_each_code_has_a_failing_fixture(good_content, case):
    _id, file, old, new, code, line, column = case
    if old is None:
        (good_content / file).write_text(new, encoding="utf-8")
    elif isinstance(old, tuple):  # several edits make one problem
        for o, n in zip(old, new):
            edit(good_content / file, o, n)
    else:
        edit(good_content / file, old, new)
    diags = run(good_content)
    hits = [d for d in diags if d.code == code]
    assert hits, f"expected {code}, got {[(d.code, d.message) for d in diags]}"
    d = hits[0]
    assert d.file.endswith(file)
    assert d.line == line, (d.line, d.column, d.message)
    assert d.column == column, (d.line, d.column, d.message)
    assert d.message and d.hint


def test_every_content_code_is_covered():
    from test_engine_checks import ENGINE_CASES  # the simulation's codes (RB6xx) are covered there
    from test_engine_plugins import CODES as PLUGIN_CODES  # and the engine modules' (RB606, RB607) there
    from test_translations import TRANSLATION_CODES  # translation state and import: covered there
    covered = {c[4] for c in CASES} | {c[3] for c in ENGINE_CASES} | set(PLUGIN_CODES) | TRANSLATION_CODES
    content_codes = {c for c in CODES if not c.startswith("RB9") and c != "RB005"}
    assert content_codes - covered == set()


def test_unknown_game_on_the_command_line(good_content):
    _p, diags = validate(good_content, ["tinny"])
    assert [d.code for d in diags] == ["RB005"]
    assert "tiny" in diags[0].hint


def test_all_problems_are_collected_in_one_pass(good_content):
    edit(good_content / GAME, "per_colour: 2", "per_colour: 3")
    edit(good_content / GAME, "es: El juego termina tras cinco rondas.", "es: El juego termina tras seis rondas.")
    codes = sorted(d.code for d in run(good_content))
    assert codes == ["RB301", "RB404"]


def test_did_you_mean_for_unknown_keys(good_content):
    edit(good_content / GAME, "  - id: pawn\n", "  - id: pawn\n    cuont: 3\n")
    d = [d for d in run(good_content) if d.code == "RB102"][0]
    assert "count" in d.hint


def test_card_uses_may_name_their_cards_values(good_content):
    edit(good_content / GAME, "        kind: cube-blue", "        kind: cube-blue\n        values: {n: 2}")
    edit(good_content / GAME, "text: {zh-TW: 拿一個方塊。, es: Toma un cubo., en: Take a cube.}",
         'text: {zh-TW: "拿 {n} 個方塊。", es: "Toma {n} cubos.", en: "Take {n} cubes."}')
    mark_current(good_content)
    assert run(good_content) == []


def test_an_undefined_placeholder_in_a_card_use_is_reported_where_it_is(good_content):
    # the card has no values: {n} names nothing, in each language, at that language's text
    edit(good_content / GAME, "text: {zh-TW: 拿一個方塊。, es: Toma un cubo., en: Take a cube.}",
         'text: {zh-TW: "拿 {n} 個方塊。", es: "Toma {n} cubos.", en: "Take {n} cubes."}')
    mark_current(good_content)
    diags = run(good_content)
    assert [(d.code, d.line, d.column) for d in diags] == [("RB403", 98, 27), ("RB403", 98, 45), ("RB403", 98, 68)]
    assert "{n}" in diags[0].message and "in use-play.text" in diags[0].message  # the place, by id


def test_a_card_value_fills_its_use_text(good_content, tmp_path):
    from generator.render import render_language
    edit(good_content / GAME, "        kind: cube-blue", "        kind: cube-blue\n        values: {n: 7}")
    edit(good_content / GAME, "text: {zh-TW: 拿一個方塊。, es: Toma un cubo., en: Take a cube.}",
         'text: {zh-TW: "拿 {n} 個方塊。", es: "Toma {n} cubos.", en: "Take {n} cubes."}')
    mark_current(good_content)
    project, diags = validate(good_content, None)
    assert diags == []
    for lang, filled in (("zh-TW", "拿 7 個"), ("es", "Toma 7 "), ("en", "Take 7 ")):
        render_language(project, lang, tmp_path / lang)
        page = (tmp_path / lang / "tiny" / "cards.md").read_text(encoding="utf-8")
        assert filled in page and "{n}" not in page and "\\{n\\}" not in page


def test_a_mapping_of_schema_keys_is_not_a_text(good_content):
    # 'gap' is both a schema key and a well-formed language tag
    with open(good_content / GAME, "a", encoding="utf-8") as f:
        f.write("print:\n  gap: gap-red\n")
    assert run(good_content) == []


ODD_TEXTS = [
    "Put all cubes in the center.", "PUT THEM IN THE CENTER", "A Colorful board", "Favors: none", "Grey, not gray.",
    "ſee Actions", "Put all cubes in the supply (see Actions).", "(SEE the table)", "see the table below",
    "NEİGHBOR tiles", "The coloured centre.", "A watercolor", "Nothing to see", "Über [the color](#x) side",
    "colorſ", "the ſources say", "Según las FUENTES", "(VÉASE Acciones)", "MÁS ABAJO", "(ver", "la copia de las reglas",
    "el resumen inglés", "a WIKIPEDIA page", "WİKİPEDİA", "(see the rules", ") see the rest below", "rules summary",
]


def test_the_searches_over_all_texts_at_once_find_what_each_search_finds_in_each_text():
    """scan.Search runs its case-blind search only where a keyword is: never a miss, on odd
    case folds too (ſ, İ), on every shipped text and on texts made to match."""
    from generator.check import pointers, style
    from generator.check.scan import Search
    from generator.check.texts import texts_of
    from generator.project import read_project
    project, _ = read_project(ROOT / "content")
    shipped = [s for g in project.games.values() for _p, text, _o in texts_of(g.raw) for s in text.values()]
    searches = [style.US_WORD, *style.SOURCE_NOTE.values(), *pointers.UNLINKED.values()]
    searches = [x for x in searches if isinstance(x, Search)]
    assert len(searches) == 5
    for texts in (shipped, ODD_TEXTS, ["x", ""] + ODD_TEXTS[::-1]):
        for search in searches:
            want = {i: m.group(0) for i, t in enumerate(texts) if (m := search.pattern.search(t))}
            assert search.first(texts) == want
    assert any(search.first(ODD_TEXTS) for search in searches)  # not vacuous


def test_every_character_a_case_blind_search_folds_to_a_keyword_letter_is_lowered_to_it_or_searched_in_full():
    import re

    from generator.check import pointers, style
    from generator.check.scan import _ODD_FOLD, Search
    searches = [x for x in [style.US_WORD, *style.SOURCE_NOTE.values(), *pointers.UNLINKED.values()] if isinstance(x, Search)]
    letters = {ch for x in searches for k in x.keywords for ch in k if ch.isalpha()}
    folds = re.compile("[" + "".join(sorted(letters)) + "]", re.IGNORECASE)
    for cp in range(0x110000):
        c = chr(cp)
        if 0xD800 <= cp <= 0xDFFF or not folds.fullmatch(c):
            continue
        assert c.lower() in letters or _ODD_FOLD.fullmatch(c), f"U+{cp:04X} {c}"


def test_a_us_spelling_with_an_odd_case_fold_is_reported_not_a_crash(good_content):
    text = (good_content / "tiny" / "game.yaml").read_text(encoding="utf-8")
    import re
    m = re.search(r"en: ([A-Z][^,}\n]*)", text)
    assert m
    (good_content / "tiny" / "game.yaml").write_text(text.replace(m.group(0), "en: colorſ " + m.group(1), 1), encoding="utf-8")
    assert "RB730" in [d.code for d in run(good_content)]
