"""Builds that lose nothing: a build killed half-way, two builds at once and a failed build
all leave one complete site in place, still served (docs/builds.md)."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from conftest import FIXTURES, ROOT, edit

from generator import build as build_mod
from generator.build import build_site
from generator.cli import validate
from generator.diagnostics import Diagnostic

RULEBOOK = [sys.executable, "-m", "generator.cli"]


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".site") and p.name != ".site.cache")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/{path}", timeout=10) as r:
        assert r.status == 200
        return r.read()


def _build_cmd(content: Path, out: Path) -> list[str]:
    return RULEBOOK + ["build", "--content", str(content), "--out", str(out), "--no-pdf"]


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT))


def test_killed_build_leaves_the_previous_site_served(tmp_path):
    out = tmp_path / "site"
    project, _ = validate(FIXTURES / "good", None)
    assert build_site(project, out, pdf=False) == []
    before = _files(out)
    port = _free_port()
    server = subprocess.Popen(RULEBOOK + ["serve", "--no-build", "--out", str(out), "--port", str(port)],
                              cwd=tmp_path, env=_env(), stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                served = _get(port, "en/index.html")
                break
            except OSError:
                time.sleep(0.1)
        assert served == before["en/index.html"]
        changed = tmp_path / "content"  # another site, so a build that got through would show
        shutil.copytree(FIXTURES / "good", changed)
        edit(changed / "tiny/game.yaml", "en: A small game for tests.", "en: A changed game for tests.")
        build = subprocess.Popen(_build_cmd(changed, out), cwd=tmp_path, env=_env(),
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 120
        staging = []
        while time.monotonic() < deadline and build.poll() is None:
            staging = [p for p in tmp_path.glob(".site.staging-*") if any(p.iterdir())]
            if staging:  # Sphinx is writing into it: half-way
                break
            time.sleep(0.01)
        assert staging, "the build never wrote into a staging folder"
        build.send_signal(signal.SIGKILL)
        assert build.wait(timeout=30) == -signal.SIGKILL
        assert _files(out) == before
        assert _get(port, "en/index.html") == before["en/index.html"]
        assert _get(port, "index.html") == before["index.html"]
        assert _leftovers(tmp_path)  # the killed build's staging folder is still there …
        done = subprocess.run(_build_cmd(changed, out), cwd=tmp_path, env=_env(), capture_output=True, text=True,
                              timeout=300)
        assert done.returncode == 0, done.stderr
        assert "clean build" in done.stderr  # the killed build may have left half a cache
        assert _leftovers(tmp_path) == []  # … until the next build removes it
        assert b"A changed game for tests." in _get(port, "en/tiny/index.html")
    finally:
        server.kill()
        server.wait(timeout=30)


def test_two_builds_at_once_leave_one_complete_site(tmp_path):
    first = tmp_path / "first"
    second = tmp_path / "second"
    shutil.copytree(FIXTURES / "good", first)
    shutil.copytree(FIXTURES / "good", second)
    edit(second / "tiny/game.yaml", "en: A small game for tests.", "en: An other game for tests.")
    out = tmp_path / "site"
    out.mkdir()
    (out / "stale.html").write_text("from before")
    builds = [subprocess.Popen(_build_cmd(c, out), cwd=tmp_path, env=_env(), stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE) for c in (first, second)]
    for b in builds:
        _, err = b.communicate(timeout=300)
        assert b.returncode == 0, err.decode()
    # each alone, for comparison (builds are reproducible, so equal content gives equal bytes)
    alone = {}
    for c in (first, second):
        project, _ = validate(c, None)
        alone[c.name] = tmp_path / f"alone-{c.name}" / "site"
        assert build_site(project, alone[c.name], pdf=False) == []
    result = _files(out)
    assert result in (_files(alone["first"]), _files(alone["second"]))
    assert _leftovers(tmp_path) == []


def test_failed_builds_leave_no_staging_folder(tmp_path, monkeypatch):
    project, _ = validate(FIXTURES / "good", None)
    out = tmp_path / "site"
    assert build_site(project, out, langs=["en"], pdf=False) == []
    before = _files(out)
    from generator import sphinx_
    real = sphinx_.run
    monkeypatch.setattr(sphinx_, "run", lambda *a, **k: real(*a, **k) + [Diagnostic("RB901", "injected")])
    assert {d.code for d in build_site(project, out, pdf=False)} == {"RB901"}
    monkeypatch.setattr(sphinx_, "run", real)
    import generator.pdf
    monkeypatch.setattr(generator.pdf, "build_pdfs", lambda *a, **k: [Diagnostic("RB902", "injected")])
    assert [d.code for d in build_site(project, out)] == ["RB902"]
    assert _files(out) == before
    assert _leftovers(tmp_path) == []


def test_swap_exchanges_in_one_step(tmp_path, monkeypatch):
    """`out` is never missing: the swap is one exchange, never a rename away and back."""
    out, staging = tmp_path / "site", tmp_path / ".site.staging-x"
    out.mkdir()
    (out / "old").write_text("old")
    staging.mkdir()
    (staging / "new").write_text("new")
    renames = []
    real = os.replace
    monkeypatch.setattr(build_mod.os, "replace", lambda *a: renames.append(a) or real(*a))
    with build_mod._locked(tmp_path):
        build_mod._swap(staging, out)
    assert sorted(p.name for p in out.iterdir()) == ["new"]
    assert not staging.exists()
    assert renames == []  # the Linux exchange did it, not two renames
