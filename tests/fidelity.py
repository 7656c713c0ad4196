"""Shared by the fidelity tests: one shipped game loaded without simulation, and its generated
MyST pages in every language reduced to the words a reader sees."""

import re
from pathlib import Path

from conftest import ROOT
from generator.cli import validate
from generator.render import render_language
from generator.text import fill

LANGS = ("zh-TW", "es", "en")
# the seeds lie in shared/ beside the checkout (CI lays a copy there too)
SEED = next((p for p in (ROOT.parent / "shared" / "seeds", Path("/work/shared/seeds")) if p.is_dir()),
            ROOT.parent / "shared" / "seeds")


def load(game_id: str):
    project, diags = validate(ROOT / "content", [game_id], simulation=False)
    assert [d for d in diags if d.severity.value == "error"] == []
    return project


def game_fixtures(game_id: str, name: str):
    """Module-scoped fixtures `project`, `<name>` (the game's model) and `page` (its pages)."""
    import pytest

    @pytest.fixture(scope="module", name="project")
    def project_():
        return load(game_id)

    @pytest.fixture(scope="module", name=name)
    def model_(project):
        return project.games[game_id].model

    @pytest.fixture(scope="module", name="page")
    def page_(project, tmp_path_factory):
        return pages(project, game_id, tmp_path_factory.mktemp(name))

    return project_, model_, page_


def pages(project, game_id: str, out: Path) -> dict[tuple[str, str], str]:
    """(language, page) -> the page's text: links reduced to their words, escapes removed."""
    texts = {}
    for tag in LANGS:
        render_language(project, tag, out / tag, only={game_id})
        for page in (out / tag / game_id).glob("*.md"):
            texts[(tag, page.stem)] = plain(page.read_text(encoding="utf-8"))
    return texts


def plain(myst: str) -> str:
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", myst)  # [words](#label) -> words
    return re.sub(r"\\(.)", r"\1", text)


def values(game, item) -> dict:
    """An item's values as the pages show them: an entry that names other data computed."""
    from generator.quantities import Scope, numbers_of
    scope = Scope(numbers_of(game), (item,))
    return {name: scope.name(name) for name in item.values or {}}


def said(item, tag: str, game=None) -> str:
    """An item's text in one language, its placeholders filled from its values (computed, given
    the game)."""
    return fill(item.text[tag], values(game, item) if game is not None else dict(item.values or {}))


def seed_line(name: str, number: int) -> str:
    """One line of a seed file, when the seeds are on this machine (else the test is skipped)."""
    import pytest
    files = sorted(SEED.glob(f"{name}_*.txt"))
    if not files:
        pytest.skip("the seed documents are not on this machine")
    return files[0].read_text(encoding="utf-8").splitlines()[number - 1]


def credits_as_the_seed_states(game, seed: str, artist_line: int, url_line: int, page=None) -> None:
    """The game's artist is the seed's 「美術設計：…」 line (names the seed lists with 、 are one string,
    with commas, as designer and publisher are) and its one link is the seed's 「BGG頁面：…」 address,
    with the seed as its source; the rulebook's credits line shows the artist in every language."""
    artist = seed_line(seed, artist_line).removeprefix("美術設計：")
    assert artist != seed_line(seed, artist_line)
    assert game.artist == artist.replace("、", ", ")
    url = seed_line(seed, url_line).removeprefix("BGG頁面：")
    [bgg] = game.links
    assert (bgg.url, bgg.source) == (url, f"seed-{seed}")
    assert all("BoardGameGeek" in bgg.title[lang] for lang in LANGS)
    for lang in LANGS if page is not None else ():  # names are not translated: Latin letters on zh pages too
        credits = page[(lang, "index")].split("{.rb-meta}\n", 1)[1].split("\n", 1)[0]
        assert game.artist in credits


def english_text(game) -> str:
    """Every English string of the game's data, one per line."""
    out = []

    def walk(x):
        if isinstance(x, dict):
            en = x.get("en")
            if isinstance(en, str):
                out.append(en)
            elif isinstance(en, list):
                out.extend(en)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)

    walk(game.model_dump())
    return "\n".join(out)


def items(game):
    """Every text-bearing item of a game in page order: setup steps, round parts, actions,
    scoring items, rule items and cards."""
    yield from game.setup
    yield from game.rounds.start + game.rounds.turn + game.rounds.end
    yield from game.actions
    yield from game.scoring.during + game.scoring.final + game.scoring.tie_breaks
    for section in game.rules:
        yield from section.items
    for group in game.cards:
        yield from group.cards


def item(game, iid: str):
    return next(i for i in items(game) if i.id == iid)


def term(game, tid: str):
    return next(t for t in game.glossary if t.id == tid)
