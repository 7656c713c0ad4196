"""Printable PDFs: sizes, pages, fonts, text, layout rules and a sealed-off browser."""

import asyncio
import math
import subprocess
from pathlib import Path

import pytest

from conftest import ROOT
from generator import pdf
from generator.cli import validate

MM_PT = 72 / 25.4


def _info(path: Path) -> dict:
    out = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    return dict(line.split(":", 1) for line in out.splitlines() if ":" in line)


def _page_size_mm(path: Path) -> tuple[float, float]:
    w, _, h = _info(path)["Page size"].split()[:3]
    return float(w) / MM_PT, float(h) / MM_PT


@pytest.fixture(scope="module")
def ulm():
    project, _ = validate(ROOT / "content", ["ulm"], simulation=False)
    return project


@pytest.mark.parametrize("name, paper", [("reference.pdf", (210, 297)), ("reference-letter.pdf", (215.9, 279.4)),
                                         ("cards.pdf", (210, 297)), ("cards-letter.pdf", (215.9, 279.4))])
def test_sheet_size_is_exact(built_site, name, paper):
    w, h = _page_size_mm(built_site / "zh-tw/ulm" / name)
    assert abs(w - paper[0]) <= 0.5 and abs(h - paper[1]) <= 0.5, (w, h)


def test_page_count_follows_the_layout(built_site, ulm):
    game = ulm.games["ulm"].model
    s = pdf.settings_for(ulm)
    faces = [f for face in pdf.card_faces(game, "es", "zh-TW") for f in pdf.fit(face, 60 - 6, 92 - 6)]
    per_sheet = len(pdf.layout(faces, 60, 92, "a4", s)[0].cards)
    expected = math.ceil(len(faces) / per_sheet) * (2 if s.backs else 1)
    assert int(_info(built_site / "es/ulm/cards.pdf")["Pages"]) == expected
    assert per_sheet >= 4


@pytest.mark.parametrize("lang", ["zh-tw", "es", "en"])
def test_fonts_are_embedded_truetype_subsets_never_type3(built_site, lang):
    for name in ("reference.pdf", "cards.pdf"):
        out = subprocess.run(["pdffonts", str(built_site / lang / "ulm" / name)], capture_output=True, text=True,
                             check=True).stdout.splitlines()[2:]
        assert out, "no fonts at all"
        for row in out:
            assert "Type 3" not in row, row
            assert "TrueType" in row and " yes yes " in row, row  # embedded, subset
            # only the faces the print CSS names: a character they lack would pull in a fallback
            # face (or a box), and show up here
            assert row.split()[0].split("+")[1] in {"UMingTW", "DejaVuSans", "DejaVuSans-Bold"}, row
        if lang == "zh-tw":
            assert any("UMing" in row for row in out)


def test_chinese_card_names_are_in_the_pdf_text(built_site, ulm):
    text = subprocess.run(["pdftotext", str(built_site / "zh-tw/ulm/cards.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    game = ulm.games["ulm"].model
    chronicle = [c for g in game.cards for c in g.cards if c.kind == "card-chronicle"]
    assert len(chronicle) == 9
    for card in chronicle:
        assert card.name["zh-TW"] in text.replace("\n", ""), card.name["zh-TW"]


def _gray_row(path: Path, dpi: int, page: int, y_mm: float) -> list[int]:
    """One row of pixels (0-255) of a page rendered in gray by pdftoppm (a binary PGM)."""
    import re
    raw = subprocess.run(["pdftoppm", "-gray", "-r", str(dpi), "-f", str(page), "-l", str(page), str(path)],
                         capture_output=True, check=True).stdout
    m = re.match(rb"P5\s+(\d+)\s+(\d+)\s+(\d+)\s", raw)
    width = int(m.group(1))
    pixels = raw[m.end():]
    y = round(y_mm / 25.4 * dpi)
    return list(pixels[y * width:(y + 1) * width])


def test_printed_card_size_is_exact_to_half_a_millimetre(built_site, ulm):
    """Measure the bleed box of the first insert in the rendered PDF: card + 2 × bleed."""
    s = pdf.settings_for(ulm)
    game = ulm.games["ulm"].model
    faces = [f for face in pdf.card_faces(game, "es", "zh-TW") for f in pdf.fit(face, 54, 86)]
    sheet = pdf.layout(faces, 60, 92, "a4", s)[0]
    first = sheet.cards[0]
    cols = sum(1 for c in sheet.cards if c.y == first.y)
    dpi = 254  # 10 pixels per millimetre
    row = _gray_row(built_site / "es/ulm/cards.pdf", dpi, 1, first.y - s.bleed_mm / 2)  # inside the top bleed
    tinted = [i for i, v in enumerate(row) if 200 < v < 250]
    runs, start = [], tinted[0]
    for a, b in zip(tinted, tinted[1:] + [None]):
        if b != a + 1:
            runs.append((start, a))
            start = b
    left, right = runs[0]
    # the bleed boxes of one row abut: the tint runs cols × (card + 2 × bleed)
    assert abs((right - left + 1) / 10 - cols * (60 + 2 * s.bleed_mm)) <= 0.5
    assert abs(left / 10 - (first.x - s.bleed_mm)) <= 0.5


def test_crop_marks_stay_outside_the_bleed_and_have_the_set_length():
    s = pdf.PrintSettings(crop_length_mm=7, crop_offset_mm=3, bleed_mm=3)
    faces = [pdf.Face(f"card {i}") for i in range(5)]
    sheet = pdf.layout(faces, 63, 88, "a4", s)[0]
    for (x, y, w, h) in sheet.marks:
        assert max(w, h) == 7
        for card in sheet.cards:  # a mark never enters any card's bleed box
            bx0, by0 = card.x - s.bleed_mm, card.y - s.bleed_mm
            bx1, by1 = card.x + card.w + s.bleed_mm, card.y + card.h + s.bleed_mm
            assert x + w <= bx0 or x >= bx1 or y + h <= by0 or y >= by1
        assert 0 <= x and x + w <= 210 and 0 <= y and y + h <= 297
    trims_x = {round(c.x, 3) for c in sheet.cards} | {round(c.x + c.w, 3) for c in sheet.cards}
    vertical = [m for m in sheet.marks if m[3] > m[2]]
    assert {round(x + w / 2, 3) for x, y, w, h in vertical} == trims_x


def test_backs_follow_in_duplex_order_with_the_set_offset():
    s = pdf.PrintSettings(backs=True, back_offset_x_mm=1.5, back_offset_y_mm=-0.5)
    faces = [pdf.Face(f"card {i}") for i in range(3)]
    front, back = pdf.layout(faces, 63, 88, "a4", s)
    assert not front.back and back.back and back.marks == []
    # long-edge duplex: the card at the left of the front is at the right of the back
    xs = sorted({c.x for c in front.cards})
    cols = len(xs)
    for f, b in zip(front.cards, back.cards):
        mirrored = xs[cols - 1 - xs.index(f.x)]
        assert b.x == pytest.approx(mirrored + 1.5) and b.y == pytest.approx(f.y - 0.5)


def test_the_printing_browser_runs_no_script_and_fetches_nothing_outside(tmp_path):
    page = tmp_path / "p.html"
    page.write_text('<html><body><p id="t">static</p><img src="http://198.51.100.7/x.png">'
                    '<script>document.getElementById("t").textContent = "scripted"</script></body></html>')
    out = tmp_path / "p.pdf"
    refused: list[str] = []
    diags = asyncio.run(pdf._print_all([pdf.PdfJob(page, out, "a4")], tmp_path, pdf.PrintSettings(), refused))
    assert diags == []
    text = subprocess.run(["pdftotext", str(out), "-"], capture_output=True, text=True, check=True).stdout
    assert "static" in text and "scripted" not in text
    assert refused == ["http://198.51.100.7/x.png"]


def test_pages_link_their_pdfs(built_site):
    html = (built_site / "en/ulm/index.html").read_text(encoding="utf-8")
    for name in ("reference.pdf", "reference-letter.pdf", "cards.pdf", "cards-letter.pdf"):
        assert f'href="../../en/ulm/{name}"' in html
        assert (built_site / "en/ulm" / name).is_file()


def test_no_chromium_is_a_diagnostic_and_the_site_is_kept(tmp_path, monkeypatch):
    from conftest import FIXTURES
    from generator.build import build_site
    project, _ = validate(FIXTURES / "good", None)
    out = tmp_path / "site"
    assert build_site(project, out, langs=["en"], pdf=False) == []
    before = sorted(p.name for p in out.rglob("*"))
    monkeypatch.setattr(pdf, "CHROMIUM", str(tmp_path / "no-such-browser"))
    diags = build_site(project, out, langs=["en"])
    assert [d.code for d in diags] == ["RB902"] and "--no-pdf" in diags[0].hint
    assert sorted(p.name for p in out.rglob("*")) == before


def test_a_rebuild_prints_only_the_changed_games_pdfs(tmp_path):
    project, _ = validate(ROOT / "content", None, simulation=False)
    s = pdf.settings_for(project)
    every = {job.pdf.relative_to(tmp_path) for job in pdf.jobs_for(project, tmp_path, tmp_path, ["es"], s)}
    only = {job.pdf.relative_to(tmp_path) for job in pdf.jobs_for(project, tmp_path, tmp_path, ["es"], s, {"jorvik"})}
    assert {p.parts[1] for p in every} == set(project.games)
    assert only == {p for p in every if p.parts[1] == "jorvik"} and only


def test_playwright_is_installed_with_the_package_and_named_when_missing(tmp_path, monkeypatch):
    """After `pip install -e .` (no test extras) a build failed with a hint about Chromium:
    playwright was only a test dependency. It is the package's own now, and a missing one is
    named as what is missing."""
    import importlib.metadata
    import importlib.util
    requires = importlib.metadata.requires("rulebook")
    assert any(r.startswith("playwright") and "extra ==" not in r for r in requires), requires
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "playwright" else real(name, *a))
    diags = pdf.build_pdfs(validate(ROOT / "content", ["ulm"], simulation=False)[0], tmp_path, ["en"])
    assert [d.code for d in diags] == ["RB902"]
    assert "'playwright' is not installed" in diags[0].message and "pip install playwright" in diags[0].hint
