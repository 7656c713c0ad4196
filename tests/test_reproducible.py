"""Two clean builds of the same content are byte-identical, PDFs included (docs/builds.md)."""

import shutil
import subprocess
import time
from pathlib import Path

from conftest import FIXTURES

from generator.build import FALLBACK_EPOCH, build_site, source_date_epoch
from generator.cli import validate


def _files(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_two_clean_builds_are_byte_identical(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    content = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", content)
    with (content / "tiny/game.yaml").open("a", encoding="utf-8") as f:
        f.write("print: {card: {width_mm: 63, height_mm: 88}}\n")
    project, diags = validate(content, None)
    assert [d for d in diags if d.severity.value == "error"] == []
    first, second = tmp_path / "one" / "site", tmp_path / "two" / "site"
    assert build_site(project, first) == []
    time.sleep(1.1)  # Chromium stamps the clock in seconds: a second later, the same bytes anyway
    assert build_site(project, second) == []
    one, two = _files(first), _files(second)
    assert any(name.endswith("cards.pdf") for name in one)
    assert sorted(one) == sorted(two)
    assert [name for name in one if one[name] != two[name]] == []
    from pypdf import PdfReader
    meta = PdfReader(first / "en/tiny/cards.pdf").metadata
    assert meta["/CreationDate"] == meta["/ModDate"] == "D:20000101000000Z"  # no git checkout: the fallback
    fonts = subprocess.run(["pdffonts", str(first / "en/tiny/cards.pdf")], capture_output=True, text=True,
                           check=True).stdout.splitlines()[2:]
    assert fonts and all(" yes yes " in line for line in fonts)  # still embedded, as subsets


def test_the_build_date_comes_from_source_date_epoch_then_git_then_a_fixed_date(tmp_path, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert source_date_epoch(tmp_path) == 1700000000
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert source_date_epoch(tmp_path) == FALLBACK_EPOCH
    repo = tmp_path / "repo"
    (repo / "content").mkdir(parents=True)
    (repo / "content" / "site.yaml").write_text("x: 1\n")
    env = {"GIT_AUTHOR_DATE": "@1600000000 +0000", "GIT_COMMITTER_DATE": "@1600000000 +0000",
           "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org", "PATH": "/usr/bin:/bin"}
    for cmd in (["git", "init", "-q"], ["git", "add", "."], ["git", "commit", "-q", "-m", "c"]):
        subprocess.run(cmd, cwd=repo, env=env, check=True)
    assert source_date_epoch(repo / "content") == 1600000000
