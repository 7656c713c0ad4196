"""The loader's libyaml fast path agrees with the pure-Python path, value for value and mark for mark.

generator/load.py reads a clean document with libyaml's C parser and builds the tree and its
positions itself; on anything unusual it gives up and the pure-Python path (the reference, which
words every diagnostic) reads the file again. These tests hold the two paths to the same answer:
on every shipped file (where the fast path must really be taken), on the hostile cases, on the
corners where libyaml and PyYAML part ways, and on seeded random documents and mutations."""

import random
import re
from pathlib import Path

import pytest

import generator.load as load
from conftest import FIXTURES, ROOT
from generator.limits import MAX_DEPTH, MAX_NODES

SHIPPED = sorted((ROOT / "content").glob("**/*.yaml")) + sorted(FIXTURES.glob("**/*.yaml"))
needs_libyaml = pytest.mark.skipif(load._CParser is None, reason="PyYAML is built without libyaml")


def typed(x):
    """A value with every type spelled out: 1, 1.0 and True are three different things here."""
    if isinstance(x, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in x.items()])
    if isinstance(x, list):
        return ("list", [typed(v) for v in x])
    return (type(x).__name__, repr(x))


def probes(data) -> list[tuple]:
    """Every path of the data, and a path under each mapping and list that is not there."""
    out, todo = [], [((), data)]
    while todo:
        path, v = todo.pop()
        out.append(path)
        if isinstance(v, dict):
            out.append(path + ("no-such-key",))
            todo += [(path + (k,), x) for k, x in v.items()]
        elif isinstance(v, list):
            out += [path + (len(v),), path + ("0",)]
            todo += [(path + (n,), x) for n, x in enumerate(v)]
    return out


def lookups(data, pos) -> list:
    """What a diagnostic asks: the mark of each path (or of its nearest ancestor), of the value and of the key."""
    return [(p, pos.of(p), pos.of(p, key=True)) for p in probes(data)]


def answer(text: str, fast: bool):
    """load_text's whole answer, with or without the fast path; positions asked path by path (before
    they are all filled), then in their order."""
    saved = load._CParser
    if not fast:
        load._CParser = None
    try:
        data, pos, diags = load.load_text(text, "f.yaml")
    finally:
        load._CParser = saved
    asked = lookups(data, pos) if data is not None else []
    return typed(data), asked, list(pos.values.items()), list(pos.keys.items()), diags


def assert_same(text: str) -> None:
    fast, pure = answer(text, True), answer(text, False)
    assert fast == pure, text


@needs_libyaml
@pytest.mark.parametrize("path", SHIPPED, ids=[str(p.relative_to(ROOT)) for p in SHIPPED])
def test_every_shipped_file_takes_the_fast_path_and_agrees(path: Path):
    text = path.read_text(encoding="utf-8")
    got = load._load_fast(text, "f.yaml")
    assert got is not None, "the fast path gave up on a shipped file"
    data, pos = got
    pure_data, pure_pos, diags = load._load_pure(text, "f.yaml")
    assert diags == []
    assert typed(data) == typed(pure_data)
    assert lookups(data, pos) == lookups(pure_data, pure_pos)
    assert list(pos.values.items()) == list(pure_pos.values.items())
    assert list(pos.keys.items()) == list(pure_pos.keys.items())
    assert len(pos.values) > 10  # the comparison is not vacuous


@needs_libyaml
def test_the_shipped_files_with_windows_line_breaks_agree():
    for path in SHIPPED:
        text = path.read_text(encoding="utf-8").replace("\n", "\r\n")
        assert load._load_fast(text, "f.yaml") is not None
        assert_same(text)


# The hostile cases of tests/test_load.py and more: each must give the pure path's exact answer.
HOSTILE = [
    "a: 1\nb:\n  c: 1\n  c: 2\n", "a: &x 1\nb: *x\n", "b: *x\n", "a: !!python/object:os.system {}\n",
    "a: !!binary aGk=\n", "a: !!set {x}\n", "base: {x: 1}\nb:\n  <<: {x: 2}\n", "a: 1\n---\nb: 2\n",
    "%YAML 1.1\n---\na: 1\n", "a: [1, 2\n", "", "# only a comment\n", "- a\n- b\n", "just text\n",
    "a: !custom x\n", "a: !!str 5\n", "a: ! 5\n", "a: !<tag:yaml.org,2002:map> {}\n", "a:\n  - &x {b: 1}\n",
    "a: [1]\nb:\n  <<: *x\n", "a:\n  b:\n    - {c: 1, c: 2}\n", "a: 1\na: 2\n", "a: 1\n...\n---\nb: 2\n",
    "%TAG ! tag:example.com,2000:\n---\na: 1\n", "# comment\n%YAML 1.2\n---\na: 1\n", "a:\n\tb: 1\n",
    "a: x\nb: a\x07b\n", "id: pa\u200bwn\n", "a: abc\u202edef\n",
    # keys: '<<' quoted is a plain key; true/1.5/null keys are read as text; a key named '<key>'
    "'<<': 1\nb: 2\n", "\"<<\": {x: 1}\n", "true: 1\n'true': 2\n", "1.5: a\nnull: b\n~: c\n", "1: a\n'1': b\n",
    "<key>: 1\nb: 2\n", "a:\n  <key>: {x: 1}\n  b: 2\n", "[a]: 1\n", "{a: 1}: 2\n", "? a\n: 1\n",
    # where libyaml and PyYAML's scanner part ways: the fast path must leave these to the pure path
    "a: {b: 1, ? : c}\n", "a: {x? y: 1}\n", "a: {b: c?}\n", "a: {b?: c}\n", "a: [b?]\n", "? \n", "?\n",
    "a: {b: , c: d}\n", "a: {b:\n  , c: d}\n", "a: [b, , c]\n", "a: {b}\n", "a: {b: x, ,c: d}\n",
    "a:\n  - >+#\n  - 1\n", "a: >#\n  x\n", "a: |2#\n   x\n", "a: |+ #c\n  x\n\n", "a: |10\n  x\n", "a: |0\n  x\n",
    "a:\tb\n", "a: [1,\t2]\n", "a: b\u2028c: d\n", "a: x\u2029\n", "a: 'x\u2028y'\n", "a: b\rc: d\n",
    "a: b?c\nd: http://x.y/?p=1\n", "a: is it? yes\n", "a: x ?\n", "a: Why? Because\nb: 中文? 是\n", "k?: v\nWhy? k: x\n",
    "a: [Why? x]\n", "a: {b: Why? x}\n", "a: x_? y\n", "a: 'q? x'\n", "a: q?\n  more? yes\n", "a: [x?, y]\n",
    # scalars
    "a: 1_000\nb: 0x1F\nc: .inf\nd: 1:30\ne: 2024-01-05\nf: -0\ng: +3\nh: -0.0\ni: 1e3\nj: 1E-3\nk: 007\n",
    "a: True\nb: FALSE\nc: yes\nd: Null\ne: NULL\nf: ~\ng:\nh: ''\ni: \"\"\n", "a: 1e999\n", "a: " + "9" * 400 + "\n",
    "a: \"\\ud800\"\n", "a: \"\\x41\\u00e9\\U0001F600\\N\\_\\L\\P\\/\"\n", "a: \"\\q\"\n", "a: 'it''s'\n",
    "a: |\n  lit\n   more\n\n", "a: >-\n\n  fold\n  ed\n", "a: |+\n  keep\n\n\n", "a: \"x\\\n  y\"\n",
    "a: 中文 字\n中文: {键: 值, 𝕏: [é, 'ü']}\n", "--- \na: 1\n...\n", "--- # c\na: 1\n", "a: 1\n...\n# end\n",
    "a: [1, [2, [3, {b: [4]}]]]\n", "a: {b: {c: {d: []}}}\n", "a: b: c\n", "a:\n- b\n - c\n", "a: 'x\n",
    "a: @x\n", "a: `x\n", "a: %x\n", "a:#b\n", "a #b: c\n", "-x: 1\n", ":x: 1\n", "a: -\n", "a: [-]\n",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_and_odd_documents_get_the_pure_paths_answer(text):
    assert_same(text)


@needs_libyaml
@pytest.mark.parametrize("text", [
    "a: {b: c?}\n", "a: {b: , c: d}\n", "a:\n  - >+#\n  - 1\n", "a:\tb\n", "a: b\u2028c: d\n", "? a\n: 1\n",
    "a: &x 1\n", "a: !t 1\n", "a: 1\na: 2\n", "<<: {a: 1}\n", "a: 1\n---\nb: 2\n", "[a]: 1\n", "- a\n", "",
    "a: [Why? x]\n", "a: x ? y\n",
])
def test_the_fast_path_gives_up_where_the_two_part_ways(text):
    assert load._load_fast(text, "f.yaml") is None


def test_caps_are_refused_at_the_same_place_by_both_paths():
    assert_same("a: " + "[\n" * (MAX_DEPTH + 10) + "]\n" * (MAX_DEPTH + 10))
    assert_same("a:\n" + "".join("  " * i + "- \n" for i in range(MAX_DEPTH + 5)))
    assert_same("a:\n" + "".join("  " * i + "- \n" for i in range(MAX_DEPTH - 1)))
    assert_same("".join(f"k{i}: {i}\n" for i in range(MAX_NODES // 2 + 2)))
    assert_same("".join(f"k{i}: {i}\n" for i in range(MAX_NODES // 2 - 1)))


def test_a_huge_integer_is_a_diagnostic_not_a_crash():
    for text in ("a: " + "1" * 5000 + "\n", "a: [" + "7" * 9000 + "]\n", "a:\n  - -" + "1" * 4400 + "\n"):
        data, _pos, diags = load.load_text(text, "f.yaml")
        assert data is None and [d.code for d in diags] == ["RB007"], diags
        assert_same(text)


def test_without_libyaml_the_pure_path_reads_everything(monkeypatch):
    monkeypatch.setattr(load, "_CParser", None)
    assert load._load_fast("a: 1\n", "f.yaml") is None
    data, pos, diags = load.load_file(SHIPPED[0])
    assert diags == [] and data and pos.values


# Seeded random documents: a small grammar of mappings, sequences and scalars in every style,
# then random edits (as tests/test_hostile_fuzz.py does to the YAML text). Deterministic.
SCALARS = ["a", "b c", "中文 字", "𝕏y", "1", "-0", "+3", "0.5", "-1e-3", "1E3", "007", "true", "False", "null", "~",
           "", "'q'", "'it''s'", '"d"', '"e\\u00e9\\n\\x41"', "x:y", "http://a.b/c?d=e", "a # c", "-x", ":x", "x-",
           "'multi\n  line'", '"multi\n\n  line"', "a\n  b", "[]", "{}", "[a, b]", "{a: 1, b: [2, 3]}",
           "{a: 1,\n   b: 2}", "[\n  1,\n  2\n  ]", "Why? Because", "中? 是", "x?",
           "|\n  lit\n   more\n", "|-\n  lit\n", ">\n  fold\n  ed\n\n  x\n",
           "|+\n  keep\n\n", "|2\n   two\n", ">-\n\n  lead\n", "'  '", '" "', "<key>", "=", "1:30", ".inf", "0x1F"]
ODD = ["@x", "`x", "%x", "a: b", "- x", "'", '"', "{a: }", "[a, ]", "{a}", "{a: b, a: c}", "[a: b]", ">#\n  a",
       "|2#\n   a", "&a x", "*a", "!t x", "{a: x?}", "? x", "\tx", "x\u2028y"]
KEYS = ["k{}", "中{}", "'q{}'", '"d{}"', "{}", "true", "<key>", "k0", "'<<'", "a b{}", "x:y{}", "null", "1.5", "é{}"]
EDITS = [": ", "- ", "\n", "\r\n", "  ", "#", "'", '"', "[", "]", "{", "}", ",", "?", "|", ">", "&a", "*a", "!",
         "---", "...", "\t", "中", "<<", "-1", "0.5"]


def _node(rng: random.Random, depth: int, indent: int) -> str:
    r = 0.5 if depth == 0 else rng.random()
    pad = " " * indent
    if depth > 3 or r < 0.45:
        return rng.choice(SCALARS if rng.random() < 0.95 else ODD).replace("\n", "\n" + pad)
    if r < 0.75:
        lines = []
        for i in range(rng.randint(1, 4)):
            value = _node(rng, depth + 1, indent + 2)
            lines.append(f"{rng.choice(KEYS).format(i)}: {value}")
        body = ("\n" + pad).join(lines)
        return "\n" + pad + body if depth else body
    items = [_node(rng, depth + 1, indent + 2) for _ in range(rng.randint(1, 4))]
    return "\n" + "\n".join(pad + "- " + item for item in items)


def _document(rng: random.Random) -> str:
    text = _node(rng, 0, 0) + "\n"
    if rng.random() < 0.3:
        text = text.replace("\n", "\r\n")
    if rng.random() < 0.15:
        text = "--- " + text
    for _ in range(rng.choice([0, 0, 1, 2])):
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(EDITS) + text[at + rng.randint(0, 2):]
    return text


@pytest.mark.parametrize("seed", range(8))
def test_random_documents_get_the_same_answer_from_both_paths(seed):
    rng = random.Random(seed)
    fast_taken = 0
    for _ in range(250):
        text = _document(rng)
        assert_same(text)
        fast_taken += load._load_fast(text, "f.yaml") is not None
    if load._CParser is not None:
        assert fast_taken > 25  # the fast path was really exercised


@pytest.mark.parametrize("seed", range(4))
def test_edited_shipped_files_get_the_same_answer_from_both_paths(seed):
    rng = random.Random(100 + seed)
    texts = [p.read_text(encoding="utf-8") for p in SHIPPED]
    for _ in range(12):
        text = rng.choice(texts)
        for _ in range(rng.randint(1, 3)):
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(EDITS) + text[at + rng.randint(0, 3):]
        assert_same(text)


@needs_libyaml
def test_a_question_in_prose_keeps_the_fast_path():
    text = "a: Why? Because it is so.\nb: 為什麼? 因為\nc: |\n  Ready? Go.\n"
    assert load._load_fast(text, "f.yaml") is not None
    assert_same(text)


@pytest.mark.parametrize("text", ["? a", "a ?", "Why? Because", "x_? y", "中? a", "a?b", "?", "a?\n", "1? 2", "é? x",
                                  "-? x", "(?) y", "word?\r\n", "?\tx", "__?", "a ?? b"])
def test_the_key_indicator_search_from_each_question_mark_agrees_with_the_full_pattern(text):
    full = re.compile(r"(?<![^\W_])\?(?![^ \r\n])")  # '?' not after a letter or digit, before a blank or the end
    assert load._key_indicator(text) == bool(full.search(text))
