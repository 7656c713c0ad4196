"""The examples of the docs are true: the setup verbs of docs/authoring.md leave the state the
table says, and docs/engine.md shows the example engine module as it is installed."""

import re
import shutil

import pytest

from conftest import FIXTURES, ROOT
from generator.engine.setup import run_setup
from generator.project import read_project

STEPS = """\
  - {id: s-place, do: place, component: card, count: all, to: deck}
  - {id: s-shuffle, do: shuffle, component: card, from: deck}
  - {id: s-deal, do: deal, component: card, from: deck, per_player: 3, to: hand}
  - {id: s-draw, do: draw, component: card, from: deck, count: 2, to: display}
  - {id: s-choose, do: choose-random, component: tile, count: 4, to: market}
  - {id: s-kinds, do: place, component: tile, kinds: {tile-red: 1}, to: supply}
  - {id: s-return, do: return, component: card, from: deck, by_players: {2: 5, 3: 3, 4: 0}}
  - {id: s-back, do: return, component: card, from: hand, count: 1}
  - {id: s-total, do: place, component: token, count: 2, to: stock}
  - {id: s-rest, do: place, component: token, count: rest, to: display}
  - {id: s-note, do: note}
"""

GAME = """\
id: verbs
name: {zh-TW: 動詞, es: Verbos, en: Verbs}
designer: The docs
players: {min: 2, max: 4}
colours: 4
summary: {zh-TW: 說明用的例子。, es: Un ejemplo de la guía., en: An example of the guide.}
modes:
  - {id: standard, name: {zh-TW: 標準, es: Estándar, en: Standard}}
components:
  - {id: card, name: {zh-TW: 卡, es: carta, en: card}, count: 20}
  - {id: token, name: {zh-TW: 代幣, es: ficha, en: token}, count: 30}
  - id: tile
    name: {zh-TW: 板塊, es: loseta, en: tile}
    count: 12
    kinds:
      - {id: tile-red, name: {zh-TW: 紅板塊, es: loseta roja, en: red tile}, count: 6}
      - {id: tile-blue, name: {zh-TW: 藍板塊, es: loseta azul, en: blue tile}, count: 6}
zones:
  - {id: deck, name: {zh-TW: 牌堆, es: mazo, en: deck}}
  - {id: display, name: {zh-TW: 展示區, es: muestra, en: display}}
  - {id: market, name: {zh-TW: 市場, es: mercado, en: market}}
  - {id: supply, name: {zh-TW: 供應區, es: reserva, en: supply}}
  - {id: hand, name: {zh-TW: 手牌, es: mano, en: hand}, per_player: true}
  - {id: stock, name: {zh-TW: 個人庫存, es: reserva propia, en: own stock}, per_player: true}
setup:
""" + STEPS + """\
rounds: {}
scoring: {}
"""


@pytest.fixture(scope="module")
def verbs(tmp_path_factory):
    content = tmp_path_factory.mktemp("verbs") / "content"
    content.mkdir()
    shutil.copy(FIXTURES / "good" / "site.yaml", content / "site.yaml")
    (content / "verbs").mkdir()
    (content / "verbs" / "game.yaml").write_text(GAME, encoding="utf-8")
    project, diags = read_project(content)
    assert diags == []
    return project.games["verbs"].model


def _after(game, step_id: str, players: int = 3) -> dict:
    """{zone: {component or (component, kind): n}} after the steps up to `step_id`."""
    upto = [s.id for s in game.setup].index(step_id) + 1
    cut = game.model_copy(update={"setup": game.setup[:upto]})
    zones = run_setup(cut, players, "standard", 0).zones
    out = {}
    for zone, c in zones.items():
        for (comp, kind), n in c.items():
            if n:
                z = out.setdefault(zone, {})
                z[(comp, kind) if kind else comp] = z.get((comp, kind) if kind else comp, 0) + n
    return out


def test_every_verb_row_of_the_guide_holds(verbs):
    doc = (ROOT / "docs/authoring.md").read_text(encoding="utf-8")
    for line in STEPS.splitlines():  # the guide shows these steps (without their ids)
        step = re.sub(r"\{id: [a-z-]+, ", "{", line.strip()[2:])
        if "s-total" not in line and "s-note" not in line:
            assert f"`{step}`" in doc, step
    assert _after(verbs, "s-place")["deck"] == {"card": 20} and "card" not in _after(verbs, "s-place").get("box", {})
    assert _after(verbs, "s-shuffle") == _after(verbs, "s-place")
    dealt = _after(verbs, "s-deal")
    assert [dealt[f"hand#{p}"] for p in (1, 2, 3)] == [{"card": 3}] * 3 and dealt["deck"] == {"card": 11}
    drawn = _after(verbs, "s-draw")
    assert drawn["display"] == {"card": 2} and drawn["deck"] == {"card": 9}
    market = _after(verbs, "s-choose")["market"]
    assert sum(market.values()) == 4 and market == {("tile", "tile-red"): 3, ("tile", "tile-blue"): 1}
    assert _after(verbs, "s-kinds")["supply"] == {("tile", "tile-red"): 1}
    back = _after(verbs, "s-return")
    assert back["deck"] == {"card": 6} and back["box"]["card"] == 3
    assert _after(verbs, "s-return", players=4)["deck"] == {"card": 20 - 12 - 2}
    each = _after(verbs, "s-back")
    assert [each[f"hand#{p}"] for p in (1, 2, 3)] == [{"card": 2}] * 3
    total = _after(verbs, "s-total")  # a count into a per-player zone: all of it to player 1
    assert total["stock#1"] == {"token": 2} and "stock#2" not in total
    rest = _after(verbs, "s-rest")
    assert rest["display"]["token"] == 28 and "token" not in rest["box"]
    assert _after(verbs, "s-note") == rest


def test_the_engine_guide_shows_the_example_module_as_it_is():
    doc = (ROOT / "docs/engine.md").read_text(encoding="utf-8")
    shown = doc.split("### A complete example", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    source = (ROOT / "examples/rulebook-engine-demo-heaps/rulebook_engine_demo_heaps/__init__.py").read_text(encoding="utf-8")
    code = source.split('"""', 2)[2].replace("from __future__ import annotations\n\n", "").strip()
    assert shown.strip() == code
