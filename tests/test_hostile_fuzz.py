"""Property-based: mutated content never makes loading, checking or rendering raise.

Hypothesis mutates the small valid game (tests/fixtures/good): deletes keys, changes types,
puts random Unicode into texts and into the YAML text itself, duplicates list items and swaps
values. Whatever comes out, the pipeline answers with diagnostics only; content it accepts
renders. The simulation is left out here (its engines have tests of their own)."""

import os
import shutil
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES, ROOT
from generator.cli import validate
from generator.diagnostics import CODES, Diagnostic, has_errors
from generator.render import render_language

GAME = FIXTURES / "good" / "tiny" / "game.yaml"
BASE = yaml.safe_load(GAME.read_text(encoding="utf-8"))
# 40 examples each keep the two tests near 15 s; RULEBOOK_FUZZ_EXAMPLES=2000 for a long hunt
SETTINGS = settings(max_examples=int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", 40)), deadline=None, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-10**30, max_value=10**30),
    st.floats(allow_nan=False), st.text(max_size=30), st.just([]), st.just({}),
    st.sampled_from(["yes", "no", "1:30", "0x1F", "007", ".nan", ".inf", "2024-01-05", "{n}", "{{ x }}",
                     "<script>alert(1)</script>", "```{raw} html", "pa\u200bwn", "a\u202eb", "supply", "cube"]),
)


def _paths(node, path=()):
    yield path
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, path + (i,))


def _get(node, path):
    for p in path:
        node = node[p]
    return node


def _set(node, path, value):
    _get(node, path[:-1])[path[-1]] = value


def _swap(node, a, b):
    x, y = _get(node, a), _get(node, b)
    _set(node, a, y)
    _set(node, b, x)


def _through(node, path, target) -> bool:
    """Whether the walk along `path` meets the object `target`: a duplicated item is the same
    object twice (an alias in the YAML written), so two paths that neither holds the other may
    still lead one into the other's value."""
    for p in path:
        if node is target:
            return True
        node = node[p]
    return node is target


def _mutate(data, draw):
    paths = [p for p in _paths(data) if p]
    if not paths:
        return
    path = draw(st.sampled_from(paths))
    op = draw(st.sampled_from(["delete", "retype", "unicode", "duplicate", "swap"]))
    parent = _get(data, path[:-1])
    if op == "delete":
        del parent[path[-1]]
    elif op == "retype":
        parent[path[-1]] = draw(ODD_VALUES)
    elif op == "unicode":
        value = parent[path[-1]]
        noise = draw(st.text(min_size=1, max_size=8))
        parent[path[-1]] = (value + noise) if isinstance(value, str) else noise
    elif op == "duplicate":
        lists = [p for p in paths if isinstance(_get(data, p), list) and _get(data, p)]
        if lists:
            lst = _get(data, draw(st.sampled_from(lists)))
            lst.append(lst[draw(st.integers(0, len(lst) - 1))])
    else:
        other = draw(st.sampled_from(paths))
        a, b = _get(data, path), _get(data, other)
        if not _through(data, other, a) and not _through(data, path, b):  # neither holds the other
            _swap(data, path, other)


def _content(tmp: Path) -> Path:
    content = tmp / "content"
    if content.exists():
        shutil.rmtree(content)
    shutil.copytree(FIXTURES / "good", content)
    return content


def _check(content: Path, tmp: Path) -> None:
    project, diags = validate(content, None, simulation=False)
    for d in diags:
        assert isinstance(d, Diagnostic) and d.code in CODES and d.message
        if d.code < "RB200":  # the loader's and the schema's diagnostics point at a place
            assert d.file and d.line >= 1 and d.column >= 1, d
    if not has_errors(diags):
        for tag in ("en",):
            out = tmp / "src" / tag
            if out.exists():
                shutil.rmtree(out)
            render_language(project, tag, out)


@SETTINGS
@given(st.data())
def test_mutated_data_gives_diagnostics_only(tmp_path, data):
    game = yaml.safe_load(yaml.safe_dump(BASE))  # a deep copy
    for _ in range(data.draw(st.integers(1, 3))):
        _mutate(game, data.draw)
    _write_and_check(game, tmp_path)


def _write_and_check(game, tmp_path: Path) -> None:
    content = _content(tmp_path)
    (content / "tiny" / "game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True, sort_keys=False),
                                                encoding="utf-8")
    _check(content, tmp_path)


# Mutations the test above drew once in thousands of examples and that raised: tried on every run
# (their exact diagnostics are asserted in tests/test_hostile_input.py, FUZZ_FOUND).
FOUND = {
    "cards-true": lambda g: _set(g, ("cards",), True),
    "cards-7": lambda g: _set(g, ("cards",), 7),
    "name-empty": lambda g: _set(g, ("name",), {}),
    "swap-action-and-players": lambda g: _swap(g, ("actions", 0), ("players",)),
    "swap-values-and-per-player": lambda g: _swap(g, ("actions", 0, "values"), ("setup", 2, "per_player")),
    # a crash of the mutator itself (TypeError in _set): duplicate an item, then swap a text of the
    # item with a language of that text reached through the copy, which is the same object
    "duplicate-then-swap-through-the-copy": lambda g: _replay(g, [
        ("actions",), "duplicate", ("rounds", "end"), 0,
        ("rounds", "end", 0, "text"), "swap", ("rounds", "end", 1, "text", "en")]),
}


def _replay(game, draws: list) -> None:
    """Two _mutate calls answered by `draws`, as Hypothesis reports a failing example's draws."""
    answers = iter(draws)
    for _ in range(2):
        _mutate(game, lambda _strategy: next(answers))


@pytest.mark.parametrize("name", FOUND)
def test_mutations_found_by_the_fuzz_test_give_diagnostics_only(tmp_path, name):
    game = yaml.safe_load(yaml.safe_dump(BASE))
    FOUND[name](game)
    _write_and_check(game, tmp_path)


@SETTINGS
@given(st.data())
def test_mutated_yaml_text_gives_diagnostics_only(tmp_path, data):
    text = GAME.read_text(encoding="utf-8")
    for _ in range(data.draw(st.integers(1, 3))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 3))
        text = text[:at] + data.draw(st.text(max_size=6)) + text[at + cut:]
    content = _content(tmp_path)
    (content / "tiny" / "game.yaml").write_bytes(text.encode("utf-8", "surrogatepass"))
    _check(content, tmp_path)


# ---- the simulation on a real game: mutated numbers of the shipped Ulm, played by its engine module

ULM = ROOT / "content" / "ulm"
ULM_FILES = {name: yaml.safe_load((ULM / name).read_text(encoding="utf-8")) for name in ("game.yaml", "cards.yaml")}
NUMBER_KEYS = {"count", "per_player", "max", "min"}  # besides everything under values:
# 12 examples keep this test near 15 s (each validates Ulm and plays 6 games); RULEBOOK_FUZZ_EXAMPLES overrides
SIM_SETTINGS = settings(max_examples=int(os.environ.get("RULEBOOK_FUZZ_EXAMPLES", 12)), deadline=None, database=None,
                        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def _numbers(node, path=(), under_values=False):
    """The paths of the integers the rules use: every number under `values:`, and the counts,
    per-player numbers and bounds (components, kinds, setup steps, rounds, players)."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _numbers(v, path + (k,), under_values or k == "values")
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _numbers(v, path + (i,), under_values)
    elif isinstance(node, int) and not isinstance(node, bool) and (under_values or path[-1] in NUMBER_KEYS):
        yield path


ULM_NUMBERS = [(name, p) for name, data in ULM_FILES.items() for p in _numbers(data)]
ODD_NUMBERS = st.one_of(st.integers(0, 3), st.integers(-2, 60), st.sampled_from([0, 1, 99, 1000]))


def _ulm_content(tmp: Path) -> Path:
    from conftest import one_game_content
    content = tmp / "content"
    if content.exists():
        shutil.rmtree(content)
    return one_game_content(tmp, "ulm")


@SIM_SETTINGS
@given(st.data())
def test_mutated_numbers_of_a_real_game_give_diagnostics_only_in_the_simulation(tmp_path, data):
    """Costs, counts, draws, points, rounds and player numbers of the shipped Ulm changed at
    random (schema-valid, often absurd): validating with the simulation answers with
    diagnostics only, and the engine module never crashes (RB605 'the engine module failed'
    would be a bug in games/ulm.py: every number it reads from the data must be survivable)."""
    files = yaml.safe_load(yaml.safe_dump(ULM_FILES))  # a deep copy
    changes = data.draw(st.lists(st.tuples(st.sampled_from(ULM_NUMBERS), ODD_NUMBERS), min_size=1, max_size=3))
    for (name, path), value in changes:
        _set(files[name], path, value)
    content = _ulm_content(tmp_path)
    for name, doc in files.items():
        (content / "ulm" / name).write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    _project, diags = validate(content, None, seeds=1)
    for d in diags:
        assert isinstance(d, Diagnostic) and d.code in CODES and d.message
    crashes = [d.message for d in diags if d.code == "RB605" and "engine module failed" in d.message]
    assert not crashes, (changes, crashes)
