"""Content that tries to become markup: every kind of text field of the small fixture game gets
HTML, scripts, event handlers, javascript: links, MyST roles and directives, headings, list
markers, template syntax and paths. The built HTML may hold no element and no attribute that the
clean build does not have, and the texts must show up as text."""

import html
import json
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

from conftest import FIXTURES, edit, mark_current
from generator.build import build_site
from generator.cli import validate
from generator.sphinx_ import DOCUTILS_SETTINGS, SAFE_MYST_EXTENSIONS, config

GAME = "tiny/game.yaml"

EVIL = ("<script>alert(1)</script> <img src=x onerror=alert(1)> <a href=\"javascript:alert(1)\" onclick=alert(1)>a</a> "
        "[x](javascript:alert(1)) <javascript:alert(1)> {eval-rst}`<b>b</b>` "
        "```{csv-table} x\n:file: ../../etc/passwd\n``` \n```{eval-rst}\n.. raw:: html\n\n   <iframe src=//evil></iframe>\n```\n"
        "# Heading\n- item\n1. item\n> quote\n{{ config.__class__ }} {% include '/etc/passwd' %} "
        "/etc/passwd ../../secret C:\\Windows | a | b |\n|---|\n<!-- c --> &amp; &#x3C;")

# `{raw}` and `{include}` are placeholders to the checks (RB403 unless the item has such a value),
# so the roles and directives here are the hyphenated ones that pass the checks.
# (field, the fixture's text mapping): each becomes EVIL, tagged with the field's name
FIELDS = [
    ("game-name", "name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game}"),
    ("summary", "summary: {zh-TW: 一個測試用的小遊戲。, es: Un juego pequeño para pruebas., en: A small game for tests.}"),
    ("gap-text", "text: {zh-TW: 來源沒有說紅色方塊有幾個。, es: La fuente no dice cuántos cubos rojos hay., "
                 "en: The source does not say how many red cubes there are.}"),
    ("mode-name", "name: {zh-TW: 基本, es: Básico, en: Basic}"),
    ("component-name", "name: {zh-TW: 棋子, es: peón, en: pawn}"),
    ("zone-name", "name: {zh-TW: 供應區, es: reserva, en: supply}"),
    ("step-text", "text: {zh-TW: 把所有方塊放到供應區。, es: Pon todos los cubos en la reserva., en: Put all cubes in the supply.}"),
    ("example", "{zh-TW: 安娜支付錢幣。, es: Ana paga monedas., en: Ana pays coins.}"),
    ("table-name", "name: {zh-TW: 方塊分數, es: Puntos por cubos, en: Cube points}"),
    ("card-name", "name: {zh-TW: 獎勵, es: Bonificación, en: Bonus}"),
    ("card-use-label", "label: {zh-TW: 打出, es: Jugar, en: Play}"),
    ("card-use-text", "text: {zh-TW: 拿一個方塊。, es: Toma un cubo., en: Take a cube.}"),
    ("glossary-term", "term: {zh-TW: 方塊, es: cubo, en: cube}"),
    ("glossary-definition", "definition: {zh-TW: 遊戲的資源。, es: El recurso del juego., en: The resource of the game.}"),
]
PLAIN = [("designer", "designer: Test Designer"), ("source-title", "title: Test source")]


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags, self.attrs, self.values, self.text = set(), set(), [], []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        for name, value in attrs:
            self.attrs.add((tag, name))
            self.values.append((tag, name, value or ""))

    def handle_data(self, data):
        self.text.append(data)


def _parse(site: Path) -> _Tags:
    p = _Tags()
    for page in sorted(site.rglob("*.html")):
        p.feed(page.read_text(encoding="utf-8"))
    return p


def _site(tmp_path: Path, name: str, hostile: bool) -> Path:
    content = tmp_path / f"{name}-content"
    shutil.copytree(FIXTURES / "good", content)
    if hostile:
        for field, old in FIELDS:
            key, _, _rest = old.partition(": ")
            text = json.dumps(f"{EVIL} ({field})", ensure_ascii=False)
            new = f"{key}: {{zh-TW: {text}, es: {text}, en: {text}}}" if old.startswith(key + ": {") else \
                f"{{zh-TW: {text}, es: {text}, en: {text}}}"
            edit(content / GAME, old, new)
        for field, old in PLAIN:
            key = old.partition(": ")[0]
            edit(content / GAME, old, f"{key}: " + json.dumps(f"{EVIL} ({field})", ensure_ascii=False))
        mark_current(content)  # every language was written at once: not a stale translation
    project, diags = validate(content, None)
    assert diags == [], [(d.code, d.line, d.message) for d in diags]
    out = tmp_path / name
    assert build_site(project, out, langs=["en"], pdf=False) == []
    return out


def test_hostile_text_in_every_field_stays_text(tmp_path):
    clean_site, evil_site = _site(tmp_path, "clean", False), _site(tmp_path, "evil", True)
    clean, evil = _parse(clean_site), _parse(evil_site)
    # the setup pictures (SVG) name the zones: escaped text, no element from content
    def svg_parts(site):
        tags, attrs = set(), set()
        for svg in site.rglob("*.svg"):
            for el in ET.fromstring(svg.read_text(encoding="utf-8")).iter():
                tags.add(el.tag)
                attrs |= {(el.tag, a) for a in el.attrib}
        return tags, attrs
    svgs = list(evil_site.rglob("*.svg"))
    assert svgs
    clean_svg, evil_svg = svg_parts(clean_site), svg_parts(evil_site)
    assert evil_svg[0] - clean_svg[0] == set() and evil_svg[1] - clean_svg[1] == set()
    assert any("(zone-name)" in svg.read_text(encoding="utf-8") for svg in svgs)
    # no element and no attribute the clean build does not have
    assert evil.tags - clean.tags == set()
    assert evil.attrs - clean.attrs == set()
    for tag, name, value in evil.values:
        assert not name.startswith("on"), (tag, name, value)
        if value.strip().lower().startswith(("javascript:", "data:", "vbscript:")):
            assert (tag, name, value) in clean.values, (tag, name, value)  # the theme's own icon: data:,
        if tag == "script":
            assert (tag, name, value) in clean.values, (tag, name, value)  # only the theme's scripts
        if name in ("src", "href", "action", "srcset", "data"):
            assert "//evil" not in value and value != "x" and "passwd" not in value.split("#")[0], (tag, name, value)
    text = html.unescape(" ".join(" ".join(evil.text).split()))
    for field, _old in FIELDS + PLAIN:
        if field in ("example", "glossary-definition", "card-use-text", "step-text", "zone-name"):
            continue  # shown on pages of their own kind; the ones below cover every page type
        assert f"({field})" in text, field
    # the texts are there, as text
    assert "<script>alert(1)</script>" in text
    assert "{{ config.__class__ }}" in text and "../../etc/passwd" in text
    assert "root:" not in text


def test_sphinx_is_configured_defensively(tmp_path):
    from generator.model import Site
    from generator.project import read_project
    site = read_project(FIXTURES / "good")[0].site
    conf = config("en", site, {}, None)
    assert set(conf["myst_enable_extensions"]) <= SAFE_MYST_EXTENSIONS
    assert not {"html_admonition", "html_image", "substitution", "dollarmath", "amsmath"} & SAFE_MYST_EXTENSIONS
    assert DOCUTILS_SETTINGS == {"raw_enabled": False, "file_insertion_enabled": False}
    assert isinstance(site, Site)


def test_a_page_with_raw_html_or_an_include_fails_the_build(tmp_path):
    """Even if a template or a bug let markup through, Sphinx refuses it: RB900, nothing served."""
    from generator.sphinx_ import run
    src = tmp_path / "src"
    src.mkdir()
    (src / "index.md").write_text(
        "# T\n\n```{raw} html\n<script>alert(1)</script>\n```\n\n```{include} /etc/passwd\n```\n\n"
        "```{eval-rst}\n.. raw:: html\n\n   <b>x</b>\n```\n\n<iframe src=x></iframe>\n", encoding="utf-8")
    conf = {"extensions": ["myst_parser", "generator.sphinx_"], "myst_enable_extensions": ["attrs_block"],
            "root_doc": "index", "source_suffix": {".md": "markdown"}}
    diags = run(src, tmp_path / "out", tmp_path / "doctrees", conf)
    assert sorted(d.line for d in diags if d.code == "RB900") == [3, 7, 11, 16]
    page = (tmp_path / "out" / "index.html").read_text(encoding="utf-8")
    assert "alert(1)" not in page and "<b>x" not in page and "<iframe" not in page and "root:" not in page
    conf["myst_enable_extensions"] = ["attrs_block", "html_image"]
    diags = run(src, tmp_path / "out2", tmp_path / "doctrees2", conf)
    assert [d.code for d in diags] == ["RB901"]
