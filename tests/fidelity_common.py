"""What the per-game fidelity tests share: every text-bearing item of a game, found by id."""

from conftest import ROOT
from generator.project import read_project


def load(game_id: str):
    project, _diags = read_project(ROOT / "content", [game_id])
    return project.games[game_id].model


def items(game):
    """Setup steps, round parts, actions, scoring items, rule items and cards, in page order."""
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
