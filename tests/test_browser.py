"""Browser tests: Playwright drives Debian's Chromium against the built site on 127.0.0.1."""

import functools
import http.server
import threading
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parent / "artifacts"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(built_site):
    handler = functools.partial(_Quiet, directory=str(built_site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    errors = []
    pg.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("response", lambda r: errors.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    pg.errors = errors
    yield pg
    context.close()


def test_switch_language_lands_on_the_same_page(page, server):
    page.goto(f"{server}/zh-tw/ulm/index.html")
    assert page.locator("html").get_attribute("lang") == "zh-TW"
    page.click("nav.rb-languages a[hreflang='es']")
    page.wait_for_load_state()
    assert page.url == f"{server}/es/ulm/index.html"
    assert page.locator("html").get_attribute("lang") == "es"
    page.click("nav.rb-languages a[hreflang='en']")
    assert page.url == f"{server}/en/ulm/index.html"
    assert page.errors == []


def _search(page, server, query: str) -> tuple[list[str], str]:
    """The result links and their text of a search on the zh-TW site."""
    page.goto(f"{server}/zh-tw/search.html?q={query}")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for()
    hrefs = [results.nth(i).get_attribute("href") for i in range(results.count())]
    return hrefs, " ".join(results.nth(i).inner_text() for i in range(results.count()))


def test_chinese_search_finds_the_sparrow_rules(page, server):
    hrefs, texts = _search(page, server, "麻雀")
    assert any("ulm/" in h for h in hrefs), hrefs
    assert "麻雀" in texts, texts
    assert page.errors == []


def test_chinese_queries_are_cut_in_the_browser_as_the_index_was(page, server):
    """The query splitter in language_data.js and generator/search_zh.py must cut alike, or
    a word the index holds is not found; checked on every zh-TW glossary term and card name."""
    from conftest import ROOT
    from generator.cli import validate
    from generator.search_zh import split_query
    project, _ = validate(ROOT / "content", None, simulation=False)
    texts = [t.term["zh-TW"] for d in project.games.values() for t in d.model.glossary]
    texts += [c.name["zh-TW"] for d in project.games.values() for g in d.model.cards for c in g.cards if c.name]
    texts += ["Burkhardt 的大教堂", "3 枚錢幣", "𠀀𠀁字"]  # Latin and digits among Chinese; a character beyond U+FFFF
    page.goto(f"{server}/zh-tw/search.html")
    page.wait_for_function("typeof splitQuery === 'function'")
    cut = page.evaluate("texts => texts.map(t => splitQuery(t))", texts)
    assert cut == [split_query(t) for t in texts]
    assert page.errors == []


def test_chinese_search_finds_a_card_by_part_of_its_name(page, server):
    hrefs, _ = _search(page, server, "施瓦本")  # of 施瓦本聯盟
    assert any("ulm/cards" in h for h in hrefs), hrefs
    assert page.errors == []


def test_english_word_is_found_on_the_chinese_site(page, server):
    page.goto(f"{server}/zh-tw/search.html?q=Burkhardt")
    results = page.locator("#search-results ul.search li a")
    results.first.wait_for()
    assert results.count() >= 1


def test_pages_have_no_console_errors_and_screenshots(page, server):
    ARTIFACTS.mkdir(exist_ok=True)
    for lang in ("zh-tw", "es", "en"):
        for doc in ("index", "components", "cards", "glossary"):
            page.goto(f"{server}/{lang}/ulm/{doc}.html")
            page.wait_for_load_state("networkidle")
            if doc in ("index", "components"):
                page.screenshot(path=str(ARTIFACTS / f"{lang}-{doc}.png"), full_page=False)
    page.goto(f"{server}/index.html")
    assert page.locator("a[hreflang='zh-TW']").count() == 1
    assert page.errors == []


def test_cjk_text_renders_with_a_cjk_font(page, server):
    """The heading's Chinese glyphs come from a real CJK face, not a fallback box."""
    page.goto(f"{server}/zh-tw/ulm/index.html")
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    doc = cdp.send("DOM.getDocument")
    node = cdp.send("DOM.querySelector", {"nodeId": doc["root"]["nodeId"], "selector": "h1"})
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
    names = " ".join(f["familyName"] for f in fonts)
    assert "CJK" in names or "TC" in names or "Hei" in names, names


CJK_FACES = ("CJK", "UMing", "PingFang", "JhengHei", "Source Han")


def _faces_of_svg_text(page, pattern: str) -> tuple[str, list[str]]:
    """Open the page's first setup picture as a document of its own (an image's text cannot be
    inspected inside the page) and return the first <text> matching `pattern` with the faces
    Chromium sets it in (CSS.getPlatformFontsForNode)."""
    src = page.locator("main img[src$='.svg']").first.get_attribute("src")
    page.goto(page.url.rsplit("/", 1)[0] + "/" + src)
    index = page.evaluate("""(re) => [...document.querySelectorAll('text')]
        .findIndex(t => new RegExp(re).test(t.textContent))""", pattern)
    assert index >= 0, f"no text matching {pattern!r} in {page.url}"
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    node = cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": "text"})["nodeIds"][index]
    fonts = [f["familyName"] for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]]
    return page.evaluate("(i) => document.querySelectorAll('text')[i].textContent", index), fonts


@pytest.mark.parametrize("lang", ["en", "es"])
def test_setup_picture_sets_latin_labels_in_a_latin_face(page, server, lang):
    """The picture's own font list, not the page's CSS, decides: a label like "barges ×2" must not
    come out in the CJK face with full-width digits."""
    page.goto(f"{server}/{lang}/ulm/index.html")
    text, fonts = _faces_of_svg_text(page, "[0-9]")
    assert fonts and not [f for f in fonts if any(c in f for c in CJK_FACES)], (text, fonts)


def test_setup_picture_sets_chinese_labels_in_a_cjk_face(page, server):
    page.goto(f"{server}/zh-tw/ulm/index.html")
    text, fonts = _faces_of_svg_text(page, "^[\u4e00-\u9fff]+$")
    assert fonts and all(any(c in f for c in CJK_FACES) for f in fonts), (text, fonts)


def test_glossary_term_shows_its_definition_on_hover_and_focus(page, server):
    page.goto(f"{server}/es/ulm/index.html")
    term = page.locator("main a.rb-term").first
    definition = term.get_attribute("data-def")
    assert definition and len(definition) > 10
    after = "el => getComputedStyle(el, '::after').content"
    assert term.evaluate(after) in ("none", "normal", "")
    term.hover()
    assert definition in term.evaluate(after)
    page.mouse.move(0, 0)
    term.focus()
    assert definition in term.evaluate(after)
    assert "glossary.html#ulm-term-" in term.get_attribute("href")
