"""`rulebook new GAME`: a new game folder that validates and builds at once, site.yaml edited in
place (comments and layout kept), bad or existing ids refused with a diagnostic."""

import os
import shutil
import subprocess

import pytest

from conftest import FIXTURES, ROOT
from generator.cli import main, validate
from generator.scaffold import FILES


def _copy_content(tmp_path):
    dst = tmp_path / "content"
    shutil.copytree(ROOT / "content", dst)
    return dst


def _new(content, gid, capsys=None):
    rc = main(["new", gid, "--content", str(content)])
    return rc, (capsys.readouterr().err if capsys else "")


def test_a_new_game_validates_clean_at_once_and_is_listed_in_site_yaml(tmp_path, capsys):
    content = _copy_content(tmp_path)
    before = (content / "site.yaml").read_text(encoding="utf-8")
    rc, err = _new(content, "demo", capsys)
    assert rc == 0, err
    assert sorted(p.name for p in (content / "demo").iterdir()) == sorted([*FILES, "translations.lock"])
    assert "added demo to games:" in err
    after = (content / "site.yaml").read_text(encoding="utf-8")
    # one line changed, in place: the comment line and the layout of the rest are untouched
    changed = [(a, b) for a, b in zip(before.splitlines(), after.splitlines()) if a != b]
    assert changed == [("games: [ulm, jorvik, castles-of-mad-king-ludwig, ursuppe]",
                        "games: [ulm, jorvik, castles-of-mad-king-ludwig, ursuppe, demo]")]
    assert after.startswith("# yaml-language-server:") and len(after.splitlines()) == len(before.splitlines())
    project, diags = validate(content, ["demo"])
    assert diags == [], [(d.code, d.message) for d in diags]
    assert project.site.games[-1] == "demo"
    game = (content / "demo" / "game.yaml").read_text(encoding="utf-8")
    assert "docs/authoring.md" in game and "{per_player}" in game
    for name in FILES:  # every file says what belongs in it
        text = (content / "demo" / name).read_text(encoding="utf-8")
        assert text.splitlines()[1].startswith(f"# {name}:")


@pytest.mark.parametrize("games, expected", [
    ("games:\n- ulm\n- jorvik  # the second\n", "games:\n- ulm\n- jorvik  # the second\n- demo\n"),
    ("games:\n  - ulm\n  - 'jorvik'\n# the end\n", "games:\n  - ulm\n  - 'jorvik'\n  - demo\n# the end\n"),
    ("games: [ulm,\n  jorvik]  # order\n", "games: [ulm,\n  jorvik, demo]  # order\n"),
    ("games: []\n", "games: [demo]\n"),
], ids=["block", "indented-block", "flow-on-two-lines", "empty"])
def test_site_yaml_keeps_its_layout(tmp_path, capsys, games, expected):
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    for gid in ("ulm", "jorvik"):  # folders, so that the site's list resolves
        (content / gid).mkdir()
    site = content / "site.yaml"
    head = site.read_text(encoding="utf-8")
    site.write_text(head + games, encoding="utf-8")
    rc, err = _new(content, "demo", capsys)
    assert rc == 0, err
    assert site.read_text(encoding="utf-8") == head + expected


def test_crlf_line_endings_are_kept(tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    site = content / "site.yaml"
    text = site.read_text(encoding="utf-8") + "games:\n- tiny\n"
    site.write_bytes(text.replace("\n", "\r\n").encode())
    assert _new(content, "demo", capsys)[0] == 0
    assert site.read_bytes().endswith(b"games:\r\n- tiny\r\n- demo\r\n")
    assert b"\n" not in site.read_bytes().replace(b"\r\n", b"")


def test_a_site_without_a_games_list_is_left_alone(tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    before = (content / "site.yaml").read_bytes()
    rc, err = _new(content, "demo", capsys)
    assert rc == 0 and (content / "site.yaml").read_bytes() == before
    assert "no games: list" in err
    _p, diags = validate(content, None)
    assert diags == [], [(d.code, d.message) for d in diags]


@pytest.mark.parametrize("gid, hint", [("Demo", "'demo'"), ("no_thanks", "'no-thanks'"), ("demo-", "'demo'"),
                                       ("demo--2", "'demo-2'"), ("x" * 65, "at most 64")])
def test_a_bad_id_is_refused_with_a_diagnostic(tmp_path, capsys, gid, hint):
    content = _copy_content(tmp_path)
    before = sorted(p.name for p in content.iterdir())
    rc = main(["new", gid, "--content", str(content)])
    err = capsys.readouterr().err
    assert rc == 1
    assert f"error RB100: '{gid}' is not a valid game id" in err and hint in err
    assert sorted(p.name for p in content.iterdir()) == before  # nothing written


def test_an_existing_id_is_refused_at_its_id_line(tmp_path, capsys):
    content = _copy_content(tmp_path)
    site = (content / "site.yaml").read_bytes()
    rc = main(["new", "ursuppe", "--content", str(content), "--format", "json"])
    import json
    rows = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert [(r["code"], r["file"].endswith("ursuppe/game.yaml"), r["line"], r["column"]) for r in rows] == \
        [("RB200", True, 2, 5)]
    assert rows[0]["hint"]
    assert (content / "site.yaml").read_bytes() == site


def test_a_broken_site_yaml_is_reported_and_nothing_is_written(tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    (content / "site.yaml").write_text("title: [unclosed\n", encoding="utf-8")
    assert main(["new", "demo", "--content", str(content)]) == 1
    assert "RB001" in capsys.readouterr().err
    assert not (content / "demo").exists()


def test_every_declared_language_gets_a_text(tmp_path, capsys):
    """A language the scaffold has no sentences for gets the English ones (and the command says
    so): the game still validates, and no text is missing."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    site = content / "site.yaml"
    site.write_text(site.read_text(encoding="utf-8").replace(
        "  - {tag: en, name: English}", "  - {tag: en, name: English}\n  - {tag: fr, name: Français}"), encoding="utf-8")
    shutil.rmtree(content / "tiny")  # its texts have no fr
    rc, err = _new(content, "demo", capsys)
    assert rc == 0 and "no sentences in fr" in err
    _p, diags = validate(content, None)
    assert diags == [], [(d.code, d.message) for d in diags]
    assert "  fr: \"Replace this with a few sentences" in (content / "demo/game.yaml").read_text(encoding="utf-8")


def test_rulebook_new_then_make_site(tmp_path):
    """The issue's definition of done: `rulebook new demo`, then the README's `make site`, on a
    copy of the project's content, with the project's Makefile and virtual environment."""
    for name in ("Makefile", "pyproject.toml", "constraints.txt"):
        shutil.copy2(ROOT / name, tmp_path / name)
    example = "examples/rulebook-engine-demo-heaps/pyproject.toml"
    (tmp_path / example).parent.mkdir(parents=True)
    shutil.copy2(ROOT / example, tmp_path / example)
    shutil.copytree(ROOT / "content", tmp_path / "content")
    venv = ROOT / ".venv"
    r = subprocess.run([str(venv / "bin" / "rulebook"), "new", "demo"], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # -o: never reinstall the shared environment from this copy (its stamp may be older than a fresh edit)
    r = subprocess.run(["make", "site", f"VENV={venv}", "-o", f"{venv}/.installed"], cwd=tmp_path,
                       capture_output=True, text=True, timeout=900, env=dict(os.environ, MAKEFLAGS=""))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "setup only: no engine module for demo" in r.stderr
    for lang in ("zh-tw", "es", "en"):
        page = tmp_path / "site" / lang / "demo" / "index.html"
        assert page.is_file()
        assert (tmp_path / "site" / lang / "demo" / "reference.pdf").is_file()
    assert "Replace this with a few sentences" in (tmp_path / "site/en/demo/index.html").read_text(encoding="utf-8")
    assert "demo" in (tmp_path / "site/en/index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("tag, expected", [("zh-TW", "標準規則"), ("zh-Hant", "標準規則"), ("zh-Hans", "Standard rules"),
                                           ("es-419", "Reglas estándar"), ("en-GB", "Standard rules"),
                                           ("ja", "Standard rules")])
def test_a_language_tag_gets_the_sentences_of_its_language(tag, expected):
    from generator.scaffold import TEXTS, _sentence
    assert _sentence(TEXTS["mode"], tag) == expected  # Simplified Chinese is never given Traditional text


def test_the_new_folder_is_readable_like_any_other(tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    (content / "site.yaml").chmod(0o644)
    umask = os.umask(0o022)
    try:
        assert _new(content, "demo", capsys)[0] == 0
    finally:
        os.umask(umask)
    assert (content / "demo").stat().st_mode & 0o777 == 0o755  # not a temporary folder's 0700
    assert (content / "demo" / "game.yaml").stat().st_mode & 0o777 == 0o644
