"""The built site of the shipped content: page list, languages, links, safety, atomic publish."""

import re
import shutil
from pathlib import Path


from conftest import FIXTURES, edit
from generator.build import build_site
from generator.cli import validate

LANGS = ["zh-tw", "es", "en"]
PAGES = ["index", "components", "cards", "glossary"]


def test_site_layout(built_site):
    assert (built_site / "index.html").is_file()
    for lang in LANGS:
        assert (built_site / lang / "index.html").is_file()
        assert (built_site / lang / "search.html").is_file()
        for page in PAGES:
            assert (built_site / lang / "ulm" / f"{page}.html").is_file(), (lang, page)


def test_html_lang_and_hreflang_use_bcp47(built_site):
    html = (built_site / "zh-tw/ulm/index.html").read_text(encoding="utf-8")
    assert '<html lang="zh-TW"' in html
    for tag, seg in (("zh-TW", "zh-tw"), ("es", "es"), ("en", "en")):
        assert f'<link rel="alternate" hreflang="{tag}" href="../../{seg}/ulm/index.html">' in html


def test_language_switcher_leads_to_the_same_page(built_site):
    for page in PAGES:
        html = (built_site / "es/ulm" / f"{page}.html").read_text(encoding="utf-8")
        assert f'href="../../zh-tw/ulm/{page}.html" hreflang="zh-TW"' in html
        assert f'href="../../en/ulm/{page}.html" hreflang="en"' in html


def test_interface_strings_are_translated(built_site):
    zh = (built_site / "zh-tw/ulm/index.html").read_text(encoding="utf-8")
    es = (built_site / "es/ulm/index.html").read_text(encoding="utf-8")
    assert "遊戲設置" in zh and "快速搜尋" in zh
    assert "Preparación" in es and "Búsqueda rápida" in es


def test_glossary_terms_link_to_their_definitions(built_site):
    html = (built_site / "zh-tw/ulm/index.html").read_text(encoding="utf-8")
    links = re.findall(r'href="glossary.html#(ulm-term-[a-z0-9-]+)"', html)
    assert len(set(links)) >= 10
    glossary = (built_site / "zh-tw/ulm/glossary.html").read_text(encoding="utf-8")
    for label in set(links):
        assert f'id="{label}"' in glossary


def test_only_the_themes_own_scripts(built_site):
    allowed = {"documentation_options.js", "doctools.js", "sphinx_highlight.js", "searchtools.js",
               "language_data.js", "translations.js", "searchindex.js"}
    for page in built_site.rglob("*.html"):
        html = page.read_text(encoding="utf-8")
        assert "Content-Security-Policy" in html, page
        for tag in re.findall(r"<script[^>]*>", html):
            src = re.search(r'src="([^"]+)"', tag)
            assert src, f"inline script in {page}: {tag}"
            assert Path(src.group(1).split("?")[0]).name in allowed, (page, tag)


def test_components_page_shows_each_player_count(built_site):
    html = (built_site / "en/ulm/components.html").read_text(encoding="utf-8")
    for n in (2, 3, 4):
        assert f"{n} players" in html


def test_failed_build_leaves_the_previous_site(tmp_path):
    project, diags = validate(FIXTURES / "good", None)
    out = tmp_path / "site"
    assert build_site(project, out, langs=["en"]) == []
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    # break the theme's template for this build only: Sphinx fails, nothing may change
    broken = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", broken)
    edit(broken / "tiny/game.yaml", "id: card-bonus", "id: card-bonus\n        count: 2")
    project, diags = validate(broken, None)
    from generator import sphinx_
    real = sphinx_.run
    sphinx_.run = lambda *a, **k: real(*a, **k) + [__import__("generator.diagnostics").diagnostics.Diagnostic("RB901", "simulated failure")]
    try:
        assert build_site(project, out, langs=["en"])
    finally:
        sphinx_.run = real
    after = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site") and p.name != ".site.cache"] == []


def test_hostile_text_never_becomes_markup(tmp_path):
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    evil = "<script>alert(1)</script> <img src=x onerror=alert(1)> [x](javascript:alert(1)) {eval-rst}`<b>` ```{include-x} /etc/passwd"
    edit(content / "tiny/game.yaml", "en: A small game for tests.", "en: '" + evil + "'")
    project, diags = validate(content, None)
    assert diags == []
    out = tmp_path / "site"
    assert build_site(project, out, langs=["en"]) == []
    html = (out / "en/tiny/index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<img src=x" not in html and "<b>" not in html
    assert 'href="javascript' not in html
    assert "root:" not in html


def test_components_page_reports_the_simulated_games(built_site):
    """Ulm lasts 10 rounds: every simulated game has 10 turns per player."""
    import html as h
    page = h.unescape(re.sub(r"<[^>]+>", " ", (built_site / "en/ulm/components.html").read_text(encoding="utf-8")))
    text = " ".join(page.split())
    from generator.check.simulate import DEFAULT_SEEDS
    assert "Simulated games: Basic game" in text
    for n in (2, 3, 4):
        assert f"{n} {DEFAULT_SEEDS} {10 * n} ({10 * n}–{10 * n})" in text


def test_chinese_search_finds_every_glossary_term_and_card_name(built_site):
    """A zh-TW query is cut into character bigrams (generator/search_zh.py), and a page is found
    when it holds all of them: every glossary term is found on its game's glossary page and
    every card name on its cards page (jieba's Simplified dictionary once split 46 of them)."""
    import json

    from conftest import ROOT
    from generator.cli import validate as check
    from generator.search_zh import split_query
    project, _ = check(ROOT / "content", None, simulation=False)
    raw = (built_site / "zh-tw/searchindex.js").read_text(encoding="utf-8")
    index = json.loads(raw[raw.index("(") + 1:raw.rindex(")")])

    def pages(word: str) -> set[str]:
        found = set()
        for table in (index["terms"], index["titleterms"]):
            hits = table.get(word.lower(), [])
            found |= {index["docnames"][i] for i in (hits if isinstance(hits, list) else [hits])}
        return found

    missing, checked = [], 0
    for gid, doc in project.games.items():
        wanted = [(t.term["zh-TW"], f"{gid}/glossary") for t in doc.model.glossary]
        wanted += [(c.name["zh-TW"], f"{gid}/cards") for g in doc.model.cards for c in g.cards if c.name]
        for text, page in wanted:
            # as Sphinx's searchtools.js, a query skips words that are only digits ('烏姆第 1 紀年')
            terms = [t for t in split_query(text) if not t.isdigit()]
            assert terms, text
            checked += 1
            if not all(page in pages(t) for t in terms):
                missing.append((text, page))
    assert checked > 150
    assert missing == []
