"""Property-based: mutated content never makes loading, checking or rendering raise.

Hypothesis mutates the small valid game (tests/fixtures/good): deletes keys, changes types,
puts random Unicode into texts and into the YAML text itself, duplicates list items and swaps
values. Whatever comes out, the pipeline answers with diagnostics only; content it accepts
renders. The simulation is left out here (its engines have tests of their own)."""

import os
import shutil
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import FIXTURES
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
        if other[:len(path)] != path and path[:len(other)] != other:  # neither holds the other
            a, b = _get(data, path), _get(data, other)
            _set(data, path, b)
            _set(data, other, a)


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
    content = _content(tmp_path)
    (content / "tiny" / "game.yaml").write_text(yaml.safe_dump(game, allow_unicode=True, sort_keys=False),
                                                encoding="utf-8")
    _check(content, tmp_path)


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
