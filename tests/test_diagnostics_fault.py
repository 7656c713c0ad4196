"""Diagnostics that point at the fault (issue 13, parts 3-6): each mistake a newcomer made, with
the exact code, file, line and column it must get, and nothing that only follows from it."""

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import ROOT, edit, mark_current
from generator.cli import validate
from generator.diagnostics import format_text

GAME = "tiny/game.yaml"
ACK_REASON = "reason: {zh-TW: 審校過。, es: Revisado., en: Reviewed.}"


def run(content: Path, sim: bool = False):
    mark_current(content)  # the edits write a text in every language at once, as an author does
    _p, diags = validate(content, None, simulation=sim)
    return diags


def found(diags):
    return [(d.code, Path(d.file).name, d.line, d.column) for d in diags]


# ---- RB404: numbers as an author writes them, and blame on the language that differs

@pytest.mark.parametrize("zh, es, en", [
    ("二選一：拿方塊或錢幣。", "'Elige una de dos: cubos o monedas.'", "'Choose one of two: cubes or coins.'"),
    ("三到五人時，每人拿方塊。", "'De tres a cinco jugadores, cada uno toma cubos.'", "'With three to five players, each takes cubes.'"),
    ("再一次拿方塊。", "Toma cubos otra vez.", "Take cubes a second time."),
    ("拿走一半的方塊。", "Toma la mitad de los cubos.", "Take half of the cubes."),
    ("第三位玩家拿十二個方塊。", "El tercer jugador toma doce cubos.", "The third player takes twelve cubes."),
])
def test_correct_translations_agree(good_content, zh, es, en):
    edit(good_content / GAME, "{zh-TW: 從供應區拿方塊。, es: Toma cubos de la reserva., en: Take cubes from the supply.}",
         f"{{zh-TW: {zh}, es: {es}, en: {en}}}")
    assert run(good_content) == []


def test_every_number_word_is_read_in_any_case_and_none_inside_another_word():
    # numbers() first searches a text for any number word (a trie of them, generator/text.py):
    # a word it left out would never be read, whatever the text
    from generator.text import _ORDINALS, _WORDS, HALF, numbers
    for lang in ("en", "es"):
        for word, value in {**_WORDS[lang], **_ORDINALS[lang]}.items():
            for s in (f"Take {word} cubes.", f"{word.upper()}!", f"({word.capitalize()})", f"{word}-3"):
                assert value in numbers(s, lang), (lang, s)
            assert numbers(f"x{word}y", lang) == set(), (lang, word)
    assert numbers("Often, take half of the cubes.", "en") == {HALF}
    assert numbers("Todos toman la MITAD de los dados.", "es") == {HALF}


def test_a_number_in_one_language_is_blamed_on_that_language(good_content):
    # zh-TW says 兩 where es and en say one: the zh-TW text is at fault, at its own line and column
    f = good_content / GAME
    edit(f, "text: {zh-TW: 從供應區拿方塊。, es: Toma cubos de la reserva., en: Take cubes from the supply.}",
         "text:\n      zh-TW: 從供應區拿兩個方塊。\n      es: Toma un cubo de la reserva.\n      en: Take one cube from the supply.")
    diags = run(good_content)
    assert found(diags) == [("RB404", "game.yaml", 53, 14)]
    d = diags[0]
    assert d.message == "in step-take.text, the zh-TW text states 2, which the es and en texts do not state"
    assert (d.at, d.key) == ("step-take.text.zh-TW", "+2")


def test_a_mismatch_names_only_the_numbers_that_differ(good_content):
    f = good_content / GAME
    edit(f, "en: The game ends after five rounds.", "en: 'The game ends after 5 rounds, 27 or 68 points.'")
    edit(f, "es: El juego termina tras cinco rondas.", "es: 'El juego termina tras cinco rondas, 27 o 58 puntos.'")
    edit(f, "zh-TW: 五輪後遊戲結束。", "zh-TW: 五輪後遊戲結束，27 或 58 分。")
    diags = run(good_content)
    line = (good_content / GAME).read_text(encoding="utf-8").splitlines()[62]
    assert found(diags) == [("RB404", "game.yaml", 63, line.index("en: ") + 5)]  # the en value
    assert line.index("en: ") + 5 == 104
    assert diags[0].message == "in end-rounds.text, the en text states 68 where the zh-TW and es texts state 58"
    assert diags[0].key == "+68 -58"


def test_a_reviewed_text_is_acknowledged_and_an_outdated_acknowledgement_is_an_error(good_content):
    f = good_content / GAME
    edit(f, "en: The game ends after five rounds.", "en: 'The game ends after five rounds, or a second sixth.'")
    ack = f"acknowledge:\n  - {{code: RB404, at: end-rounds.text.en, key: '+6', {ACK_REASON}}}\nglossary:\n"
    edit(f, "glossary:\n", ack)
    diags = run(good_content)
    assert [(d.code, d.severity.value, d.reason) for d in diags] == [("RB404", "acknowledged", "Reviewed.")]
    # the text changes again: the acknowledgement no longer matches, and the new mismatch is an error
    edit(f, "or a second sixth.", "or after round 7.")
    diags = sorted(run(good_content), key=lambda d: d.line)
    assert [(d.code, d.severity.value, d.line, d.column) for d in diags] == [
        ("RB404", "error", 63, 76), ("RB202", "error", 100, 48)]  # the text, and the entry's key
    assert "now have key '+7'" in diags[1].hint


# ---- acknowledged findings in every output format

def _cli(*args):
    return subprocess.run([sys.executable, "-m", "generator.cli", *args], capture_output=True, text=True, cwd=ROOT)


def test_acknowledged_in_every_format(good_content):
    f = good_content / GAME
    edit(f, "{min: 3, max: 5, points: 2}", "{min: 4, max: 5, points: 2}")
    edit(f, "glossary:\n", f"acknowledge:\n  - {{code: RB500, at: table-cubes, key: '3', {ACK_REASON}}}\nglossary:\n")
    mark_current(good_content)
    base = ["validate", "--no-sim", "--content", str(good_content)]
    r = _cli(*base)
    assert r.returncode == 0
    assert "tiny/game.yaml:83:11: acknowledged RB500: table 'table-cubes' covers nothing at 3 (reason: Reviewed.)" in r.stderr
    r = _cli(*base, "--format", "json")
    [row] = json.loads(r.stdout)
    assert r.returncode == 0 and (row["severity"], row["reason"], row["at"], row["key"]) == ("acknowledged", "Reviewed.", "table-cubes", "3")
    r = _cli(*base, "--format", "junit")
    suite = ET.fromstring(r.stdout)
    assert (r.returncode, suite.get("failures"), suite.get("skipped")) == (0, "0", "1")
    assert suite.find("testcase/skipped").get("message") == "acknowledged: Reviewed."
    r = _cli(*base, "--format", "github")
    assert r.returncode == 0 and r.stdout.startswith("::notice file=") and "title=RB500 (acknowledged)::" in r.stdout


def test_an_acknowledgement_of_a_code_that_cannot_be_acknowledged_is_refused(good_content):
    edit(good_content / GAME, "glossary:\n", f"acknowledge:\n  - {{code: RB201, at: step-take, {ACK_REASON}}}\nglossary:\n")
    assert found(run(good_content)) == [("RB100", "game.yaml", 100, 12)]


# ---- RB302 at the amount; no follow-on errors

def test_setup_overflow_points_at_the_by_players_row(good_content):
    edit(good_content / GAME, "    per_player: {2: 2, 3: 2}\n    to: hand\n", "    by_players:\n      2: 4\n      3: 31\n    to: supply\n")
    diags = run(good_content)
    assert found(diags) == [("RB302", "game.yaml", 52, 7)]
    assert diags[0].at == "step-take.by_players.3"


def test_setup_overflow_points_at_the_per_player_row(good_content):
    edit(good_content / GAME, "per_player: {2: 2, 3: 2}", "per_player:\n      2: 2\n      3: 11")
    diags = run(good_content)
    assert found(diags) == [("RB302", "game.yaml", 52, 7)]
    assert diags[0].at == "step-take.per_player.3"


def test_setup_overflow_of_an_amount_each_player_takes_gives_the_total(good_content):
    edit(good_content / GAME, "per_player: 2", "per_player: 3")
    diags = run(good_content)
    assert found(diags) == [("RB302", "game.yaml", 43, 5)]
    assert diags[0].message == "with 3 players (basic) each player takes 3 'pawn' from 'box': 9 in all, but it holds 6 before this step"


def test_an_unknown_component_gives_one_diagnostic_and_no_overflow(good_content):
    edit(good_content / GAME, "    component: pawn\n", "    component: pawns\n")
    diags = run(good_content)
    assert found(diags) == [("RB201", "game.yaml", 42, 16)]
    assert diags[0].hint == "did you mean 'pawn'?"


def test_a_schema_error_in_one_item_does_not_hide_the_checks_of_the_others(good_content):
    f = good_content / GAME
    edit(f, "    component: pawn\n", "    componet: pawn\n")  # a typo in one setup step
    edit(f, "es: Toma cubos de la reserva., ", "")  # a missing translation elsewhere
    edit(f, "{min: 3, max: 5, points: 2}", "{min: 4, max: 5, points: 2}")  # a gap in a score table
    assert sorted(found(run(good_content))) == [
        ("RB102", "game.yaml", 42, 5), ("RB400", "game.yaml", 52, 11), ("RB500", "game.yaml", 83, 11)]


def test_a_bad_top_level_value_does_not_hide_the_checks_of_the_items(good_content):
    f = good_content / GAME
    edit(f, "colours: 3", "colours: three")
    edit(f, "es: Toma cubos de la reserva., ", "")
    assert sorted(found(run(good_content))) == [("RB100", "game.yaml", 6, 10), ("RB400", "game.yaml", 52, 11)]


def test_a_reference_to_an_item_left_out_by_its_schema_error_is_not_reported_again(good_content):
    edit(good_content / GAME, "    name: {zh-TW: 棋子, es: peón, en: pawn}\n", "    name: {zh-TW: 棋子, es: peón, en: pawn}\n    cuont: 6\n")
    assert found(run(good_content)) == [("RB102", "game.yaml", 24, 5)]  # and no RB201 for 'pawn' in setup


def test_a_missing_game_key_is_reported_in_game_yaml(good_content):
    f = good_content / GAME
    text = f.read_text(encoding="utf-8")
    head, glossary = text.split("glossary:\n")
    f.write_text(head.replace("designer: Test Designer\n", ""), encoding="utf-8")
    (good_content / "tiny" / "glossary.yaml").write_text("# the glossary\nglossary:\n" + glossary, encoding="utf-8")
    diags = run(good_content)
    assert found(diags) == [("RB101", "game.yaml", 2, 1)]
    assert diags[0].message == "required key 'designer' is missing"


# ---- did you mean: only keys valid here, and the site's language tags

def test_a_language_key_at_the_wrong_level_is_not_offered_a_schema_key(good_content):
    edit(good_content / GAME, "  - id: term-cube\n", "  - id: term-cube\n    en: cube\n")
    [d] = run(good_content)
    assert found([d]) == [("RB102", "game.yaml", 101, 5)]
    assert d.hint == "'en' is a language: indent it under the text it belongs to such as term, definition"


def test_a_key_not_allowed_here_is_not_suggested(good_content):
    edit(good_content / GAME, "  - id: group-cards\n", "  - id: group-cards\n    values: {n: 2}\n")
    [d] = run(good_content)
    assert found([d]) == [("RB102", "game.yaml", 87, 5)]
    assert "did you mean" not in d.hint and "values" not in d.hint.split(":", 1)[1]


def test_a_typo_is_matched_against_the_keys_of_its_place(good_content):
    edit(good_content / GAME, "    do: deal\n    component: cube\n", "    do: deal\n    componet: cube\n")
    [d] = [d for d in run(good_content) if d.code == "RB102"]
    assert (d.line, d.column, d.hint) == (48, 5, "did you mean 'component'?")


def test_a_misspelt_language_tag_is_matched_against_the_site_languages(good_content):
    edit(good_content / GAME, "name: {zh-TW: 方塊, es: cubo", "name: {zh-tw: 方塊, es: cubo")
    [d] = run(good_content)
    assert found([d]) == [("RB401", "game.yaml", 17, 12)]
    assert (d.message, d.hint) == ("'zh-tw' is not a language tag in cube.name", "did you mean 'zh-TW'?")


# ---- YAML syntax errors in plain words, with the line and a caret

@pytest.mark.parametrize("old, new, line, column, message", [
    ("    text: {zh-TW: 從供應區拿方塊。", "    text:\n      zh-TW: 拿\n     en: take\n    x: {zh-TW: 從供應區拿方塊。", 54, 6,
     "this line is indented differently from the keys above it, so YAML cannot tell which mapping it belongs to"),
    ("designer: Test Designer", "designer: Note: Test", 4, 15,
     "a second ': ' on this line, which YAML reads as the start of another key"),
    ("designer: Test Designer", "designer: Test\tDesigner", 4, 15, "a tab inside unquoted text"),
    ("designer: Test Designer", "designer: 'Test Designer", 4, 11, "a quote opened here is never closed"),
    ("designer: Test Designer", "designer: [Test", 4, 11, "this '[' is never closed"),
])
def test_yaml_syntax_errors_in_plain_words(good_content, old, new, line, column, message):
    edit(good_content / GAME, old, new)
    [d] = run(good_content)
    assert (d.code, d.line, d.column, d.message) == ("RB001", line, column, message)
    shown = format_text([d]).splitlines()
    assert len(shown) == 3 and shown[1].startswith(f"{line:>5} | ")
    assert shown[2].index("^") - shown[2].index("|") - 2 == len(shown[1].split(" | ", 1)[1][:column - 1])


def test_the_caret_counts_wide_characters_twice():
    from generator.diagnostics import caret_lines
    source, caret = caret_lines("  zh-TW: 中文 x: y", 3, 15)
    assert caret.index("^") - caret.index("|") - 2 == len("  zh-TW: ") + 4 + len(" x:")  # 中文: four cells


# ---- score tables of ranks

def test_a_table_of_ranks_is_checked_like_one_of_points(good_content):
    f = good_content / GAME
    ranks = ("{min: 0, max: 2, rank: {zh-TW: 新手, es: Novato, en: Novice}}",
             "{min: 4, max: 5, rank: {zh-TW: 高手, es: Experto, en: Expert}}",
             "{min: 6, max: null, rank: {zh-TW: 大師, es: Maestro, en: Master}}")
    edit(f, "{min: 0, max: 2, points: 0}", ranks[0])
    edit(f, "{min: 3, max: 5, points: 2}", ranks[1])
    edit(f, "{min: 6, max: null, points: 5}", ranks[2])
    diags = run(good_content)
    assert [(d.code, d.line, d.column, d.key) for d in diags] == [("RB500", 83, 11, "3")]


def test_a_row_gives_points_or_a_rank_and_a_table_gives_one_sort(good_content):
    f = good_content / GAME
    edit(f, "{min: 3, max: 5, points: 2}", "{min: 3, max: 5, points: 2, rank: {zh-TW: 高手, es: Experto, en: Expert}}")
    assert found(run(good_content)) == [("RB100", "game.yaml", 83, 11)]
    edit(f, "points: 2, rank:", "rank:")
    assert found(run(good_content)) == [("RB100", "game.yaml", 79, 7)]  # points and ranks mixed: at the table


def test_the_json_schema_says_what_the_loader_says_about_rows():
    from generator.schema import game_schema
    defs = game_schema()["$defs"]
    assert defs["ScoreRange"]["oneOf"] == [{"required": ["points"]}, {"required": ["rank"]}]
    assert defs["ScoreRange"]["properties"]["points"]["type"] == "integer"  # `points: null` refused by both
    assert {"properties": {"ranges": {"items": {"required": ["rank"]}}}} in defs["ScoreTable"]["anyOf"]
    # a text takes language tags only, as the loader does (RB401 for `zh-tw:`)
    assert defs["GlossaryTerm"]["properties"]["term"]["additionalProperties"] is False
    assert defs["Acknowledgement"]["properties"]["code"]["enum"] == [
        "RB300", "RB301", "RB302", "RB303", "RB404", "RB500", "RB501"]


def test_a_misplaced_language_is_reported_with_the_text_it_leaves_incomplete(good_content):
    # the newcomer's mistake 6b: `en:` at the term's level, still valid YAML
    edit(good_content / GAME, "    definition: {zh-TW: 遊戲的資源。, es: El recurso del juego., en: The resource of the game.}",
         "    definition:\n      zh-TW: 遊戲的資源。\n      es: El recurso del juego.\n    en: The resource of the game.")
    assert sorted(found(run(good_content))) == [("RB102", "game.yaml", 105, 5), ("RB400", "game.yaml", 103, 7)]


def test_the_summary_counts_acknowledged_findings(good_content):
    edit(good_content / GAME, "{min: 3, max: 5, points: 2}", "{min: 4, max: 5, points: 2}")
    edit(good_content / GAME, "glossary:\n", f"acknowledge:\n  - {{code: RB500, at: table-cubes, key: '3', {ACK_REASON}}}\nglossary:\n")
    mark_current(good_content)
    r = _cli("validate", "--no-sim", "--content", str(good_content))
    assert r.stderr.splitlines()[-1] == f"rulebook: 1 game of {good_content}/ checked, no errors (1 finding acknowledged)"


def test_the_page_shows_the_reason_of_an_acknowledged_fact(good_content, tmp_path):
    from generator.render import render_language
    f = good_content / GAME
    edit(f, "{min: 0, max: 2, points: 0}", "{min: 0, max: 2, rank: {zh-TW: 新手, es: Novato, en: Novice}}")
    edit(f, "{min: 3, max: 5, points: 2}", "{min: 4, max: 5, rank: {zh-TW: 高手, es: Experto, en: Expert}}")
    edit(f, "{min: 6, max: null, points: 5}", "{min: 6, max: null, rank: {zh-TW: 大師, es: Maestro, en: Master}}")
    edit(f, "glossary:\n", "acknowledge:\n  - {code: RB500, at: table-cubes, key: '3', reason: "
         "{zh-TW: 來源的表少了 3。, es: La tabla de la fuente no cubre el 3., en: The source's table leaves out 3.}}\nglossary:\n")
    mark_current(good_content)
    project, diags = validate(good_content, None, simulation=False)
    assert [d.severity.value for d in diags] == ["acknowledged"]
    render_language(project, "en", tmp_path / "en")
    page = (tmp_path / "en" / "tiny" / "index.md").read_text(encoding="utf-8")
    table = page[page.index("### Cube points"):]
    assert "| Value | Rank |" in table and "| 4–5 | Expert |" in table
    assert table.index("leaves out 3") < table.index("##", 5)  # under the table, as a gap


def test_an_undefined_placeholder_is_not_told_to_add_values_where_none_are_allowed(good_content):
    edit(good_content / GAME, "    title: {zh-TW: 卡片, es: Cartas, en: Cards}\n",
         "    title: {zh-TW: 卡片, es: Cartas, en: Cards}\n"
         "    intro: {zh-TW: \"{n} 張\", es: \"{n} cartas\", en: \"{n} cards\"}\n")
    diags = run(good_content)
    assert found(diags)[0] == ("RB403", "game.yaml", 88, 20)
    assert diags[0].hint == "this text belongs to no item with values: write the number out, or fix the name"
    edit(good_content / GAME, "{zh-TW: 拿一個方塊。, es: Toma un cubo., en: Take a cube.}",
         "{zh-TW: \"拿 {k} 個方塊。\", es: \"Toma {k} cubos.\", en: \"Take {k} cubes.\"}")
    assert "add values: {k: …} to card-bonus" in [d for d in run(good_content) if "{k}" in d.message][0].hint


def test_positions_stay_right_after_an_item_is_left_out(good_content):
    # setup.0 has a schema error and is left out of the model: the later step's finding still
    # points at its own line, not at the step that took its index
    f = good_content / GAME
    edit(f, "    component: cube\n    count: all\n", "    componet: cube\n    count: all\n")
    edit(f, "    per_player: {2: 2, 3: 2}\n    to: hand\n", "    per_player: {2: 2, 3: 2}\n    to: hands\n")
    assert sorted(found(run(good_content))) == [("RB102", "game.yaml", 36, 5), ("RB201", "game.yaml", 51, 9)]


def test_an_overflow_can_be_acknowledged_and_its_entry_waits_while_setup_cannot_be_played(good_content):
    f = good_content / GAME
    edit(f, "per_player: {2: 2, 3: 2}", "per_player: {2: 2, 3: 11}")
    edit(f, "glossary:\n", f"acknowledge:\n  - {{code: RB302, at: step-take.per_player.3, {ACK_REASON}}}\nglossary:\n")
    assert [(d.code, d.severity.value) for d in run(good_content)] == [("RB302", "acknowledged")]
    # an unknown zone stops the setup from being played: the entry is not called stale for that
    edit(f, "    component: pawn\n", "    component: pawns\n")
    assert found(run(good_content)) == [("RB201", "game.yaml", 42, 16)]


def test_an_overlap_is_keyed_by_the_values_covered_twice(good_content):
    edit(good_content / GAME, "{min: 6, max: null, points: 5}", "{min: 4, max: null, points: 5}")
    [d] = run(good_content)
    assert (d.code, d.line, d.column, d.at, d.key) == ("RB501", 84, 11, "table-cubes", "4-5")
    edit(good_content / GAME, "glossary:\n", f"acknowledge:\n  - {{code: RB501, at: table-cubes, key: 4-5, {ACK_REASON}}}\nglossary:\n")
    assert [(d.code, d.severity.value) for d in run(good_content)] == [("RB501", "acknowledged")]


def test_a_values_that_is_no_mapping_is_a_schema_error_not_a_crash(good_content):
    """Found by the fuzz test once schema errors stopped hiding the other checks: the text checks
    read `values: '0'` as a mapping (AttributeError)."""
    edit(good_content / GAME, "values: {n: 2}", "values: '0'")
    diags = run(good_content)
    assert {d.code for d in diags} <= {"RB100", "RB403"} and any(d.code == "RB100" for d in diags), diags


@pytest.mark.parametrize("old, new, line, column", [
    ("name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game}", "name: {}", 3, 7),
    ("name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game}", "name: 5", 3, 7),
    ("summary: {zh-TW: 一個測試用的小遊戲。, es: Un juego pequeño para pruebas., en: A small game for tests.}", "summary: {}", 7, 10),
])
def test_a_broken_name_or_summary_keeps_the_other_checks(good_content, old, new, line, column):
    """The model gets a stand-in name or summary so the checks still run; the stand-in has to
    pass the schema too (a text needs a language: `{}` is RB100 'empty text', found by the fuzz test)."""
    edit(good_content / GAME, old, new)
    edit(good_content / GAME, "    to: supply\n", "    to: nowhere\n")
    assert found(run(good_content)) == [("RB100", "game.yaml", line, column), ("RB201", "game.yaml", 38, 9)]


def test_a_mapping_or_list_where_a_value_belongs_is_named_without_a_dangling_space(good_content):
    edit(good_content / "tiny" / "game.yaml", "designer: Test Designer", "designer: {a: 1}")
    diags = [d for d in validate(good_content, None)[1] if d.code == "RB100"]
    assert diags and "(got mapping)" in diags[0].message and "(got mapping )" not in diags[0].message
