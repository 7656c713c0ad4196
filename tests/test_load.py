"""The loader: safe YAML with positions; everything else becomes a diagnostic."""

import pytest

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
    ("a: &x 1\nb: *x\n", "RB003", 2, 4),
    ("a: !!python/object:os.system {}\n", "RB003", 1, 4),
    ("a: !!binary aGk=\n", "RB003", 1, 4),
    ("a: !!set {x}\n", "RB003", 1, 4),
    ("base: {x: 1}\nb:\n  <<: {x: 2}\n", "RB003", 3, 3),
    ("a: 1\n---\nb: 2\n", "RB003", 2, 1),
    ("%YAML 1.1\n---\na: 1\n", "RB003", 1, 1),
    ("a: [1, 2\n", "RB001", 2, 1),
    ("", "RB004", 1, 1),
    ("- a\n- b\n", "RB004", 1, 1),
])
def test_refused_yaml(text, code, line, col):
    data, _pos, diags = one(text)
    assert data is None
    assert [(d.code, d.line, d.column) for d in diags] == [(code, line, col)]
    assert diags[0].hint or code in ("RB004",)


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
