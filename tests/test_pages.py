"""Pages that say where facts come from, link what they point to, and read well in each language."""

import re

import pytest

from conftest import FIXTURES, ROOT, edit, mark_current
from generator.cli import validate
from generator.collate import sort_key
from generator.render import render_language

GAME = "tiny/game.yaml"
GAMES = ["ulm", "jorvik", "castles-of-mad-king-ludwig", "ursuppe"]


def _page(content, lang, page, tmp_path):
    project, diags = validate(content, None, simulation=False)
    assert [d for d in diags if d.severity.value == "error"] == []
    out = tmp_path / f"out-{lang}"
    render_language(project, lang, out)
    return (out / "tiny" / page).read_text(encoding="utf-8")


def test_a_pointer_is_a_link_to_its_anchor_in_every_language(good_content, tmp_path):
    edit(good_content / GAME, "text: {zh-TW: 把所有方塊放到供應區。, es: Pon todos los cubos en la reserva., en: Put all cubes in the supply.}",
         'text: {zh-TW: "把所有方塊放到供應區（[見購買](#action-buy)）；[](#table-cubes)。", '
         'es: "Pon los cubos en la reserva ([ver Comprar](#action-buy)); [](#table-cubes).", '
         'en: "Put all cubes in the supply ([see Buy](#action-buy)); [](#table-cubes)."}')
    page = _page(good_content, "en", "index.md", tmp_path)
    assert "[see Buy](#tiny-action-buy)" in page
    assert "[Cube points](#tiny-table-cubes)" in page  # no words: the title of what it names
    assert "(tiny-action-buy)=" in page and "(tiny-table-cubes)=" in page  # and both anchors exist
    assert "[見購買](#tiny-action-buy)" in _page(good_content, "zh-TW", "index.md", tmp_path)


def test_a_gap_is_given_once_and_marked_where_it_matters(good_content, tmp_path):
    edit(good_content / GAME, "    text: {zh-TW: 從供應區拿方塊。", "    gap: gap-red\n    text: {zh-TW: 從供應區拿方塊。")
    index = _page(good_content, "en", "index.md", tmp_path)
    gap = "how many red"
    assert index.count(gap) == 1  # in full only in Sources and gaps
    assert index.index(gap) > index.index("(tiny-sources)=")
    assert "[?](#tiny-gap-red)" in index  # the step that lacks it links to it
    components = _page(good_content, "en", "components.md", tmp_path)
    assert gap not in components and "[?](#tiny-gap-red)" in components


def test_an_item_from_another_source_carries_its_number(good_content, tmp_path):
    edit(good_content / GAME, "  - {id: src-test, title: Test source, where: tests/fixtures}",
         "  - {id: src-test, title: Test source, where: tests/fixtures}\n"
         "  - {id: src-web, title: A review, where: https://example.org/review}")
    for step in ("step-cubes", "step-pawns", "step-take", "turn-take", "end-rounds", "action-buy", "score-cubes",
                 "tie-shared", "card-bonus"):
        edit(good_content / GAME, f"id: {step}\n", f"id: {step}\n" + " " * 0 + "SOURCE\n")
    text = (good_content / GAME).read_text(encoding="utf-8")
    text = re.sub(r"^(\s*)(- )?id: (\S+)\nSOURCE\n", lambda m: f"{m.group(1)}{m.group(2) or ''}id: {m.group(3)}\n"
                  f"{m.group(1)}{'  ' if m.group(2) else ''}source: {'src-web' if m.group(3) == 'step-take' else 'src-test'}\n",
                  text, flags=re.M)
    (good_content / GAME).write_text(text, encoding="utf-8")
    index = _page(good_content, "es", "index.md", tmp_path)
    marks = re.findall(r"\[\\\[(\d)\\\]\]\(#tiny-(src-[a-z]+)\)", index)
    assert marks == [("2", "src-web")]  # only the step from the second source, numbered as in the list
    sources = index[index.index("(tiny-sources)="):]
    assert "2. (tiny-src-web)=" in sources and "A review" in sources
    assert "tests/fixtures" not in sources  # listed by title, not by file name


def test_card_group_counts_are_cards_in_the_box(tmp_path):
    project, _ = validate(ROOT / "content", ["ulm"], simulation=False)
    render_language(project, "en", tmp_path)
    index = (tmp_path / "ulm" / "index.md").read_text(encoding="utf-8")
    game = project.games["ulm"].model
    card = next(c for c in game.components if c.id == "card")
    coats = next(c for c in game.components if c.id == "coat-of-arms")
    chronicle = next(k.count for k in card.kinds if k.id == "card-chronicle")
    # cathedral and trade cards: the 33 cards less the 9 chronicle cards, not the 2 entries of the data
    assert f"(#ulm-cards-main) ({card.count - chronicle})" in index
    assert f"(#ulm-chronicle-cards) ({chronicle})" in index
    assert f"(#ulm-coats-of-arms-tiles) ({coats.count})" in index  # not (2)


@pytest.mark.parametrize("game_id", GAMES)
def test_glossary_follows_each_languages_collation(tmp_path, game_id):
    """zh-TW by stroke count, es by Spanish rules; never by the English id."""
    project, _ = validate(ROOT / "content", [game_id], simulation=False)
    game = project.games[game_id].model
    for tag in ("zh-TW", "es", "en"):
        render_language(project, tag, tmp_path / tag)
        page = (tmp_path / tag / game_id / "glossary.md").read_text(encoding="utf-8")
        labels = re.findall(rf"^\({game_id}-term-([a-z0-9-]+)\)=$", page, flags=re.M)
        terms = {t.id: t.term[tag] for t in game.glossary}
        shown = [terms[i] for i in labels]
        assert shown == sorted(shown, key=sort_key(tag)), tag
        assert len(shown) == len(game.glossary)
    strokes = sort_key("zh-TW")
    assert strokes("一") < strokes("人") < strokes("三") < strokes("行") < strokes("橋")  # 1, 2, 3, 6, 16 strokes
    spanish = sort_key("es")
    assert spanish("nube") < spanish("ñandú") < spanish("oso") and spanish("árbol") < spanish("barco")


def test_zh_labels_use_full_width_punctuation(tmp_path):
    project, _ = validate(FIXTURES / "good", None, simulation=False)
    render_language(project, "zh-TW", tmp_path)
    cards = (tmp_path / "tiny" / "cards.md").read_text(encoding="utf-8")
    assert "*僅限基本*：" in cards and "僅限：" not in cards
    index = (tmp_path / "tiny" / "index.md").read_text(encoding="utf-8")
    assert "設計師：Test Designer" in index and ": " not in index.split("(tiny-modes)=")[0].split("\n", 3)[3]


def test_phased_rounds_are_titled_as_phases(tmp_path):
    project, _ = validate(ROOT / "content", ["ursuppe"], simulation=False)
    for tag, title in (("en", "The phases of a round"), ("es", "Las fases de una ronda"), ("zh-TW", "一輪的各階段")):
        render_language(project, tag, tmp_path / tag)
        page = (tmp_path / tag / "ursuppe" / "index.md").read_text(encoding="utf-8")
        assert f"### {title}" in page
        assert "A player\\'s turn" not in page and "El turno de un jugador" not in page and "玩家回合" not in page


def test_worked_examples_come_after_the_rules_they_use(tmp_path):
    """A turn step's example draws on rules explained later (Ulm's pushes use the actions and the
    river): it is printed after the chapters, with a link back to its step."""
    project, _ = validate(FIXTURES / "good", None, simulation=False)
    render_language(project, "en", tmp_path)
    page = (tmp_path / "tiny" / "index.md").read_text(encoding="utf-8")
    examples = page.index("(tiny-round-examples)=")
    assert page.index("(tiny-actions)=") < examples < page.index("(tiny-scoring)=")
    assert "Ana takes" in page[examples:] and "Ana takes" not in page[:examples]
    assert "](#tiny-turn-take)" in page[examples:]


def test_chinese_pages_have_no_latin_punctuation_after_chinese_text(tmp_path):
    """Every label, list and table the templates punctuate (a component's kinds and counts, the
    game modes, the simulated games' shares) uses full-width ：；。 after Chinese, in every game
    (simulated, so that the components pages show what the games ran short of)."""
    project, _ = validate(ROOT / "content", None)
    render_language(project, "zh-TW", tmp_path)
    # links' targets, labels, emphasis and escapes are markup, not text
    latin_after_cjk = re.compile(r"[\u3400-\u9fff\uff09\u300d][:;,.](?=\s|$)")
    found = []
    for page in sorted(tmp_path.glob("*/*.md")):
        text = re.sub(r"\]\([^)]*\)|^\([^)]*\)=$|[*\\]", "", page.read_text(encoding="utf-8"), flags=re.M)
        found += [f"{page.parent.name}/{page.name}: …{text[max(0, m.start() - 10):m.end()]}"
                  for m in latin_after_cjk.finditer(text)]
    assert found == []


def test_a_rule_that_names_its_gap_may_say_the_sources_leave_it_out(good_content):
    """RB731 warns of source talk inside a rule; an item that names its gap may say in passing
    that the sources leave the fact out or disagree (Ursuppe's 3-player food rules do), since
    the gap is given once, in full, under "Sources and gaps"."""
    from conftest import edit
    from generator.cli import validate
    f = good_content / "tiny/game.yaml"
    edit(f, "en: Put all cubes in the supply.", "en: Put all cubes in the supply; the sources disagree.")
    _p, diags = validate(good_content, None, simulation=False)
    assert [d.code for d in diags] == ["RB731"]
    edit(f, "    to: supply\n    text: {zh-TW: 把所有方塊", "    to: supply\n    gap: gap-red\n    text: {zh-TW: 把所有方塊")
    _p, diags = validate(good_content, None, simulation=False)
    assert [d.code for d in diags if d.code != "RB407"] == []


# The rulebooks in the box (Ulm: seed 000 l.534 「2 本規則書」, seed 001 l.17 «instrucciones en 2 partes»;
# Jórvík: seed 004 l.226 「1 本規則書」): listed with their count, never as used in play or left in the box.
RULEBOOKS = {"ulm": ("rules-booklet", 2), "jorvik": ("rules-booklet", 1)}
NOT_A_PIECE = {"zh-TW": "不是遊玩時使用的配件", "es": "No es una pieza de juego", "en": "Not a playing piece"}


@pytest.mark.parametrize("game_id", sorted(RULEBOOKS))
def test_the_rulebooks_are_in_the_box_but_not_among_the_pieces(tmp_path, game_id):
    cid, count = RULEBOOKS[game_id]
    project, _ = validate(ROOT / "content", [game_id], simulation=False)
    comp = next(c for c in project.games[game_id].model.components if c.id == cid)
    assert comp.role == "reference" and comp.count == count
    for tag in ("zh-TW", "es", "en"):
        render_language(project, tag, tmp_path / tag, only={game_id})
        folder = tmp_path / tag / game_id
        page = (folder / "components.md").read_text(encoding="utf-8")
        name = re.escape(comp.name[tag])
        in_the_box = page[:page.index(f"({game_id}-used-")]
        row = re.search(rf"^\| {name} \| (\d+) \| (.*) \|$", in_the_box, flags=re.M)
        assert row and int(row.group(1)) == count, tag
        assert NOT_A_PIECE[tag] in row.group(2)
        # the last row of the table: after every playing piece
        rows = re.findall(r"^\| (.+?) \| [\d?]+ \|", in_the_box, flags=re.M)
        assert rows[-1] == comp.name[tag]
        # neither used in play nor staying in the box, in any mode; never drawn
        assert not re.search(rf"^\| {name} \|", page[page.index(f"({game_id}-used-"):], flags=re.M), tag
        for svg in folder.glob("setup-*.svg"):
            assert comp.name[tag] not in svg.read_text(encoding="utf-8"), svg.name


def test_a_reference_component_is_neither_played_nor_left_in_the_box(good_content, tmp_path):
    """A rulebook of the test game: validate (with its simulated setup) stays clean, the page lists
    it with its count, the tables of play leave it out, the simulation does not count it."""
    from generator.engine.setup import run_setup
    from generator.engine.state import initial_box
    from generator.render import component_table
    edit(good_content / GAME, "  - id: coin\n", "  - id: booklet\n    name: {zh-TW: 規則書, es: reglamento, en: rulebook}\n"
         "    count: 1\n    role: reference\n  - id: coin\n")
    mark_current(good_content)
    project, diags = validate(good_content, None)
    assert diags == []
    game = project.games["tiny"].model
    result = run_setup(game, 2, "basic")
    assert all(c != "booklet" for z in result.zones.values() for c, _k in z)
    assert "booklet" not in initial_box(game)[0] and "booklet" not in initial_box(game)[1]
    assert "booklet" not in [r["component"].id for r in component_table(game, {(p, "basic"): run_setup(game, p, "basic")
                                                                              for p in (2, 3)}, "basic")]
    page = _page(good_content, "en", "components.md", tmp_path)
    assert "| rulebook | 1 | Not a playing piece: the tables below leave it out. |" in page
    assert page.count("| rulebook |") == 1


@pytest.mark.parametrize("text, tag, names, expected", [
    ("Devuelve 2 a la caja.", "es", set(), "devuelve 2 a la caja."),
    ("Return 2 of them.", "en", set(), "return 2 of them."),
    ("Jarl players take 4.", "en", {"Jarl"}, "Jarl players take 4."),  # a name keeps its capital
    ("BP are paid first.", "en", set(), "BP are paid first."),  # so does an abbreviation
    ("[Coloca](#place) la loseta.", "es", set(), "[coloca](#place) la loseta."),  # a pointer's words
    ("¿Quién empieza?", "es", set(), "¿quién empieza?"),
    ("2 cubes.", "en", set(), "2 cubes."),
    ("把 2 個放回盒中。", "zh-TW", set(), "把 2 個放回盒中。"),
    ("Nimm 2 Würfel.", "de", set(), "Nimm 2 Würfel."),  # a language not listed keeps its text
])
def test_a_text_after_a_label_lowers_its_first_word(text, tag, names, expected):
    from generator.render.typography import after_colon
    assert after_colon(text, tag, names) == expected


def test_names_are_words_capitalised_inside_sentences_and_never_lower_case():
    from generator.render.typography import names_in
    project, _ = validate(ROOT / "content", ["ulm", "jorvik"], simulation=False)
    ulm, jorvik = project.games["ulm"].model, project.games["jorvik"].model
    assert {"Ulm", "Danubio"} <= names_in(ulm, "es") and {"Ulm", "Danube"} <= names_in(ulm, "en")
    assert {"Jarl", "Karl"} <= names_in(jorvik, "en")
    assert not {"The", "La", "El", "Each", "Cada"} & (names_in(ulm, "es") | names_in(ulm, "en") | names_in(jorvik, "en"))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_text_after_a_mode_label_goes_on_in_lower_case(tmp_path, game_id):
    """«Variante de la torre únicamente: devuelve 2 …», "Tower variant only: return 2 …": not a capital
    after the colon in running text (RAE; British usage), except for a name; Chinese as written."""
    from generator.render.typography import names_in
    project, _ = validate(ROOT / "content", [game_id], simulation=False)
    game = project.games[game_id].model
    seen = 0
    for tag, label in (("es", r"\*[^*\n]+ únicamente\*: "), ("en", r"\*[^*\n]+ only\*: ")):
        render_language(project, tag, tmp_path / tag, only={game_id})
        page = (tmp_path / tag / game_id / "index.md").read_text(encoding="utf-8")
        names = names_in(game, tag)
        for m in re.finditer(label + r"(\[)?([^\W\d_][\w'’-]*)", page):
            seen += 1
            word = m.group(2)
            assert word[0].islower() or word in names or word[1:] != word[1:].lower(), (tag, m.group(0))
    with_modes = [i for i in game.setup + game.rounds.turn + game.actions if i.modes and not i.name and i.text]
    assert seen >= 2 * len(with_modes)
    if game_id == "ulm":
        render_language(project, "zh-TW", tmp_path / "zh-TW", only={game_id})
        assert "*Variante de la torre únicamente*: devuelve 2 de ellas" in (tmp_path / "es" / "ulm" / "index.md").read_text(encoding="utf-8")
        assert "*Tower variant only*: return 2 of them" in (tmp_path / "en" / "ulm" / "index.md").read_text(encoding="utf-8")
        assert "*僅限高塔變體*：不查看內容" in (tmp_path / "zh-TW" / "ulm" / "index.md").read_text(encoding="utf-8")


def test_a_mark_follows_chinese_text_without_a_space_and_latin_text_with_one(tmp_path):
    """「…為止。[?]」 but "… ends. [?]": Chinese puts no space between a full-width mark and what
    follows; after a Latin letter or digit on a Chinese page the space stays."""
    from generator.render.typography import cjk_marks
    project, _ = validate(ROOT / "content", None, simulation=False)
    cjk = "[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]"
    mark = r"(?:\[\?\]\(|\[\\\[\d+\\\]\]\()"
    for tag in ("zh-TW", "es", "en"):
        render_language(project, tag, tmp_path / tag)
        text = "\n".join(p.read_text(encoding="utf-8") for p in sorted((tmp_path / tag).glob("*/*.md")))
        tight = len(re.findall(rf"{cjk}{mark}", text))
        spaced = len(re.findall(rf"{cjk} {mark}", text))
        if tag == "zh-TW":
            assert tight > 50 and spaced == 0, (tight, spaced)
        else:
            assert len(re.findall(rf"\\\. {mark}", text)) > 50 and not re.search(rf"\\\.{mark}", text)
    assert cjk_marks("jet [?](#g) 為止。 [?](#g) 規則。 [\\[2\\]](#s) 來源 *[可能已過時](rb-source:x)*") == \
        "jet [?](#g) 為止。[?](#g) 規則。[\\[2\\]](#s) 來源*[可能已過時](rb-source:x)*"
    assert cjk_marks("規則。 *不在來源中：* 照來源。") == "規則。*不在來源中：*照來源。"
    assert cjk_marks("放到[市徽](#ulm-term-coat) [?](#g)") == "放到[市徽](#ulm-term-coat)[?](#g)"
    assert cjk_marks("[jet](#ulm-term-jet) [?](#g)") == "[jet](#ulm-term-jet) [?](#g)"
    assert cjk_marks("| 規則書 | 1 | 拿 2 個 |") == "| 規則書 | 1 | 拿 2 個 |"  # tables and numbers keep their spaces
