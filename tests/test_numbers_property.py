"""Property: change one number of the shipped content and either validate says something, or
what the pages show follows the number (issue 13: numbers restated as literals went stale).

Hypothesis picks a game, one of its numbers (a component's or kind's count, a per-colour count,
a setup step's amount, an entry of a table by player count, a value under `values:`) and a new
value near it. Then `validate --no-sim` either reports an error, or the rendered English pages
(rulebook, components, cards and the setup pictures) differ from the shipped ones, and the texts
of the item that holds the number, where they showed the old value, show something else now.
"""

import os
import shutil
from pathlib import Path

import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from conftest import ROOT, one_game_content
from generator.cli import validate
from generator.diagnostics import has_errors
from generator.render import Lang, render_language
from generator.render.markdown import TermLinker
from generator.text import numbers

GAMES = ["ulm", "jorvik", "castles-of-mad-king-ludwig", "ursuppe"]
FILES = ("game.yaml", "cards.yaml")
KEYS = {"count", "per_player", "per_colour", "by_players", "kinds"}  # besides everything under values:
# 16 examples keep this near 30 s (each validates one game and renders its English pages)
# (no shrinking: one example is already a single changed number, and shrinking re-renders for minutes)
SETTINGS = settings(max_examples=int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", 16)), deadline=None, database=None,
                    phases=[Phase.explicit, Phase.generate],
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _numbers(node, path=(), counted=False):
    """Paths of the integers that are data: under values:, and counts, per-player and per-colour
    numbers, and the entries of by_players, per_player and kinds tables."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _numbers(v, path + (k,), counted or k == "values" or k in KEYS)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _numbers(v, path + (i,), False)
    elif isinstance(node, int) and not isinstance(node, bool) and counted:
        yield path


DATA = {g: {f: yaml.safe_load((ROOT / "content" / g / f).read_text(encoding="utf-8")) for f in FILES} for g in GAMES}
PATHS = [(g, f, p) for g in GAMES for f in FILES for p in _numbers(DATA[g][f])]


def _get(node, path):
    for p in path:
        node = node[p]
    return node


def _render(project, out: Path) -> dict[str, str]:
    if out.exists():
        shutil.rmtree(out)
    render_language(project, "en", out)
    return {str(p.relative_to(out)): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*")) if p.is_file()}


def _owner_texts(project, game: str, file: str, path: tuple) -> list[str]:
    """The texts of the item that holds the number at `path`, rendered in English."""
    raw = DATA[game][file]
    node, owner_path = raw, None
    for i in range(len(path)):
        node = _get(raw, path[:i]) if i else raw
        if isinstance(node, dict) and "id" in node:
            owner_path = path[:i]
    if owner_path is None:
        return []
    ident = _get(raw, owner_path)["id"]
    g = project.games[game].model
    items = list(g.setup) + list(g.components) + list(g.actions) + g.rounds.start + g.rounds.turn + g.rounds.end
    items += g.scoring.during + g.scoring.final + [c for grp in g.cards for c in grp.cards]
    items += [i for sec in g.rules for i in sec.items]
    item = next((i for i in items if i.id == ident), None)
    if item is None:
        return []
    lang = Lang("en", "en", TermLinker([]), g)
    texts = [getattr(item, f, None) for f in ("text", "note")] + list(getattr(item, "examples", []))
    return [lang.plain(t, item) for t in texts if t]


def _content(tmp_path: Path, game: str) -> Path:
    if (tmp_path / "content").exists():
        shutil.rmtree(tmp_path / "content")
    return one_game_content(tmp_path, game)


BASE: dict[str, tuple] = {}


def _baseline(tmp_path: Path, game: str):
    if game not in BASE:
        project, diags = validate(ROOT / "content", [game], simulation=False)
        assert not has_errors(diags)
        BASE[game] = (project, _render(project, tmp_path / "base" / game))
    return BASE[game]


@SETTINGS
@given(st.data())
def test_a_changed_number_is_reported_or_shown(tmp_path, data):
    game, file, path = data.draw(st.sampled_from(PATHS))
    old = _get(DATA[game][file], path)
    new = data.draw(st.sampled_from(sorted({old + 1, old + 2, max(old - 1, 0), old * 2} - {old})))
    base_project, base_pages = _baseline(tmp_path, game)
    docs = yaml.safe_load(yaml.safe_dump(DATA[game]))
    _get(docs[file], path[:-1])[path[-1]] = new
    content = _content(tmp_path, game)
    for name, doc in docs.items():
        (content / game / name).write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    project, diags = validate(content, [game], simulation=False)
    if has_errors(diags):
        return
    where = f"{game}/{file} {'.'.join(map(str, path))}: {old} -> {new}"
    pages = _render(project, tmp_path / "changed")
    assert pages != base_pages, f"{where}: validate is clean and no page changed"
    before = _owner_texts(base_project, game, file, path)
    after = _owner_texts(project, game, file, path)
    stated = [t for t in before if old in numbers(t, "en")]
    if stated and old >= 2:
        assert before != after, f"{where}: its item's texts still say {old}: {stated}"
