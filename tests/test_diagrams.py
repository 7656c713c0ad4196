"""Setup pictures: drawn from the setup state, in the page's language, never markup."""

import xml.etree.ElementTree as ET

import pytest

from conftest import ROOT
from generator.cli import validate
from generator.engine.setup import run_setup
from generator.render.diagrams import setup_svg

SVG = "{http://www.w3.org/2000/svg}"
LABELS = {"each_player": "each player"}


@pytest.fixture(scope="module")
def ulm():
    project, _ = validate(ROOT / "content", ["ulm"], simulation=False)
    return project.games["ulm"].model


def _svg(game, players, lang="en", title="t"):
    return setup_svg(game, run_setup(game, players, "basic"), lambda t: t[lang], title, LABELS, lang)


def _texts(svg: str) -> list[str]:
    return [t.text for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_picture_follows_the_player_count(ulm):
    assert "barges ×2" in _texts(_svg(ulm, 2)) and "barges ×4" in _texts(_svg(ulm, 4))


def test_cathedral_area_is_a_three_by_three_grid_in_the_tiles_colours(ulm):
    root = ET.fromstring(_svg(ulm, 3))
    panel = next(g for g in root.iter(f"{SVG}g") if any(t.text == "inner 3×3 grid of the cathedral area"
                                                          for t in g.iter(f"{SVG}text")))
    cells = [r for r in panel.iter(f"{SVG}rect") if r.get("width") == "34"]
    assert len(cells) == 9
    colours = sorted(r.get("fill") for r in cells)
    kinds = {k.id: k.colour for c in ulm.components for k in c.kinds if k.colour}
    # setup puts 1 brown, 2 of each other colour in the grid
    assert colours.count(kinds["action-tile-card"]) == 1
    for k in ("action-tile-river", "action-tile-seal", "action-tile-clear", "action-tile-money"):
        assert colours.count(kinds[k]) == 2


def test_labels_are_in_the_page_language(ulm):
    assert "遊船 ×3" in _texts(_svg(ulm, 3, "zh-TW"))
    assert "barcazas ×3" in _texts(_svg(ulm, 3, "es"))


def test_hostile_labels_stay_text(ulm):
    svg = _svg(ulm, 2, title='</text><script>alert(1)</script>"')
    root = ET.fromstring(svg)  # still well-formed
    assert not list(root.iter(f"{SVG}script")) and not list(root.iter("script"))
    assert root.find(f"{SVG}title").text == '</text><script>alert(1)</script>"'


@pytest.mark.parametrize("lang, first", [("en", "latin"), ("es", "latin"), ("zh-TW", "cjk")])
def test_picture_names_its_language_and_the_fonts_for_it(ulm, lang, first):
    """A picture shown as an image does not inherit the page's fonts: its own list puts a Latin face
    before every CJK face on a Latin page (else "×3" and apostrophes come out full-width), the CJK
    face first on a Chinese one."""
    import re
    root = ET.fromstring(_svg(ulm, 3, lang))
    assert root.get("lang") == lang
    families = [f.strip().strip('"') for f in
                re.search(r"text\{font-family:([^;]*);", root.find(f"{SVG}style").text).group(1).split(",")]
    cjk = [i for i, f in enumerate(families) if any(c in f for c in ("CJK", "UMing", "PingFang", "JhengHei", " TC"))]
    latin = [i for i, f in enumerate(families) if f in ("DejaVu Sans", "Liberation Sans", "Arial", "Segoe UI")]
    assert cjk and latin, families
    assert (max(latin) < min(cjk)) if first == "latin" else (max(cjk) < min(latin)), families
