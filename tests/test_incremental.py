"""Rebuilds do only what changed (generator/cache.py, docs/builds.md): nothing when nothing
changed, one game's pages when one game changed, everything when the tool, site.yaml or the
options changed; and whatever a rebuild does, its result is byte for byte a clean build's."""

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import FIXTURES, ROOT, edit

from generator import cache
from generator.build import build_site
from generator.cli import main, validate
from generator.diagnostics import Diagnostic

RULEBOOK = [sys.executable, "-m", "generator.cli"]


def _two_games(tmp_path: Path) -> Path:
    """The small fixture game twice, as `tiny` and `small`."""
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    shutil.copytree(content / "tiny", content / "small")
    edit(content / "small/game.yaml", "id: tiny", "id: small")
    return content


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _times(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_mtime_ns for p in root.rglob("*.html")}


def _build(content: Path, out: Path, log=None, **kw) -> list:
    project, diags = validate(content, None)
    assert [d for d in diags if d.severity.value == "error"] == []
    return build_site(project, out, pdf=False, log=log, **kw)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """Two games built once (the cache keeps absolute paths, so the site is not copied: the
    scenario below changes it step by step)."""
    base = tmp_path_factory.mktemp("incremental")
    content = _two_games(base)
    assert _build(content, base / "site") == []
    return base


def _no_change_build(content: Path, out: Path) -> subprocess.CompletedProcess:
    code = f"""
import sys
from generator.cli import main
rc = main(["build", "--content", {str(content)!r}, "--out", {str(out)!r}, "--no-pdf"])
print(rc, sorted(m for m in ("sphinx", "pydantic", "yaml", "jinja2", "generator.project") if m in sys.modules))
"""
    return subprocess.run([sys.executable, "-c", code], cwd=out.parent, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, timeout=300)


def test_rebuilds_do_only_what_changed(built, tmp_path, monkeypatch):
    content, out = built / "content", built / "site"

    # 1. nothing changed: nothing is read, checked or written; no heavy module is imported
    before = _times(out)
    again = _no_change_build(content, out)
    assert again.stdout.strip() == "0 []", again.stderr
    assert "nothing changed" in again.stderr
    assert _times(out) == before

    # 2. one game changed: only its pages (and the home pages that list it) are made again
    edit(content / "small/game.yaml", "en: A small game for tests.", "en: A Zanzibar game.")
    said = []
    assert _build(content, out, log=said.append) == []
    assert said == ["rebuilding small (the other games are unchanged)"]
    after = _times(out)
    rewritten = sorted(p for p in after if after[p] != before.get(p))
    assert "en/small/index.html" in rewritten
    assert not [p for p in rewritten if p.startswith("en/tiny/")], rewritten
    # an English sentence changes no zh-TW or Spanish source: Sphinx is not even run for them
    assert not [p for p in rewritten if p.startswith(("zh-tw/", "es/"))], rewritten
    assert "A Zanzibar game." in (out / "en/small/index.html").read_text(encoding="utf-8")
    # a Spanish one: the Spanish page that shows it, and not the others
    edit(content / "small/game.yaml", "es: Un juego pequeño para pruebas.", "es: Un juego de Zanzíbar.")
    assert _build(content, out) == []
    again = _times(out)
    rewritten = sorted(p for p in again if again[p] != after[p])
    assert "es/small/index.html" in rewritten  # the page that shows the summary, and only it
    assert not [p for p in rewritten if p.startswith(("en/", "zh-tw/", "es/tiny/", "es/small/c", "es/small/g"))], \
        rewritten
    assert "Zanzíbar" in (out / "es/small/index.html").read_text(encoding="utf-8")
    # the source language (zh-TW): its translations may now be out of date, and say so
    edit(content / "small/game.yaml", "zh-TW: 一個測試用的小遊戲。", "zh-TW: 一個桑吉巴遊戲。")
    assert _build(content, out) == []
    # and again, so that a word leaves the site: the result is what a clean build writes
    edit(content / "small/game.yaml", "en: A Zanzibar game.", "en: A plain game.")
    edit(content / "small/game.yaml", "zh-TW: 一個桑吉巴遊戲。", "zh-TW: 一個普通遊戲。")
    assert _build(content, out) == []
    clean = tmp_path / "clean" / "site"
    assert _build(content, clean) == []
    assert _files(out) == _files(clean)
    assert b"zanzibar" not in (out / "en/searchindex.js").read_bytes()
    assert "桑吉巴".encode() not in (out / "zh-tw/searchindex.js").read_bytes()

    # 3. a site changed by hand is built again, whole
    (out / "en/tiny/cards.html").unlink()
    said.clear()
    assert _build(content, out, log=said.append) == []
    assert said[0].startswith("clean build")
    assert (out / "en/tiny/cards.html").is_file()

    # 4. site.yaml (or the options) changed: a clean build
    edit(content / "site.yaml", "en: Rulebook library", "en: The rules library")
    said.clear()
    assert _build(content, out, log=said.append) == []
    assert said[0].startswith("clean build")
    assert "The rules library" in (out / "en/tiny/index.html").read_text(encoding="utf-8")

    # 5. a game folder removed: a clean build, so its pages go too
    shutil.move(content / "small", built / "small-away")
    said.clear()
    assert _build(content, out, log=said.append) == []
    assert said[0].startswith("clean build")
    assert not (out / "en/small").exists()
    shutil.move(built / "small-away", content / "small")

    # 6. a failed build forgets the cache (it may hold half of the failed build): the next is clean
    from generator import sphinx_
    real = sphinx_.run
    monkeypatch.setattr(sphinx_, "run", lambda *a, **k: real(*a, **k) + [Diagnostic("RB901", "injected")])
    edit(content / "tiny/game.yaml", "en: A small game for tests.", "en: A broken build.")
    assert {d.code for d in _build(content, out)} == {"RB901"}
    assert cache.read_manifest(out) is None
    monkeypatch.setattr(sphinx_, "run", real)
    said.clear()
    assert _build(content, out, log=said.append) == []
    assert said == ["clean build"]


def test_warnings_are_shown_again_when_nothing_changed(tmp_path, capsys):
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    edit(content / "tiny/game.yaml", "es: Un juego pequeño para pruebas., ", "")  # a summary without Spanish
    args = ["build", "--content", str(content), "--out", str(tmp_path / "site"), "--no-pdf", "--allow-untranslated"]
    assert main(args) == 0
    first = capsys.readouterr().err
    assert main(args) == 0
    second = capsys.readouterr().err
    assert "nothing changed" in second
    warned = [line for line in first.splitlines() if "RB4" in line]
    assert warned and all(line in second for line in warned)


def test_the_site_folder_is_readable_by_others(built):
    """mkdtemp makes the staging folder private (0700); the site it becomes is for a web server."""
    assert (built / "site").stat().st_mode & 0o777 == 0o777 & ~_umask()


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def test_each_language_speaks_its_own_language_everywhere(built):
    """Sphinx's modules call `_()` at import: a language built after another in one process
    once named Sphinx's module index in the first one's words (in objects.inv). Built in one
    process on purpose here (forked workers would hide it)."""
    import zlib
    labels = {}
    busy = threading.Event()  # a thread running: languages are built in this process, one after another
    thread = threading.Thread(target=busy.wait, daemon=True)
    thread.start()
    try:
        assert _build(FIXTURES / "good", built / "langs") == []
    finally:
        busy.set()
        thread.join()
    for lang in ("zh-tw", "es", "en"):
        raw = (built / "langs" / lang / "objects.inv").read_bytes()
        body = zlib.decompress(raw.split(b"\n", 4)[4]).decode("utf-8")
        labels[lang] = next(line for line in body.splitlines() if line.startswith("py-modindex"))
    assert labels["en"].endswith("Python Module Index")
    assert len(set(labels.values())) == 3


def test_a_rebuild_simulates_only_the_games_that_changed(tmp_path, monkeypatch, capsys):
    from generator.check import simulate
    content = _two_games(tmp_path)
    played = []
    real = simulate.check
    monkeypatch.setattr(simulate, "check", lambda game, *a, **k: played.append(game.id) or real(game, *a, **k))
    args = ["build", "--content", str(content), "--out", str(tmp_path / "site"), "--no-pdf"]
    assert main(args) == 0
    assert sorted(played) == ["small", "tiny"]
    components = (tmp_path / "site/en/tiny/components.html").read_text(encoding="utf-8")
    played.clear()
    edit(content / "small/game.yaml", "  count: 5\n", "  count: 6\n")  # a rule: that game is played again
    assert main(args) == 0
    assert played == ["small"]
    played.clear()
    edit(content / "small/game.yaml", "en: A small game for tests.", "en: A changed small game.")
    assert main(args) == 0
    assert played == []  # a text only: what the simulation found still holds
    assert "A changed small game." in (tmp_path / "site/en/small/index.html").read_text(encoding="utf-8")
    # what the simulation found still reaches the unchanged game's pages
    assert (tmp_path / "site/en/tiny/components.html").read_text(encoding="utf-8") == components


def test_the_simulation_memo_gives_back_what_was_found(tmp_path):
    """Pages show the simulation's facts (turns per game, supplies that ran short): a game not
    played again must show the same."""
    from generator.check import simulate
    project, _ = validate(ROOT / "content", ["ulm"], simulation=False)
    game = project.games["ulm"]
    facts = simulate.facts(game, seeds=2)
    diags = [Diagnostic("RB603", "a finding", "content/ulm/game.yaml", 3, 1, "a hint")]
    out = tmp_path / "site"
    inputs = cache.fingerprint(ROOT / "content", cache.build_options(False), 0)
    memo = cache.SimulationMemo(out, inputs)
    memo.put("ulm", diags, facts)
    memo.save()
    again = cache.SimulationMemo(out, inputs).get("ulm")
    assert again == (diags, facts)
    assert any(f.turns for f in facts.values())
    changed = cache.Inputs(inputs.global_, {**inputs.games, "ulm": "another"})
    assert cache.SimulationMemo(out, changed).get("ulm") is None


def test_the_simulation_memo_holds_across_a_text_edit_only(tmp_path):
    """What the simulation reads is the game without its texts: a text edit reuses the findings
    (when there were none: a finding's line may have moved), a rule edit plays again."""
    from generator.check import simulate
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    out = tmp_path / "site"

    def memo_after(old=None, new=None, put=None):
        if old is not None:
            edit(content / "tiny/game.yaml", old, new)
        project, _ = validate(content, None, simulation=False)
        inputs = cache.fingerprint(content, cache.build_options(False), 0)
        memo = cache.SimulationMemo(out, inputs)
        if put is not None:
            memo.put("tiny", put, simulate.facts(project.games["tiny"], seeds=1), project.games["tiny"], project.languages)
            memo.save()
        return memo.get("tiny", project.games["tiny"], project.languages)

    assert memo_after(put=[]) is not None
    assert memo_after("en: A small game for tests.", "en: A game for tests.") is not None
    assert memo_after("  count: 5\n", "  count: 6\n") is None
    finding = [Diagnostic("RB603", "a finding", "content/tiny/game.yaml", 3, 1, "a hint")]
    assert memo_after(put=finding) == (finding, memo_after()[1])
    assert memo_after("en: A game for tests.", "en: Another game for tests.") is None


def test_a_language_whose_sources_are_the_same_is_not_given_to_sphinx(tmp_path, monkeypatch):
    """A Spanish sentence changes no zh-TW or English source (the source language's pages do not
    show translations): those languages are rendered and compared, not built by Sphinx; their
    pages are kept, and the site is still what a clean build writes."""
    from generator import sphinx_
    content = _two_games(tmp_path)
    out = tmp_path / "site"
    assert _build(content, out) == []
    built = []
    real = sphinx_.run
    monkeypatch.setattr(sphinx_, "run", lambda src, *a, **k: built.append(Path(src).parent.name) or real(src, *a, **k))
    busy = threading.Event()  # a thread running: languages are built in this process, so the spy sees them
    thread = threading.Thread(target=busy.wait, daemon=True)
    thread.start()
    try:
        edit(content / "small/game.yaml", "es: Un juego pequeño para pruebas.", "es: Un juego de Zanzíbar.")
        assert _build(content, out) == []
        assert built == ["es"]
        built.clear()
        edit(content / "small/game.yaml", "  count: 5\n", "  count: 6\n")  # a rule: every language shows it
        assert _build(content, out) == []
        assert built == ["zh-tw", "es", "en"]
    finally:
        busy.set()
        thread.join()
    assert _build(content, tmp_path / "clean" / "site") == []
    assert _files(out) == _files(tmp_path / "clean" / "site")


def test_a_changed_page_title_makes_all_of_its_games_pages_again(tmp_path):
    """Sphinx writes a page again when its source is newer; but each page names its neighbours'
    titles (rel=prev/next), so a changed title touches every page of the game."""
    from generator.build import _change
    old, new = tmp_path / "old", tmp_path / "new"
    for root in (old, new):
        root.mkdir()
        (root / "index.md").write_bytes(b"(g)=\n# Game\n\nText.\n")
        (root / "cards.md").write_bytes(b"# Cards\n\nA card.\n")
    assert _change(new, old) is None
    (new / "cards.md").write_bytes(b"# Cards\n\nAnother card.\n")
    assert _change(new, old) == "pages"
    (new / "index.md").write_bytes(b"(g)=\n# Renamed game\n\nText.\n")
    assert _change(new, old) == "all"
    (new / "index.md").write_bytes((old / "index.md").read_bytes())
    (new / "glossary.md").write_bytes(b"# Glossary\n")
    assert _change(new, old) == "all"


def test_game_and_lang_narrow_the_rebuild_and_keep_the_rest_of_the_site(tmp_path, capsys):
    """`build --game G` once replaced the site with a one-game site while the log said the
    other games were unchanged. --game and --lang choose what is brought up to date; every
    other game and language keeps its pages byte for byte, and the home pages and search
    still cover all of them; a later full build catches up and equals a clean build."""
    content = _two_games(tmp_path)
    out = tmp_path / "site"
    args = ["build", "--content", str(content), "--out", str(out), "--no-pdf"]
    assert main(args + ["--game", "small"]) == 0  # nothing to keep yet: every game is built
    assert "every game is checked and built" in capsys.readouterr().err
    assert (out / "en/tiny/index.html").is_file() and (out / "en/small/index.html").is_file()
    first = _files(out)

    edit(content / "tiny/game.yaml", "en: A small game for tests.", "en: A Quokka game.")
    edit(content / "small/game.yaml", "en: A small game for tests.", "en: A Zanzibar game.")
    assert main(args + ["--game", "small"]) == 0
    err = capsys.readouterr().err
    assert "rebuilding small (the other games keep their pages as built)" in err, err
    now = _files(out)
    assert {p for p in now if "/tiny/" in p} == {p for p in first if "/tiny/" in p}
    assert all(now[p] == first[p] for p in now if "/tiny/" in p)  # tiny as built, though it changed
    for lang in ("zh-tw", "es", "en"):
        home = (out / lang / "index.html").read_text(encoding="utf-8")
        assert 'href="tiny/index.html"' in home and 'href="small/index.html"' in home
    assert "A Zanzibar game." in (out / "en/small/index.html").read_text(encoding="utf-8")
    assert b"zanzibar" in (out / "en/searchindex.js").read_bytes()
    assert b"quokka" not in (out / "en/searchindex.js").read_bytes()
    assert "nothing changed" in (main(args + ["--game", "small"]), capsys.readouterr().err)[1]

    edit(content / "small/game.yaml", "en: A Zanzibar game.", "en: A Wombat game.")
    assert main(args + ["--lang", "en"]) == 0
    capsys.readouterr()
    after = _files(out)
    assert all(after[p] == now[p] for p in now if p.startswith(("zh-tw/", "es/")))
    assert set(after) == set(now)
    assert "A Quokka game." in (out / "en/tiny/index.html").read_text(encoding="utf-8")

    assert main(args) == 0  # no option: everything catches up, as a clean build would write it
    assert "rebuilding" in capsys.readouterr().err
    clean = tmp_path / "clean"
    assert main(["build", "--content", str(content), "--out", str(clean), "--no-pdf"]) == 0
    assert _files(out) == _files(clean)
