"""Fonts as Chromium renders them: English and Spanish pages set Latin text and punctuation in a
Latin face (a CJK face would make "3" and the apostrophe of "player's" full-width); Chinese pages
keep a CJK face. Built here without PDFs, for every game."""

from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.browser

GAMES = ["ulm", "jorvik", "castles-of-mad-king-ludwig", "ursuppe"]
CJK_FACES = ("Noto Sans CJK", "Source Han", "PingFang", "Microsoft JhengHei", "AR PL", "WenQuanYi")


@pytest.fixture(scope="module")
def pages(tmp_path_factory) -> Path:
    from generator.build import build_site
    from generator.cli import validate
    project, diags = validate(ROOT / "content", None, simulation=False)
    assert [d for d in diags if d.severity.value == "error"] == []
    out = tmp_path_factory.mktemp("typography") / "site"
    assert build_site(project, out, langs=["en", "es", "zh-TW"], pdf=False) == []
    return out


def _fonts_of(browser, url: str, char: str) -> list[str]:
    """The faces Chromium used for the first `char` in the page's main text."""
    page = browser.new_page()
    try:
        page.goto(url)
        found = page.evaluate("""(ch) => {
            const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
            for (let n = walker.nextNode(); n; n = walker.nextNode()) {
                const i = n.data.indexOf(ch);
                if (i < 0) continue;
                const rest = n.splitText(i); rest.splitText(ch.length);
                const span = document.createElement('span'); span.dataset.probe = '1';
                rest.parentNode.replaceChild(span, rest); span.appendChild(rest);
                return true;
            }
            return false; }""", char)
        assert found, f"no {char!r} on {url}"
        cdp = page.context.new_cdp_session(page)
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "[data-probe]"})["nodeId"]
        return [f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]
    finally:
        page.close()


@pytest.mark.parametrize("game", GAMES)
def test_an_english_curly_quote_is_set_in_a_latin_face(pages, browser, game):
    for char in ("\u2019", "3"):  # the apostrophe of "player's" and a digit
        fonts = _fonts_of(browser, (pages / "en" / game / "index.html").as_uri(), char)
        assert fonts and not any(f.startswith(CJK_FACES) for f in fonts), (game, char, fonts)


@pytest.mark.parametrize("game", GAMES)
def test_spanish_digits_are_set_in_a_latin_face(pages, browser, game):
    fonts = _fonts_of(browser, (pages / "es" / game / "index.html").as_uri(), "2")
    assert fonts and not any(f.startswith(CJK_FACES) for f in fonts), (game, fonts)


@pytest.mark.parametrize("game", GAMES)
def test_chinese_text_keeps_a_cjk_face(pages, browser, game):
    fonts = _fonts_of(browser, (pages / "zh-tw" / game / "index.html").as_uri(), "的")
    assert fonts and all(f.startswith(CJK_FACES) for f in fonts), (game, fonts)


def test_a_gap_mark_shows_its_gap_on_focus_and_names_it_for_screen_readers(pages, browser):
    page = browser.new_page()
    try:
        page.goto((pages / "en" / "ursuppe" / "index.html").as_uri())
        mark = page.locator("main a.rb-mark", has_text="?").first
        label = mark.get_attribute("aria-label")
        assert label.startswith("Open question:") and len(label) > 40
        assert mark.get_attribute("href").startswith("#ursuppe-gap-")
        mark.focus()
        shown = mark.evaluate("e => getComputedStyle(e, '::after').content")
        assert label[:19] in shown and len(shown) > 40  # the bar at the bottom of the window holds the gap's text
    finally:
        page.close()


def _em_style(browser, url: str, text: str) -> dict:
    page = browser.new_page()
    try:
        page.goto(url)
        return page.evaluate("""(text) => {
            const em = [...document.querySelectorAll('main em')].find(e => e.textContent.includes(text));
            if (!em) return null;
            const s = getComputedStyle(em);
            return {style: s.fontStyle, weight: Number(s.fontWeight)}; }""", text)
    finally:
        page.close()


def test_chinese_emphasis_stands_upright_and_latin_emphasis_slants(pages, browser):
    """A mode label is emphasis: bold and upright in Chinese (no faux-oblique CJK), italic in Latin."""
    zh = _em_style(browser, (pages / "zh-tw" / "ulm" / "index.html").as_uri(), "僅限高塔變體")
    assert zh == {"style": "normal", "weight": 700}
    en = _em_style(browser, (pages / "en" / "ulm" / "index.html").as_uri(), "Tower variant only")
    assert en and en["style"] == "italic"
