import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = Path(__file__).resolve().parent / "fixtures"
# Debian's chromium, as the browser tests launch it (Playwright's own browser download is not used)
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
sys.path.insert(0, str(ROOT))


@pytest.fixture
def good_content(tmp_path) -> Path:
    """A copy of the small valid content folder, for tests that break one thing in it."""
    dst = tmp_path / "content"
    shutil.copytree(FIXTURES / "good", dst)
    return dst


def one_game_content(tmp_path: Path, game_id: str) -> Path:
    """A copy of the shipped content holding one game only: mutation tests break a number in it."""
    dst = tmp_path / "content"
    dst.mkdir()
    site = (ROOT / "content" / "site.yaml").read_text(encoding="utf-8")
    (dst / "site.yaml").write_text("\n".join(line for line in site.splitlines() if not line.startswith("games:")) + "\n",
                                   encoding="utf-8")
    shutil.copytree(ROOT / "content" / game_id, dst / game_id)
    return dst


def line_of(path: Path, text: str) -> int:
    """The 1-based number of the line that is exactly `text`."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line == text)


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def mark_current(content: Path) -> None:
    """Record every translation of `content` as current, as an author who changed a text in every
    language does (`rulebook translations mark-current`): the edit is not a stale translation."""
    from generator.project import read_project
    from generator.translations.state import mark_current as mark
    project, _ = read_project(content)
    for game in project.games.values():
        mark(game, project)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory) -> Path:
    """The shipped content/ built once for the whole test session."""
    from generator.build import build_site
    from generator.cli import validate
    project, diags = validate(ROOT / "content", None)
    assert [d for d in diags if d.severity.value == "error"] == [], diags
    out = tmp_path_factory.mktemp("built") / "site"
    assert build_site(project, out) == []
    return out


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's chromium is missing: `make test` installs it")
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()
