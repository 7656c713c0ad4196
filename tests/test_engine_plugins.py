"""Engine modules as plugins: found through the `rulebook.engines` entry-point group (the four
shipped modules included), the example plugin installed in the test environment and simulated,
an unusable plugin reported as RB606, and a game without one noted as "setup only" (RB607) in
every output format."""

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from conftest import FIXTURES, ROOT
from generator.cli import validate
from generator.engine import games
from generator.engine.games import GROUP, module_for, registered
from generator.engine.play import play
from generator.project import game_folders, read_project

EXAMPLE = ROOT / "examples" / "rulebook-engine-demo-heaps"
SETUP_ONLY = "setup only: no engine module for tiny"
CODES = ("RB606", "RB607")  # the codes these tests give a failing input (test_checks counts them)


def test_every_shipped_game_is_registered_through_the_entry_point_group():
    found = registered()
    for folder in game_folders(ROOT / "content"):
        gid = folder.name
        assert gid in found, (f"no '{GROUP}' entry point for {gid}: is the project installed from the current "
                              "pyproject.toml? (make test, or pip install -e .)")
        assert found[gid] == [(f"generator.engine.games.{gid.replace('-', '_')}", found[gid][0][1])]
        assert found[gid][0][1].startswith("rulebook ")
        assert module_for(gid) is not None


def test_the_example_plugin_is_installed_and_plays_whole_games():
    found = registered().get("demo-heaps")
    assert found == [("rulebook_engine_demo_heaps", "rulebook-engine-demo-heaps 0.1.0")], \
        "the example plugin is not installed: make test installs it (pip install -e examples/rulebook-engine-demo-heaps)"
    module = sys.modules.get("rulebook_engine_demo_heaps") or __import__("rulebook_engine_demo_heaps")
    source = EXAMPLE / "rulebook_engine_demo_heaps" / "__init__.py"  # the installed module is this one, not stale
    assert Path(module.__file__).read_bytes() == source.read_bytes(), "reinstall examples/rulebook-engine-demo-heaps"
    project, _ = read_project(EXAMPLE / "content")
    game = project.games["demo-heaps"].model
    for mode in ("last-wins", "last-loses"):
        for seed in range(6):
            out = play(game, 2, mode, seed, keep_log=True, full_check=True)
            assert out.fault is None, out.fault
            # beyond setup: turns were played, counters moved from the heaps, one player won
            assert out.turns >= 3 and out.rounds >= 2 and out.steps == out.turns
            assert sorted(out.scores) == [0, 1]
            assert any(" takes " in line for line in out.log)
            lines = "\n".join(out.log).splitlines()
            taken = [line for line in lines[lines.index("# at the end:"):] if line.startswith("  taken#")]
            assert sum(int(line.rsplit(" ", 1)[1]) for line in taken) == 12


def test_the_example_content_validates_without_a_setup_only_note():
    r = subprocess.run([sys.executable, "-m", "generator.cli", "validate", "--content", str(EXAMPLE / "content"),
                        "--format", "json"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == []


def test_the_example_plays_through_the_validator_with_facts():
    project, diags = validate(EXAMPLE / "content", None, seeds=3)
    assert diags == []
    facts = project.facts["demo-heaps"]
    assert {key: f.games for key, f in facts.items()} == {(2, "last-wins"): 3, (2, "last-loses"): 3}
    assert all(min(f.turns) >= 3 for f in facts.values())


@pytest.mark.parametrize("fmt, expect", [
    ("text", f"tiny/game.yaml:2:5: note RB607: {SETUP_ONLY}"),
    ("json", '"severity": "note"'),
    ("junit", SETUP_ONLY),
    ("github", f"::notice file="),
])
def test_a_game_without_an_engine_module_is_noted_as_setup_only_in_every_format(fmt, expect):
    r = subprocess.run([sys.executable, "-m", "generator.cli", "validate", "--content", str(FIXTURES / "good"),
                        "--format", fmt], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    out = r.stderr if fmt == "text" else r.stdout
    assert expect in out and SETUP_ONLY in out
    if fmt == "json":
        rows = json.loads(out)
        assert [(x["code"], x["severity"], x["slug"], x["line"]) for x in rows] == [("RB607", "note", "setup-only", 2)]
    if fmt == "junit":
        suite = ET.fromstring(out)
        assert suite.get("failures") == "0" and suite.find("testcase/system-out") is not None
    if fmt == "text":
        assert "checked, no errors" in out


def test_no_setup_only_note_without_simulation():
    r = subprocess.run([sys.executable, "-m", "generator.cli", "validate", "--no-sim", "--content",
                        str(FIXTURES / "good")], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "RB607" not in r.stderr


# ----- RB606: a plugin that is registered but cannot be used

def _fake_distribution(root: Path, name: str, entry: str, module: str | None = None, source: str = "") -> None:
    info = root / f"{name.replace('-', '_')}-0.1.dist-info"  # as pip names it
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entry}\n", encoding="utf-8")
    if module:
        (root / f"{module}.py").write_text(textwrap.dedent(source), encoding="utf-8")


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    """A folder on sys.path where a test installs fake distributions; the registry is read anew."""
    root = tmp_path / "site-packages"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    registered.cache_clear()
    yield root
    registered.cache_clear()
    for name in [m for m in sys.modules if m.startswith("fake_engine")]:
        del sys.modules[name]


PLUGIN_CASES = [  # (id, distributions to install, expected words); the diagnostic is at tiny's `id:`
    ("fails-to-import", [("fake-a", "tiny = fake_engine_a", "fake_engine_a", "raise ImportError('no numpy here')\n")],
     "failed to load: ImportError: no numpy here"),
    ("no-new-state", [("fake-b", "tiny = fake_engine_b", "fake_engine_b", "def parameters(game, rng):\n    return {}\n")],
     "has no new_state"),
    ("two-claim-one-game", [("fake-c", "tiny = fake_engine_c", "fake_engine_c", "def new_state(*a):\n    pass\n"),
                            ("fake-d", "tiny = fake_engine_d", "fake_engine_d", "def new_state(*a):\n    pass\n")],
     "2 installed distributions register an engine for 'tiny'"),
]


@pytest.mark.parametrize("case", PLUGIN_CASES, ids=[c[0] for c in PLUGIN_CASES])
def test_an_unusable_plugin_is_rb606_not_a_traceback(good_content, plugins, case):
    _id, dists, words = case
    for name, entry, module, source in dists:
        _fake_distribution(plugins, name, entry, module, source)
    _p, diags = validate(good_content, None, seeds=1)
    assert [(d.code, d.file.endswith("tiny/game.yaml"), d.line, d.column) for d in diags] == [("RB606", True, 2, 5)]
    assert words in diags[0].message and diags[0].hint


def test_a_plugin_simulates_a_game_of_the_content(good_content, plugins):
    """An installed distribution's module is found by the game's id and played: no setup-only note."""
    _fake_distribution(plugins, "fake-e", "tiny = fake_engine_e:Rules", "fake_engine_e", """
        from generator.engine.state import State

        class Turns(State):
            def legal_actions(self):
                return ["pass"]
            def apply(self, action):
                self.turn += 1
                self.round = self.turn
                self.say("pass")
            def is_over(self):
                return self.turn >= 3

        class Rules:  # an entry point may name an object inside a module
            @staticmethod
            def new_state(game, setup, seed, box, endless, params):
                return Turns(game, setup, seed, box, endless, params)
        """)
    assert module_for("tiny").name == "fake_engine_e:Rules (fake-e 0.1)"
    project, diags = validate(good_content, None, seeds=2)
    assert diags == []
    assert all(f.turns == [3, 3] for f in project.facts["tiny"].values())
    from generator.check.simulate import setup_only
    assert setup_only(project) == []


def test_the_test_override_wins_over_entry_points(plugins, monkeypatch):
    _fake_distribution(plugins, "fake-f", "tiny = fake_engine_f", "fake_engine_f", "raise ImportError('unused')\n")
    monkeypatch.setitem(games.MODULES, "tiny", "generator.engine.games.ulm")
    assert module_for("tiny").name.startswith("generator.engine.games.ulm")


def test_an_installed_plugin_engine_s_code_is_an_input_of_the_build_fingerprint(tmp_path, monkeypatch):
    """A plugin installed in place (pip install -e) keeps its version while its code changes; the
    build cache and the simulation memo must see the change, as they see the generator's."""
    from generator import cache
    assert EXAMPLE / "rulebook_engine_demo_heaps" in cache.engine_sources()  # found from its entry point
    engine = tmp_path / "my_engine"
    engine.mkdir()
    (engine / "__init__.py").write_text("MAX = 3\n", encoding="utf-8")
    monkeypatch.setattr(cache, "engine_sources", lambda: [engine])
    content = FIXTURES / "good"
    before = cache.fingerprint(content, {}, 0)
    assert cache.fingerprint(content, {}, 0) == before
    (engine / "__init__.py").write_text("MAX = 4\n", encoding="utf-8")
    after = cache.fingerprint(content, {}, 0)
    assert after.global_ != before.global_ and after.games == before.games
