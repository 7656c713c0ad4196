"""docs/ci.md and .pre-commit-hooks.yaml: their commands run as written, on the test game."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from conftest import FIXTURES, ROOT

BIN = Path(sys.executable).parent


def _workflow() -> dict:
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(name: rules\n.*?)```", text, re.S).group(1)
    return yaml.safe_load(block)


def _run(command: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    assert command.startswith("rulebook "), command
    return subprocess.run(f"{shlex.quote(str(BIN / 'rulebook'))} {command[len('rulebook '):]}", shell=True, cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600)


def test_the_workflow_commands_run_as_documented(tmp_path):
    shutil.copytree(FIXTURES / "good", tmp_path / "content")
    summary = tmp_path / "summary.md"
    env = dict(os.environ, GITHUB_STEP_SUMMARY=str(summary), PYTHONPATH=str(ROOT))
    steps = _workflow()["jobs"]["rules"]["steps"]
    ran = []
    for step in steps:
        for line in step.get("run", "").splitlines():
            if line.startswith("rulebook "):
                r = _run(line, tmp_path, env)
                assert r.returncode == 0, (line, r.stderr)
                ran.append(line.split()[1])
        if step.get("uses", "").startswith("actions/upload-artifact"):
            assert (tmp_path / step["with"]["path"] / "index.html").is_file()
    assert ran == ["validate", "translations", "build"]
    assert "| tiny | es |" in summary.read_text(encoding="utf-8")
    assert (tmp_path / "site" / "en" / "tiny" / "reference.pdf").is_file()


def test_validate_for_github_annotates_the_line_at_fault(tmp_path):
    shutil.copytree(FIXTURES / "good", tmp_path / "content")
    game = tmp_path / "content" / "tiny" / "game.yaml"
    game.write_text(game.read_text(encoding="utf-8").replace("per_colour: 2", "per_colour: 3"), encoding="utf-8")
    validate = next(s["run"] for s in _workflow()["jobs"]["rules"]["steps"] if s.get("name") == "Validate")
    r = _run(validate, tmp_path, dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 1 and "::error file=content/tiny/game.yaml,line=25" in r.stdout


def test_the_pre_commit_hooks_run_and_watch_the_content(tmp_path):
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    shutil.copytree(FIXTURES / "good", tmp_path / "content")
    game = tmp_path / "content" / "tiny" / "game.yaml"
    for hook in hooks:
        assert hook["language"] == "python" and hook["pass_filenames"] is False
        watched = re.compile(hook["files"])
        assert watched.search("content/ulm/game.yaml") and watched.search("content/ulm/translations.lock")
        assert not watched.search("docs/ci.md")
        r = _run(hook["entry"], tmp_path, dict(os.environ, PYTHONPATH=str(ROOT)))
        assert r.returncode == 0, (hook["id"], r.stderr)
    # a changed source: the first hook lets it pass with a warning, the second stops the commit
    game.write_text(game.read_text(encoding="utf-8").replace("zh-TW: 安娜支付錢幣。", "zh-TW: 安娜馬上支付錢幣。"),
                    encoding="utf-8")
    codes = [_run(h["entry"], tmp_path, dict(os.environ, PYTHONPATH=str(ROOT))).returncode for h in hooks]
    assert codes == [0, 1]
