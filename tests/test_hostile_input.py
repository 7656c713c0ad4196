"""Hostile and broken input (issue #8): YAML 1.1 surprises reach the schema as text and get an
RB100 with a hint; bytes and caps are refused through the CLI with exit 1, no traceback and
nothing written; GitHub output cannot start a second workflow command."""

import json
import subprocess
import sys

import pytest

from conftest import ROOT, edit
from generator.cli import main, validate
from generator.diagnostics import Diagnostic, format_github

GAME = "tiny/game.yaml"


def codes(content):
    _project, diags = validate(content, None)
    return [(d.code, d.file.split("/")[-1], d.line, d.column, d.hint) for d in diags]


# (id, old, new, line, column, words of the hint): each breaks one value of the good fixture
YAML11 = [
    ("yes-as-bool", "    unlimited: true", "    unlimited: yes", 29, 16, "yes/no/on/off"),
    ("off-as-bool", "    unlimited: true", "    unlimited: off", 29, 16, "yes/no/on/off"),
    ("sexagesimal-count", "colours: 3", "colours: 1:30", 6, 10, "base-60"),
    ("hex-count", "colours: 3", "colours: 0x1F", 6, 10, "hexadecimal"),
    ("octal-count", "colours: 3", "colours: 0o3", 6, 10, "hexadecimal, octal"),
    ("leading-zero-count", "colours: 3", "colours: 03", 6, 10, "leading zeros"),
    ("underscore-count", "colours: 3", "colours: 1_0", 6, 10, "underscores"),
    ("nan-count", "    count: 6\n", "    count: .nan\n", 24, 12, ".nan and .inf"),
    ("inf-count", "    count: 6\n", "    count: .inf\n", 24, 12, ".nan and .inf"),
    ("minus-inf-count", "    count: 6\n", "    count: -.inf\n", 24, 12, ".nan and .inf"),
    ("float-count", "    count: 6\n", "    count: 6.0\n", 24, 12, "quote"),
    ("float-for-text", "designer: Test Designer", "designer: 1.10", 4, 11, "quote"),
    ("bool-for-text", "designer: Test Designer", "designer: true", 4, 11, "quote"),
    ("int-for-text", "designer: Test Designer", "designer: 1989", 4, 11, "quote"),
]


@pytest.mark.parametrize("case", YAML11, ids=[c[0] for c in YAML11])
def test_yaml_1_1_surprises_are_rb100_with_a_hint(good_content, case):
    _id, old, new, line, column, hint = case
    edit(good_content / GAME, old, new)
    got = codes(good_content)
    assert [(c, f, ln, col) for c, f, ln, col, _h in got] == [("RB100", "game.yaml", line, column)], got
    assert hint in got[0][4]


@pytest.mark.parametrize("value", ["no", "yes", "on", "off", "2024-01-05", "1:30", "0x1F", "007"])
def test_yaml_1_1_words_are_fine_where_text_is_meant(good_content, value):
    edit(good_content / GAME, "designer: Test Designer", f"designer: {value}")
    _project, diags = validate(good_content, None)
    assert diags == []
    assert _project.games["tiny"].model.designer == value


# The CLI on broken files: exit 1, one diagnostic, no traceback, nothing written.
BROKEN = [
    ("alias-bomb", "designer: Test Designer",
     "l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
     + "".join(f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]\n" for i in range(1, 10))
     + "designer: Test Designer", "RB003", 4, 5),
    ("python-tag", "designer: Test Designer", "designer: !!python/object/apply:os.system [ls]", "RB003", 4, 11),
    ("date", "designer: Test Designer", "designer: !!timestamp 2024-01-05", "RB003", 4, 11),
    ("second-document", "designer: Test Designer", "designer: Test Designer\n---\nx: 1", "RB003", 5, 1),
    ("directive", "# A small", "%YAML 1.1\n---\n# A small", "RB003", 1, 1),
    ("deep-duplicate", "    per_colour: 2", "    per_colour: 2\n    per_colour: 2", "RB002", 26, 5),
    ("tab", "  - id: pawn\n", "  - id: pawn\n\t  count: 6\n", "RB001", 23, 1),
    ("control", "designer: Test Designer", "designer: Test\x1b[2J Designer", "RB006", 4, 15),
    ("zero-width-id", "  - id: pawn\n", "  - id: pa\u200bwn\n", "RB006", 22, 11),
    ("zero-width-term", "term: {zh-TW: 方塊, es: cubo, en: cube}", "term: {zh-TW: 方塊, es: cubo, en: cu\u200cbe}", "RB006", 101, 39),
    ("bidi", "designer: Test Designer", "designer: Test \u202eDesigner", "RB006", 4, 16),
    ("long-line", "designer: Test Designer", "designer: " + "x" * 20_000, "RB007", 4, 10_001),
    ("deep", "designer: Test Designer", "designer:\n" + "".join("  " * i + "- \n" for i in range(60)), "RB007", 45, 81),
]


@pytest.mark.parametrize("case", BROKEN, ids=[c[0] for c in BROKEN])
def test_broken_yaml_through_the_cli(good_content, tmp_path, capsys, case):
    _id, old, new, code, line, column = case
    edit(good_content / GAME, old, new)
    out = tmp_path / "site"
    for command in (["validate"], ["build", "--no-pdf", "--out", str(out)]):
        assert main([*command, "--content", str(good_content), "--format", "json"]) == 1
        r = capsys.readouterr()
        assert "Traceback" not in r.err and "internal error" not in r.err
        rows = json.loads(r.out)
        assert [(d["code"], d["line"], d["column"]) for d in rows] == [(code, line, column)], rows
        assert rows[0]["file"].endswith(GAME)
        assert rows[0]["message"] and rows[0]["hint"]
        assert not out.exists()


# Found by the fuzz test (tests/test_hostile_fuzz.py), each a mutation one example in thousands
# draws: the schema's diagnostic, and the checks and the build never raise on the data it refused.
_TEXT = (ROOT / "tests" / "fixtures" / "good" / GAME).read_text(encoding="utf-8")
_CARDS = _TEXT[_TEXT.index("\ncards:\n") + 1:_TEXT.index("\nglossary:\n") + 1]
FUZZ_FOUND = [
    # the text checks iterated `cards:` and `rules:` as lists (TypeError: 'bool' object is not iterable)
    ("cards-not-a-list", _CARDS, "cards: true\n", [("RB100", 85, 8)], "valid list"),
    ("rules-not-a-list", "glossary:\n", "rules: 7\nglossary:\n", [("RB100", 99, 8)], "valid list"),
    # a text in no language passed validation and the build failed (StopIteration) naming the game
    ("empty-name", "name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game}", "name: {}", [("RB100", 3, 7)],
     "empty text in name"),
    ("empty-term", "term: {zh-TW: 方塊, es: cubo, en: cube}", "term: {}", [("RB100", 101, 11)], "empty text in term-cube.term"),
    # two unknown keys beside a missing one: the loader left `players:` out for the first, then
    # removed the second from a mapping no longer there (IndexError)
    ("two-unknown-keys", "players: {min: 2, max: 3}", "players: {min: 2, mx: 3, most: 4}",
     [("RB101", 5, 10), ("RB102", 5, 19), ("RB102", 5, 26)], "'max' is missing"),
    # a value named by a number, and a text naming a value not there: the hint listing the known
    # names sorted numbers with names (TypeError); the key was called "not a language tag"
    ("number-as-value-name", "values: {n: 2}", "values: {2: 2}",
     [("RB403", 57, 21), ("RB403", 57, 39), ("RB403", 57, 62), ("RB100", 58, 16)], "key 2"),
]


@pytest.mark.parametrize("case", FUZZ_FOUND, ids=[c[0] for c in FUZZ_FOUND])
def test_what_the_fuzz_test_found_through_the_cli(good_content, tmp_path, capsys, case):
    _id, old, new, expected, words = case
    edit(good_content / GAME, old, new)
    out = tmp_path / "site"
    for command in (["validate", "--no-sim"], ["build", "--no-pdf", "--out", str(out)]):
        assert main([*command, "--content", str(good_content), "--format", "json"]) == 1
        r = capsys.readouterr()
        assert "Traceback" not in r.err and "internal error" not in r.err
        rows = json.loads(r.out)
        assert [(d["code"], d["line"], d["column"]) for d in rows] == expected, rows
        assert all(d["file"].endswith(GAME) and d["message"] and d["hint"] for d in rows)
        assert any(words in d["message"] for d in rows)
        assert not out.exists()


def test_a_broken_file_in_a_real_process(good_content, tmp_path):
    edit(good_content / GAME, "designer: Test Designer", "designer: !!python/object/apply:os.system [ls]")
    out = tmp_path / "site"
    r = subprocess.run([sys.executable, "-m", "generator.cli", "build", "--no-pdf", "--out", str(out),
                        "--content", str(good_content)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "game.yaml:4:11: error RB003" in r.stdout + r.stderr
    assert not out.exists()


@pytest.mark.parametrize("raw, code, line, column", [
    ("id: tiny\n".encode("utf-16"), "RB004", 1, 1),
    ("id: tiny\nname: 小遊戲\xff".encode("utf-8").replace(b"\xc3\xbf", b"\xff"), "RB004", 2, 10),
    (b"id: tiny\n" + b"# " + b"x" * (2 * 1024 * 1024) + b"\n", "RB007", 1, 1),
])
def test_bad_bytes_through_validate(good_content, raw, code, line, column):
    (good_content / GAME).write_bytes(raw)
    _project, diags = validate(good_content, None)
    assert [(d.code, d.line, d.column) for d in diags] == [(code, line, column)]
    assert diags[0].file.endswith(GAME)


def test_a_bom_is_accepted(good_content):
    f = good_content / GAME
    f.write_bytes(b"\xef\xbb\xbf" + f.read_bytes())
    _project, diags = validate(good_content, None)
    assert diags == []


def test_github_output_cannot_start_a_second_command(good_content):
    # a key is content that reaches a message verbatim (RB102: unknown key '...')
    evil = "x\\n::error file=evil.yaml::pwned\\r\\n::add-mask::y%0A::stop-commands::z"
    edit(good_content / GAME, "  - id: pawn\n", f'  - id: pawn\n    "{evil}": 3\n')
    _project, diags = validate(good_content, None)
    assert [d.code for d in diags] == ["RB102"]
    out = format_github(diags)
    assert out.count("\n") == 0 and "\r" not in out
    assert out.startswith("::error file=") and ",line=23,col=5,title=RB102::" in out
    # a workflow command starts a line only: the content's line breaks are escaped, and so is a
    # '%' of the content (or "%0A" in it would turn into a line break when GitHub unescapes)
    assert "%0A::error file=evil.yaml" in out and "%250A::stop-commands" in out
    # and a file name (from the file system) cannot break the properties either
    d = Diagnostic("RB004", "m", "a,b::c\nd.yaml", 1, 1, "h")
    assert format_github([d]).splitlines() == ["::error file=a%2Cb%3A%3Ac%0Ad.yaml,line=1,col=1,title=RB004::m (hint: h)"]
