"""The loader: safe YAML with positions; everything else becomes a diagnostic."""

import time

import pytest

from generator.limits import MAX_DEPTH, MAX_FILE_BYTES, MAX_LINE_CHARS, MAX_NODES
from generator.load import load_file, load_text


def one(text: str):
    data, pos, diags = load_text(text, "f.yaml")
    return data, pos, diags


def test_positions_of_values_and_keys():
    data, pos, diags = one("id: x\nitems:\n  - a: 1\n    b: two\n")
    assert diags == []
    assert data == {"id": "x", "items": [{"a": 1, "b": "two"}]}
    m = pos.of(("items", 0, "b"))
    assert (m.line, m.column) == (4, 8)
    k = pos.of(("items", 0, "b"), key=True)
    assert (k.line, k.column) == (4, 5)
    # a path below a scalar falls back to the nearest ancestor that has a position
    assert pos.of(("items", 0, "b", "deeper")).line == 4


@pytest.mark.parametrize("text, code, line, col", [
    ("a: 1\nb:\n  c: 1\n  c: 2\n", "RB002", 4, 3),
    ("a: &x 1\nb: *x\n", "RB003", 1, 4),  # the anchor is refused where it is defined
    ("b: *x\n", "RB003", 1, 4),
    ("a: !!python/object:os.system {}\n", "RB003", 1, 4),
    ("a: !!binary aGk=\n", "RB003", 1, 4),
    ("a: !!set {x}\n", "RB003", 1, 4),
    ("base: {x: 1}\nb:\n  <<: {x: 2}\n", "RB003", 3, 3),
    ("a: 1\n---\nb: 2\n", "RB003", 2, 1),
    ("%YAML 1.1\n---\na: 1\n", "RB003", 1, 1),
    ("a: [1, 2\n", "RB001", 1, 4),  # at the '[' that is never closed
    ("", "RB004", 1, 1),
    ("# only a comment\n", "RB004", 1, 1),
    ("- a\n- b\n", "RB004", 1, 1),
    ("just text\n", "RB004", 1, 1),
    # every explicit tag is refused, even the plain ones: `!!int 0x1F` would bring back 1.1 numbers
    ("a: !!python/object/apply:os.system [ls]\n", "RB003", 1, 4),
    ("a: !!python/name:os.system\n", "RB003", 1, 4),
    ("a: !custom x\n", "RB003", 1, 4),
    ("a: !!str 5\n", "RB003", 1, 4),
    ("a: !!int 0x1F\n", "RB003", 1, 4),
    ("a: ! 5\n", "RB003", 1, 4),
    ("a: !!timestamp 2024-01-05\n", "RB003", 1, 4),
    ("a: !<tag:yaml.org,2002:map> {}\n", "RB003", 1, 4),
    ("a: !!omap [b: 1]\n", "RB003", 1, 4),
    ("a:\n  - &x {b: 1}\n", "RB003", 2, 5),
    ("a: [1]\nb:\n  <<: *x\n", "RB003", 3, 7),
    ("a:\n  b:\n    - {c: 1, c: 2}\n", "RB002", 3, 14),
    ("a: 1\na: 2\n", "RB002", 2, 1),
    ("a: 1\n...\n---\nb: 2\n", "RB003", 3, 1),
    ("%TAG ! tag:example.com,2000:\n---\na: 1\n", "RB003", 1, 1),
    ("# comment\n%YAML 1.2\n---\na: 1\n", "RB003", 2, 1),
    # tabs: YAML indents with spaces; the hint says so
    ("a:\n\tb: 1\n", "RB001", 2, 1),
    # characters PyYAML would choke on (a traceback before) and invisible ones, with their position
    ("a: x\nb: a\x07b\n", "RB006", 2, 5),
    ("a: \x00\n", "RB006", 1, 4),
    ("a: \x1b[31mred\n", "RB006", 1, 4),
    ("a: x\x85y\n", "RB006", 1, 5),
    ("id: pa\u200bwn\n", "RB006", 1, 7),
    ("id: pawn\nterms: [ca\u200drd]\n", "RB006", 2, 11),
    ("a: abc\u202edef\n", "RB006", 1, 7),
    ("a: x\ufeff\n", "RB006", 1, 5),
])
def test_refused_yaml(text, code, line, col):
    data, _pos, diags = one(text)
    assert data is None
    assert [(d.code, d.line, d.column) for d in diags] == [(code, line, col)]
    assert diags[0].hint or code in ("RB004",)
    assert diags[0].message


def test_a_tab_gets_a_hint_about_spaces():
    _data, _pos, diags = one("a:\n\tb: 1\n")
    assert "spaces" in diags[0].hint and "tab" in diags[0].hint


def test_an_alias_bomb_is_refused_at_its_first_alias_fast():
    # "billion laughs": nine levels of nine aliases would expand to 9**9 values
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, 10):
        lines.append(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]")
    start = time.perf_counter()
    data, _pos, diags = one("\n".join(lines) + "\n")
    assert time.perf_counter() - start < 0.5
    assert data is None
    assert [(d.code, d.line, d.column) for d in diags] == [("RB003", 1, 5)]
    assert "anchor" in diags[0].message


# YAML 1.2 core-schema scalars (docs/limits.md): only true/false are booleans; integers are plain
# decimals; no sexagesimal, hexadecimal, octal, underscores, .nan/.inf or dates. The rest is text,
# and the schema refuses text where it wants a number (tests/test_hostile_input.py).
@pytest.mark.parametrize("scalar, value", [
    ("true", True), ("false", False), ("True", True), ("FALSE", False),
    ("yes", "yes"), ("no", "no"), ("on", "on"), ("off", "off"), ("y", "y"), ("n", "n"), ("Yes", "Yes"),
    ("0", 0), ("12", 12), ("-3", -3), ("+4", 4),
    ("007", "007"), ("0x1F", "0x1F"), ("0o17", "0o17"), ("017", "017"), ("1_000", "1_000"), ("0b101", "0b101"),
    ("1:30", "1:30"), ("190:20:30", "190:20:30"),
    ("1.10", 1.1), ("0.5", 0.5), ("-2.25", -2.25), ("1e3", 1000.0),
    (".nan", ".nan"), (".inf", ".inf"), ("-.inf", "-.inf"), (".NaN", ".NaN"),
    ("2024-01-05", "2024-01-05"), ("2001-12-14t21:59:43.10-05:00", "2001-12-14t21:59:43.10-05:00"),
    ("~", None), ("null", None), ("", None), ("=", "="), ("<<", "<<"),
])
def test_scalars_follow_the_yaml_1_2_core_schema(scalar, value):
    data, _pos, diags = one(f"a: {scalar}\n")
    assert diags == []
    assert data["a"] == value and type(data["a"]) is type(value)


def test_keys_are_read_with_the_same_rules():
    data, _pos, diags = one("yes: 1\nno: 2\n2: 3\n010: 4\n")
    assert diags == [] and data == {"yes": 1, "no": 2, 2: 3, "010": 4}


# The caps of generator/limits.py: each is refused fast, with a position.
def test_a_file_over_the_byte_cap_is_refused_before_parsing(tmp_path):
    f = tmp_path / "big.yaml"
    f.write_bytes(b"a: " + b"x" * (MAX_FILE_BYTES + 1) + b"\n")
    start = time.perf_counter()
    data, _pos, diags = load_file(f, "big.yaml")
    assert time.perf_counter() - start < 0.5
    assert data is None and [(d.code, d.line, d.column) for d in diags] == [("RB007", 1, 1)]


def test_a_ten_megabyte_line_is_refused_fast(tmp_path):
    f = tmp_path / "line.yaml"
    f.write_bytes(b"a: " + b"x" * 10_000_000 + b"\n")
    start = time.perf_counter()
    data, _pos, diags = load_file(f, "line.yaml")
    assert time.perf_counter() - start < 0.5
    assert data is None and [d.code for d in diags] == ["RB007"]
    # and the same text handed to load_text directly (no file cap in front of it)
    _data, _pos, diags = one("a: " + "x" * 10_000_000 + "\n")
    assert [d.code for d in diags] == ["RB007"]


def test_a_line_over_the_line_cap_is_refused_at_the_cap():
    data, _pos, diags = one("a: 1\nb: " + "x" * MAX_LINE_CHARS + "\n")
    assert data is None
    assert [(d.code, d.line, d.column) for d in diags] == [("RB007", 2, MAX_LINE_CHARS + 1)]
    data, _pos, diags = one("a: 1\nb: " + "x" * (MAX_LINE_CHARS - 3) + "\n")
    assert diags == []


def test_a_hundred_thousand_keys_are_refused_fast():
    text = "".join(f"{i}: 0\n" for i in range(100_000))  # under the byte cap
    assert len(text) < MAX_FILE_BYTES
    start = time.perf_counter()
    data, _pos, diags = one(text)
    assert time.perf_counter() - start < 3
    assert data is None
    # the root mapping is value 1, line k holds values 2k and 2k + 1: the one past the cap is the
    # value of line MAX_NODES / 2 ("4999: 0", column 7)
    assert [(d.code, d.line, d.column) for d in diags] == [("RB007", MAX_NODES // 2, 7)]


def test_nesting_over_the_depth_cap_is_refused_while_composing():
    # 100,000 nested lists on separate lines: PyYAML's composer would hit Python's recursion limit
    start = time.perf_counter()
    data, _pos, diags = one("a: " + "[\n" * 100_000 + "]\n" * 100_000)
    assert time.perf_counter() - start < 3
    assert data is None and [(d.code, d.line) for d in diags] == [("RB007", MAX_DEPTH + 1)]
    nested = "".join("  " * i + "- \n" for i in range(MAX_DEPTH + 5))
    data, _pos, diags = one("a:\n" + nested)
    assert [(d.code, d.line, d.column) for d in diags] == [("RB007", MAX_DEPTH + 2, 2 * MAX_DEPTH + 1)]


def test_nesting_at_the_cap_is_accepted():
    nested = "".join("  " * i + "- \n" for i in range(MAX_DEPTH - 1))
    data, _pos, diags = one("a:\n" + nested)
    assert diags == [] and data is not None


def test_invalid_utf8_reports_line_and_column(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_bytes("id: x\nname: 烏姆\xff".encode("utf-8").replace(b"\xc3\xbf", b"\xff"))
    data, _pos, diags = load_file(f, "bad.yaml")
    assert data is None
    assert [(d.code, d.line, d.column) for d in diags] == [("RB004", 2, 9)]


def test_utf16_is_refused_with_a_hint(tmp_path):
    f = tmp_path / "u16.yaml"
    f.write_bytes("id: x\n".encode("utf-16"))
    _data, _pos, diags = load_file(f, "u16.yaml")
    assert diags[0].code == "RB004" and "UTF-8" in diags[0].hint


def test_bom_is_accepted(tmp_path):
    f = tmp_path / "bom.yaml"
    f.write_bytes(b"\xef\xbb\xbfid: x\n")
    data, _pos, diags = load_file(f, "bom.yaml")
    assert diags == [] and data == {"id": "x"}


def test_reading_a_project_pauses_the_collector_and_gives_it_back_as_it_was(good_content):
    import gc

    from generator.gcpause import collector_paused
    from generator.project import read_project
    seen = []
    assert gc.isenabled()
    read_project(good_content)
    assert gc.isenabled()
    gc.disable()
    try:
        read_project(good_content)
        assert not gc.isenabled()  # off before, off after: not switched on behind the caller's back
    finally:
        gc.enable()
    try:
        with collector_paused():
            seen.append(gc.isenabled())
            with collector_paused():
                pass
            seen.append(gc.isenabled())
            raise ValueError
    except ValueError:
        pass
    assert seen == [False, False] and gc.isenabled()
