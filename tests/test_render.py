"""Rendering: content text is inert, terms are linked, pages are stable (golden files)."""

import os
from pathlib import Path

import pytest

from conftest import FIXTURES
from generator.cli import validate
from generator.render import render_language
from generator.render.markdown import TermLinker, md

GOLDEN = Path(__file__).resolve().parent / "golden"

HOSTILE = [
    "<script>alert(1)</script>",
    "# heading\n- list\n1. item",
    "```{raw} html\n<b>x</b>\n```",
    "{eval-rst}`x` {include}`../../etc/passwd`",
    "[link](javascript:alert(1)) ![img](http://example.com/x.png)",
    "{{ 7*7 }} {% if %} *em* **strong** `code` <!-- c --> &amp;",
    "<img src=x onerror=alert(1)>",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_md_escapes_every_markup_character(text):
    out = md(text)
    assert "\n" not in out
    for ch in "<>`*#[]{}()!&|-_":
        assert ch not in out.replace("\\" + ch, ""), (ch, out)


def test_term_links_whole_words_longest_first_once():
    linker = TermLinker([("seal", "g-term-seal"), ("seal action", "g-term-seal-action"), ("seals", "g-term-seal")])
    out = linker.render("A seal action places seals; sealed seal.")
    assert out == "A [seal action](#g-term-seal-action) places [seals](#g-term-seal)\\; sealed seal\\."


def test_term_links_cjk_inside_words():
    linker = TermLinker([("麻雀", "u-term-sparrow")])
    assert linker.render("每個烏姆麻雀得分") == "每個烏姆[麻雀](#u-term-sparrow)得分"


def _render_tiny(tmp_path, lang):
    project, diags = validate(FIXTURES / "good", None)
    assert diags == []
    render_language(project, lang, tmp_path / lang)
    return tmp_path / lang


@pytest.mark.parametrize("lang", ["zh-TW", "es", "en"])
@pytest.mark.parametrize("page", ["index.md", "tiny/index.md", "tiny/components.md", "tiny/cards.md", "tiny/glossary.md"])
def test_golden_pages(tmp_path, lang, page):
    """The generated MyST of the test game. Regenerate with RULEBOOK_REGEN=1 after a deliberate change."""
    out = (_render_tiny(tmp_path, lang) / page).read_text(encoding="utf-8")
    golden = GOLDEN / lang / page
    if os.environ.get("RULEBOOK_REGEN"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(out, encoding="utf-8")
    assert out == golden.read_text(encoding="utf-8")


def test_components_page_counts_come_from_the_setup(tmp_path):
    page = (_render_tiny(tmp_path, "en") / "tiny/components.md").read_text(encoding="utf-8")
    # 2 pawns per player: 4 for 2 players, 6 for 3; 2 stay in the box with 2 players
    assert "| pawn | 4 | 6 |" in page
    assert "| pawn | 2 | 0 |" in page


def test_hyphenated_words_are_not_split_into_terms():
    linker = TermLinker([("pushed", "g-term-push")])
    assert linker.render("a pushed-out tile was pushed") == "a pushed\\-out tile was [pushed](#g-term-push)"


@pytest.mark.parametrize("text, lang, expected", [
    ("拿兩個徽章，再走十步", "zh-TW", {2, 10}),
    ("第二名得三分", "zh-TW", {2, 3}),
    ("三換一", "zh-TW", {3}),
    ("十字路口與維基百科是一般的詞", "zh-TW", set()),  # words that contain numerals are not numbers
    ("the second player takes two tiles", "en", {2}),
    ("once cartas y la segunda fila", "es", {11, 2}),
    ("Pay {cost} coins, then 3 more", "en", {3}),
])
def test_literal_numbers_of_a_text(text, lang, expected):
    from generator.text import numbers
    assert numbers(text, lang) == expected


def test_sphinx_warnings_become_diagnostics_without_colour_codes():
    from generator.sphinx_ import diagnostics_from
    raw = "\x1b[91m/tmp/src/ulm/index.md:12: WARNING: undefined label: 'x'\x1b[39;49;00m\n"
    [d] = diagnostics_from(raw)
    assert (d.code, d.file, d.line, d.message) == ("RB900", "/tmp/src/ulm/index.md", 12, "undefined label: 'x'")
