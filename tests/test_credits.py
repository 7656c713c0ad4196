"""Credits and links: the artist beside the designer, links to pages about the game (its
BoardGameGeek page) under them. Addresses come from strangers' content: only plain http(s)
addresses pass the schema, and the page's href is exactly the address written."""

import json
import re
from html.parser import HTMLParser

import pytest

from conftest import ROOT, edit, mark_current
from generator.build import build_site
from generator.cli import main, validate
from generator.model import Link, Source
from generator.render import render_language
from generator.render.markdown import link

GAME = "tiny/game.yaml"
SOURCE_LINE = "  - {id: src-test, title: Test source, where: tests/fixtures}"
BGG = {"ulm": "https://boardgamegeek.com/boardgame/191876/ulm",
       "jorvik": "https://boardgamegeek.com/boardgame/193739/jorvik"}
ARTIST = {"ulm": "Michael Menzel", "jorvik": "Marc Margielsky"}
LABEL = {"zh-TW": ("美術設計：", "相關連結："), "es": ("Ilustración: ", "Enlaces: "), "en": ("Art: ", "Links: ")}


def _with_link(content, url: str, title: str = "{zh-TW: 網頁, es: Página, en: Page}",
               artist: str = "Test Artist") -> None:
    edit(content / GAME, "designer: Test Designer", f"designer: Test Designer\nartist: {artist}")
    edit(content / GAME, SOURCE_LINE, SOURCE_LINE + f"\nlinks:\n  - id: link-page\n    title: {title}\n"
         f"    url: {url}\n    source: src-test")


ACCEPTED = ["https://boardgamegeek.com/boardgame/191876/ulm",
            "http://boardgamegeek.com/boardgame/155426/castles-mad-king-ludwig",
            "https://de.wiki.li/Ursuppe_(Spiel)", "https://slideplayer.com./slide/4651302",
            "https://example.org:8080/a?b=1&c=%C3%A9#top"]
REFUSED = ["javascript:alert(1)", "JavaScript:alert(1)", " javascript:alert(1)", "data:text/html,<script>x</script>",
           "vbscript:msgbox", "file:///etc/passwd", "//evil.example/x", "https://", "HTTPS://example.org",
           "https://example.org/\"onmouseover=alert(1)", "https://example.org/a b", "https://example.org/<script>",
           "https://example.org/a\\b", "https://example.org/'x'", "https://bgg.com@evil.example/",
           "https://example.org/%zz", "https://example.org/[x]", "https://exa mple.org", "https://-x.org/",
           "https://example.org/" + "a" * 2000]


@pytest.mark.parametrize("url", ACCEPTED)
def test_plain_web_addresses_are_accepted(url):
    assert Link.model_validate({"id": "l", "title": {"en": "x"}, "url": url}).url == url
    assert Source.model_validate({"id": "s", "title": "x", "where": url}).where == url


@pytest.mark.parametrize("url", REFUSED)
def test_anything_but_a_plain_web_address_is_refused(url):
    with pytest.raises(ValueError):
        Link.model_validate({"id": "l", "title": {"en": "x"}, "url": url})
    # a safe-looking text is never linked either: the link helper gives the words alone
    assert link("words", url) == "words"


def test_a_source_may_still_name_a_seed_file_but_not_a_script():
    assert Source.model_validate({"id": "s", "title": "x", "where": "004_02ff7538439c35c2.txt"})
    with pytest.raises(ValueError, match="'javascript:' addresses are not allowed"):
        Source.model_validate({"id": "s", "title": "x", "where": "javascript:alert(1)"})


@pytest.mark.parametrize("field", ["url", "where"])
def test_a_javascript_address_is_rb100_at_its_line_and_column(good_content, field):
    if field == "url":
        _with_link(good_content, "javascript:alert(1)")
    else:
        edit(good_content / GAME, "where: tests/fixtures", "where: javascript:alert(1)")
    text = (good_content / GAME).read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(text, 1) if f"{field}: javascript:" in t)
    column = text[line - 1].index("javascript:") + 1
    _project, diags = validate(good_content, None, simulation=False)
    [d] = [d for d in diags if d.severity.value == "error"]
    assert (d.code, d.file.endswith("tiny/game.yaml"), d.line, d.column) == ("RB100", True, line, column)
    assert "'javascript:' addresses are not allowed" in d.message and "http://" in d.message
    assert d.hint.startswith("write the page's address as the browser shows it, e.g. https://")


def test_the_cli_reports_a_bad_address_like_a_compiler_and_exits_1(good_content, capsys):
    _with_link(good_content, "data:text/html,x")
    assert main(["validate", "--no-sim", "--content", str(good_content)]) == 1
    out = capsys.readouterr()
    assert re.search(r"tiny/game\.yaml:\d+:10: error RB100: 'data:' addresses are not allowed", out.out + out.err)
    assert "Traceback" not in out.out + out.err


def test_the_link_keeps_the_address_exactly_as_written():
    # punctuation is escaped, so Markdown decodes no entity and no bracket ends the link early
    out = link("Page", "https://example.org/a_(b)?x=1&amp;y=2")
    assert out == r"[Page](<https\:\/\/example\.org\/a\_\(b\)\?x\=1\&amp\;y\=2>)"


class _Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.links, self.meta, self._in = [], [], None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and attrs.get("href", "").startswith(("http:", "https:")):
            self.links.append(attrs)
        if tag == "p" and "rb-meta" in (attrs.get("class") or ""):
            self._in = []
        if tag == "a" and self._in is not None:
            self._in.append(f"<a href={attrs.get('href')}>")

    def handle_data(self, data):
        if self._in is not None:
            self._in.append(data)

    def handle_endtag(self, tag):
        if tag == "p" and self._in is not None:
            self.meta.append("".join(self._in))
            self._in = None


def _parse(html_file) -> _Links:
    p = _Links()
    p.feed(html_file.read_text(encoding="utf-8"))
    return p


def test_hostile_credits_stay_text_and_the_address_is_exact(good_content, tmp_path):
    evil = "<script>alert(1)</script> [x](javascript:alert(1)) {eval-rst}`<b>b</b>` &amp;"
    url = "https://example.org/a_(b)?x=1&amp;y=2"
    _with_link(good_content, url, title=json.dumps({"zh-TW": evil, "es": evil, "en": evil}, ensure_ascii=False),
               artist=json.dumps(evil))
    mark_current(good_content)
    project, diags = validate(good_content, None)
    assert diags == []
    assert build_site(project, tmp_path / "site", langs=["en"], pdf=False) == []
    html = (tmp_path / "site" / "en" / "tiny" / "index.html").read_text(encoding="utf-8")
    assert "<script>alert(1)" not in html and "<b>b</b>" not in html and 'href="javascript' not in html
    page = _parse(tmp_path / "site" / "en" / "tiny" / "index.html")
    [a] = page.links
    assert a["href"] == url and a["rel"] == "noopener noreferrer"
    credits, links = page.meta
    assert f"Art: {evil}" in credits
    assert links == f"Links: <a href={url}>{evil}"


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Ulm and Jórvík built without PDFs, in every language."""
    project, diags = validate(ROOT / "content", ["ulm", "jorvik"], simulation=False)
    assert [d for d in diags if d.severity.value == "error"] == []
    out = tmp_path_factory.mktemp("credits") / "site"
    assert build_site(project, out, pdf=False) == []
    return out


@pytest.mark.parametrize("lang", ["zh-TW", "es", "en"])
@pytest.mark.parametrize("game", ["ulm", "jorvik"])
def test_the_rulebook_shows_the_artist_and_links_the_boardgamegeek_page(built, game, lang):
    page = _parse(built / lang.lower() / game / "index.html")
    art, links = LABEL[lang]
    credits, linked = page.meta
    assert f"{art}{ARTIST[game]}" in credits
    assert linked.startswith(f"{links}<a href={BGG[game]}>")
    bgg = [a for a in page.links if "boardgamegeek" in a["href"]]
    assert [a["href"] for a in bgg] == [BGG[game]] and bgg[0]["rel"] == "noopener noreferrer"


def test_sources_on_the_web_are_links_too(built):
    page = _parse(built / "en" / "ulm" / "index.html")
    source = "https://www.reich-der-spiele.de/specials/guenter-burkhardt-ulm-0000269"
    assert {"href": source, "class": "reference external", "rel": "noopener noreferrer"} in page.links


def test_the_authoring_guide_example_is_valid(good_content):
    guide = (ROOT / "docs" / "authoring.md").read_text(encoding="utf-8")
    block = guide[guide.index("**Credits and links.**"):]
    example = block[block.index("```yaml\n") + 8:block.index("```\n", block.index("```yaml\n") + 8)]
    lines = [line[2:] for line in example.splitlines()]
    edit(good_content / GAME, "designer: Test Designer\n", "\n".join(lines[:2]) + "\n")
    links = "\n".join(lines[2:]).replace("source: seed-004", "source: src-test")
    edit(good_content / GAME, SOURCE_LINE, SOURCE_LINE + "\n" + links)
    mark_current(good_content)
    project, diags = validate(good_content, None, simulation=False)
    assert diags == []
    game = project.games["tiny"].model
    assert game.artist == "Marc Margielsky" and game.links[0].url == BGG["jorvik"]
    render_language(project, "es", good_content.parent / "out")
    assert "Ilustración: Marc Margielsky" in (good_content.parent / "out" / "tiny" / "index.md").read_text(encoding="utf-8")


def test_a_link_from_another_source_carries_its_number_and_a_stale_title_its_mark(good_content, tmp_path):
    _with_link(good_content, "https://example.org/page")
    edit(good_content / GAME, SOURCE_LINE, SOURCE_LINE + "\n  - {id: src-web, title: A review, where: https://example.org/review}")
    edit(good_content / GAME, "    source: src-test\n", "    source: src-web\n")
    mark_current(good_content)
    edit(good_content / GAME, "title: {zh-TW: 網頁,", "title: {zh-TW: 網站首頁,")  # the source text changed since
    project, diags = validate(good_content, None, simulation=False)
    # es and en now translate an older text (RB720: the fixture's items name no source, now that there are two)
    assert [d.code for d in diags if d.code != "RB720"] == ["RB406", "RB406"]
    render_language(project, "es", tmp_path / "es")
    line = next(t for t in (tmp_path / "es" / "tiny" / "index.md").read_text(encoding="utf-8").splitlines()
                if t.startswith("Enlaces:"))
    assert line.startswith(r"Enlaces: [Página](<https\:\/\/example\.org\/page>) *[")  # the stale mark after the link
    assert line.endswith(r"[\[2\]](#tiny-src-web)")  # and the number of its source
