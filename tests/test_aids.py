"""Player aids: one sheet per mode (or labelled lines), with what the data says an aid holds."""

import asyncio
import shutil
from pathlib import Path

import pytest

from conftest import ROOT, edit
from generator import pdf
from generator.aids import resolve
from generator.cli import validate

LANGS = ("zh-TW", "es", "en")


@pytest.fixture(scope="module")
def shipped():
    project, diags = validate(ROOT / "content", None, simulation=False)
    assert [d for d in diags if d.severity.value == "error"] == []
    return project


def _text(face) -> str:
    out = [face.title, face.subtitle]
    for entry in face.paragraphs:
        if isinstance(entry, list):
            out += [t.caption for t in entry] + [f"{v}={p}" for t in entry for v, p in t.rows]
        else:
            out += [entry[0], entry[1]]
    return "\n".join(out)


def _sheet_texts(game, tag):
    return [_text(face) for face in pdf.aid_sheets(game, tag, "zh-TW")]


@pytest.mark.parametrize("game_id", ["ulm", "jorvik", "castles-of-mad-king-ludwig", "ursuppe"])
def test_each_mode_has_its_own_sheet_with_only_its_lines(shipped, game_id):
    game = shipped.games[game_id].model
    sheets, problems = resolve(game)
    assert problems == []
    assert sorted(m for s in sheets for m in s.modes) == sorted(m.id for m in game.modes)
    for sheet in sheets:
        assert len(sheet.modes) == 1  # the shipped games print one sheet per mode
        for block in sheet.blocks:
            for line in block.lines:
                if line.item is not None and line.item.modes:
                    assert sheet.modes[0] in line.item.modes, (sheet.id, line.item.id)
    for tag in LANGS:
        texts = _sheet_texts(game, tag)
        for sheet, text in zip(sheets, texts):
            mode = next(m for m in game.modes if m.id == sheet.modes[0])
            assert mode.name[tag] in text  # the sheet says which mode it is for
            for table in game.scoring.tables:  # no scoring table of the sheet's mode is left off
                if not table.modes or mode.id in table.modes:
                    assert table.name[tag] in text
                else:
                    assert table.name[tag] not in text


def _item(game, ident):
    from generator.aids import items_by_id
    return items_by_id(game)[ident]


def test_ulm_sheets_do_not_mix_the_round_starts(shipped):
    game = shipped.games["ulm"].model
    basic = _item(game, "round-tower").text
    variant = _item(game, "round-tower-variant").text
    for tag in LANGS:
        first, second = _sheet_texts(game, tag)
        assert " ".join(basic[tag].split()) in first and " ".join(variant[tag].split()) not in first
        assert " ".join(variant[tag].split()) in second and " ".join(basic[tag].split()) not in second


def test_castles_solo_sheet_has_the_ranks_and_no_master_builder(shipped):
    game = shipped.games["castles-of-mad-king-ludwig"].model
    for tag in LANGS:
        standard, solo = _sheet_texts(game, tag)
        table = next(t for t in game.scoring.tables if t.id == "solo-ranks")
        ranks = table.ranges[0].rank[tag]  # Court Jester
        assert table.name[tag] in solo and ranks in solo and ranks not in standard
        builder = _item(game, "turn-master-builder").name[tag]
        assert builder in standard and builder not in solo


def test_ursuppe_aid_holds_the_key_numbers_and_both_tables(shipped):
    game = shipped.games["ursuppe"].model
    eat = _item(game, "eat-food").values["eat"]
    excrete = _item(game, "eat-excrete").values["excrete"]
    dies = _item(game, "death-natural").values["damage"]
    for tag in LANGS:
        (sheet,) = pdf.aid_sheets(game, tag, "zh-TW")
        numbers = [e for e in sheet.paragraphs if not isinstance(e, list) and e[0] in {str(eat), str(excrete), str(dies)}]
        labels = {a.value: a.label[tag] for a in game.aids[0].numbers}
        assert (str(eat), labels["eat-food.eat"]) in numbers
        assert (str(excrete), labels["eat-excrete.excrete"]) in numbers
        assert (str(dies), labels["death-natural.damage"]) in numbers
        assert "0–2=0" in _text(sheet) and "6+=4" in _text(sheet)  # the gene-card table's rows


def test_jorvik_feast_pointer_needs_the_table_on_the_sheet(tmp_path):
    from conftest import one_game_content
    content = one_game_content(tmp_path, "jorvik")
    edit(content / "jorvik" / "aids.yaml", "score-final-feasts, table-feasts,", "score-final-feasts,")  # the Jarl sheet's
    _p, diags = validate(content, None, simulation=False)
    assert sorted(d.code for d in diags) == ["RB700", "RB700"]
    left_out, pointing = sorted(diags, key=lambda d: "points to" in d.message)
    assert "aid-jarl" in left_out.message and "leaves out" in left_out.message
    lines = (content / "jorvik" / "aids.yaml").read_text(encoding="utf-8").splitlines()
    assert "aid-jarl" in pointing.message and "score-final-feasts" in lines[pointing.line - 1]  # it says "see the table"


def _two_mode_sheet(good_content, old: str, new: str):
    """The test game with a second mode (solo), one sheet for both, and one more edit (a line for
    solo only); returns the game's model."""
    game_file = good_content / "tiny" / "game.yaml"
    edit(game_file, "  - {id: basic, name: {zh-TW: 基本, es: Básico, en: Basic}}",
         "  - {id: basic, name: {zh-TW: 基本遊戲, es: Juego básico, en: Basic game}}\n"
         "  - {id: solo, name: {zh-TW: 單人遊戲, es: Partida en solitario, en: Solo game}}")
    edit(game_file, old, new)
    edit(game_file, "    modes: [basic]\n    sections:", "    modes: [basic, solo]\n    sections:")
    project, diags = validate(good_content, None, simulation=False)
    assert [d for d in diags if d.severity.value == "error"] == []  # (renamed modes are stale translations)
    return project.games["tiny"].model


def test_a_sheet_for_two_modes_labels_each_mode_line_in_every_language(good_content):
    edit(good_content / "tiny" / "game.yaml", "show: [turn-take, action-buy]", "show: [turn-take, action-buy, card-bonus]")
    game = _two_mode_sheet(good_content, "        modes: [basic]\n        count: 2", "        modes: [solo]\n        count: 2")
    expected = {"zh-TW": "僅限單人遊戲：", "es": "Partida en solitario únicamente:", "en": "Solo game only:"}
    for tag, label in expected.items():
        (face,) = pdf.aid_sheets(game, tag, "zh-TW")
        lines = [e for e in face.paragraphs if not isinstance(e, list) and e[0] != "#"]
        bonus = [e for e in lines if "card-bonus" in e[1] or game.cards[0].cards[0].name[tag] in e[0]]
        assert bonus and label in bonus[0][0], (tag, bonus)
        assert all(label not in e[0] for e in lines if e not in bonus)  # lines for both modes carry none


@pytest.mark.browser
def test_no_aid_card_overflows_its_trim(shipped, tmp_path):
    """Fitting estimates text widths; a card whose text runs past its inner box would be cut off
    in print (overflow is hidden), so measure every aid card in Chromium."""
    from playwright.async_api import async_playwright
    s = pdf.settings_for(shipped)
    shutil.copy(pdf.TEMPLATES / "print.css", tmp_path / "print.css")
    pages = []
    for gid, doc in shipped.games.items():
        for tag in LANGS:
            faces = pdf.aid_faces(doc.model, tag, "zh-TW", s)
            html = tmp_path / f"{gid}-{tag}.html"
            html.write_text(pdf.sheet_html(pdf.layout(faces, s.aid_width_mm, s.aid_height_mm, "a4", s), tag, "t", "t", s),
                            encoding="utf-8")
            pages.append(html)

    async def measure():
        bad = []
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=pdf.CHROMIUM, args=pdf.CHROMIUM_ARGS)
            page = await browser.new_page()
            for html in pages:
                await page.goto(html.as_uri())
                over = await page.evaluate("""() => [...document.querySelectorAll('.inner')]
                    .filter(e => e.scrollHeight > e.clientHeight + 1).map(e => e.textContent.slice(0, 60))""")
                bad += [(html.name, o) for o in over]
            await browser.close()
        return bad

    assert asyncio.run(measure()) == []


def test_a_line_does_not_repeat_a_name_its_text_begins_with(shipped):
    game = shipped.games["ulm"].model
    discard = _item(game, "cards-discard")
    (face, _tower) = pdf.aid_sheets(game, "es", "zh-TW")
    text = " ".join(discard.text["es"].split())
    assert text.lower().startswith(discard.name["es"].lower())  # the case this test is about
    (entry,) = [e for e in face.paragraphs if not isinstance(e, list) and e[1] == text]
    assert entry[0] == "•"  # "A la pila de descarte: A la pila de descarte: …" no more


def test_a_text_after_a_mode_label_goes_on_in_lower_case_in_spanish_and_english(good_content):
    """RAE and British usage: after a colon in running text, lower case ("Solo game only: take 2
    cubes"); a name keeps its capital; Chinese has no case and keeps its full-width colon."""
    game = _two_mode_sheet(good_content, "    - id: turn-take\n", "    - id: turn-take\n      modes: [solo]\n")
    expected = {"zh-TW": ("僅限單人遊戲：", "拿 2 個方塊。"), "es": ("Partida en solitario únicamente:", "toma 2 cubos."),
                "en": ("Solo game only:", "take 2 cubes.")}
    for tag, (label, text) in expected.items():
        (face,) = pdf.aid_sheets(game, tag, "zh-TW")
        assert any(label in e[0] and e[1] == text for e in face.paragraphs if not isinstance(e, list)), (tag, face.paragraphs)


@pytest.mark.parametrize("ref, hint", [("rules-bux", "did you mean 'rules-buy'?"), ("qqqqqqqqqq", "known: ")])
def test_an_aid_showing_no_item_gets_a_hint_that_names_what_it_could_show(tmp_path, ref, hint):
    from conftest import one_game_content
    content = one_game_content(tmp_path, "jorvik")
    edit(content / "jorvik" / "aids.yaml", "    show: [rules-buy]\n", f"    show: [{ref}]\n")
    _p, diags = validate(content, None, simulation=False)
    found = [d for d in diags if d.code == "RB201" and ref in d.message]
    assert found and found[0].hint.startswith(hint) and found[0].file.endswith("aids.yaml")
