"""Pseudo-localization: `rulebook build --pseudo` shows every string that escaped translation and
every layout that breaks under longer text. The test builds Ulm (its texts are the longest) in
the pseudo language, pages and PDFs, and reads them as a reviewer would."""

from __future__ import annotations

import re
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from conftest import ROOT, one_game_content
from generator.cli import main
from generator.i18n import translator
from generator.project import read_project
from generator.translations.pseudo import CLOSE, OPEN, PSEUDO, add_pseudo, pseudo

GAME = "ulm"


def test_pseudo_text_is_accented_longer_bracketed_and_keeps_placeholders():
    s = pseudo("Pay {cost} coins to take 2 tiles.")
    assert s.startswith(OPEN) and s.endswith(CLOSE)
    assert "{cost}" in s and " 2 " in s and "Pay" not in s and "Þàý" in s
    body = len("Pay  coins to take 2 tiles.")
    assert 1.3 * body <= len(s) - len("{cost}") - 2 <= 1.6 * body
    assert translator(PSEUDO)("Setup") == pseudo("Setup")  # interface strings too
    assert translator(PSEUDO)("{n} players", n=3).count("3") == 1


class _Main(HTMLParser):
    """The text inside <main> (the theme's content area); Sphinx's own search page is left out."""

    VOID = {"br", "img", "hr", "meta", "link", "input", "wbr"}

    def __init__(self):
        super().__init__()
        self.depth, self.skip, self.out = 0, 0, []

    def handle_starttag(self, tag, attrs):
        if tag == "main" or (self.depth and tag not in self.VOID):
            self.depth += 1
        self.skip += tag in ("script", "style")

    def handle_endtag(self, tag):
        if self.depth and tag not in self.VOID:
            self.depth -= 1
        self.skip -= tag in ("script", "style")

    def handle_data(self, data):
        if self.depth and not self.skip:
            self.out.append(data)


def _escaped(text: str, allowed: set[str]) -> set[str]:
    """Latin words left once every pseudo-localized ⟦…⟧ is taken out, but for the data that is
    not translated (names as printed, file names of sources)."""
    rest = re.sub(re.escape(OPEN) + ".*?" + re.escape(CLOSE), " ", text, flags=re.S)
    return {w for w in re.findall(r"[A-Za-z]{2,}", rest) if w not in allowed}


@pytest.fixture(scope="module")
def pseudo_site(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("pseudo")
    content = one_game_content(root, GAME)
    assert main(["build", "--pseudo", "--content", str(content), "--out", str(root / "site")]) == 0
    return root / "site"


def _untranslated_data() -> set[str]:
    project, _ = read_project(ROOT / "content", [GAME])
    g = project.games[GAME].model
    words = [g.designer, g.artist or "", g.publisher or "", g.play_time or ""]
    words += [s.title for s in g.sources] + [s.where for s in g.sources]
    return set(re.findall(r"[A-Za-z]{2,}", " ".join(words)))


def test_no_page_holds_a_string_that_escaped_translation(pseudo_site):
    allowed = _untranslated_data()
    pages = sorted(p for p in (pseudo_site / "en-xa").rglob("*.html") if p.name != "search.html")
    assert len(pages) >= 6
    for page in pages:
        parser = _Main()
        parser.feed(page.read_text(encoding="utf-8"))
        text = "".join(parser.out)
        assert OPEN in text, page
        assert _escaped(text, allowed) == set(), page


def test_no_pdf_holds_a_string_that_escaped_translation(pseudo_site):
    allowed = _untranslated_data()
    pdfs = sorted((pseudo_site / "en-xa" / GAME).glob("*.pdf"))
    assert {p.name for p in pdfs} >= {"reference.pdf", "cards.pdf"}
    for pdf in pdfs:
        text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        assert OPEN in text and _escaped(text, allowed) == set(), pdf


def test_the_aids_and_inserts_still_fit_their_cards(tmp_path):
    """Chromium lays the pseudo sheets out; no card's text runs past its inner box."""
    from playwright.sync_api import sync_playwright

    from generator.pdf import CHROMIUM, CHROMIUM_ARGS, jobs_for, settings_for
    project, _ = read_project(ROOT / "content", [GAME])
    add_pseudo(project)
    s = settings_for(project)
    jobs = jobs_for(project, tmp_path / "site", tmp_path, [PSEUDO], s)
    assert jobs
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            for job in jobs:
                page.goto(job.html.as_uri())
                over = page.evaluate("""() => [...document.querySelectorAll('.card .inner')]
                    .filter(e => e.scrollHeight > e.clientHeight + 1)
                    .map(e => e.querySelector('h1').textContent + ' ' + e.scrollHeight + '>' + e.clientHeight)""")
                assert over == [], (job.html.name, over)
        finally:
            browser.close()


def test_the_cli_knows_the_pseudo_tag_without_importing_babel():
    from generator import cli, i18n
    assert cli._PSEUDO == i18n.PSEUDO == PSEUDO


def test_the_pseudo_tag_as_a_language_builds_the_pseudo_site(tmp_path):
    from conftest import FIXTURES
    import shutil
    shutil.copytree(FIXTURES / "good", tmp_path / "content")
    out = tmp_path / "site"
    assert main(["build", "--lang", "en-XA", "--no-pdf", "--content", str(tmp_path / "content"), "--out", str(out)]) == 0
    assert sorted(p.name for p in out.iterdir() if p.is_dir()) == ["en-xa"]
    page = (out / "en-xa" / "tiny" / "index.html").read_text(encoding="utf-8")
    assert 'lang="en-XA"' in page and pseudo("Tiny game") in page
