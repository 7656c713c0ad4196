"""Where every id of a game is shown, so that text can point to it: `[see the actions](#actions)`.

A pointer names an id of the game (an item, a rules section, a scoring table, a card group or
card, a component, a glossary term, a gap, a source, a mode) or one of the page parts below.
`check.pointers` reports a pointer that names nothing; the renderer turns each into a link
with its anchor, the PDFs print its words.
"""

from __future__ import annotations

from dataclasses import dataclass

from .model import Game


def _(message: str) -> str:
    """Marks an interface string for extraction; it is translated where it is shown."""
    return message

# Parts of the pages a pointer can name without an id: (page, anchor suffix, interface title).
PAGE_PARTS = {
    "rulebook": ("index", "rulebook", _("Rulebook")),
    "modes": ("index", "modes", _("Game modes")),
    "setup": ("index", "setup", _("Setup")),
    "round": ("index", "round", _("Playing a round")),
    "actions": ("index", "actions", _("Actions")),
    "scoring": ("index", "scoring", _("Scoring")),
    "sources": ("index", "sources", _("Sources and gaps")),
    "cards": ("cards", "cards", _("Card reference")),
    "components": ("components", "components", _("Components")),
    "glossary": ("glossary", "glossary", _("Glossary")),
}


@dataclass(frozen=True)
class Target:
    page: str  # index, cards, components or glossary
    label: str  # the Sphinx label of its anchor
    title: dict | None  # its name or title per language (None: an interface title, `ui`)
    ui: str = ""


def targets(game: Game) -> dict[str, Target]:
    """Every id a pointer may name in this game, with its page, anchor label and title."""
    g = game.id
    out: dict[str, Target] = {}

    def add(ident, page, title, label=None):
        out.setdefault(ident, Target(page, label or f"{g}-{ident}", title))

    for item in game.setup + game.rounds.start + game.rounds.turn + game.rounds.end + game.actions:
        add(item.id, "index", item.name)
    for section in game.rules:
        add(section.id, "index", section.title)
        for item in section.items:
            add(item.id, "index", item.name)
    for item in game.scoring.during + game.scoring.final + game.scoring.tie_breaks:
        add(item.id, "index", item.name)
    for table in game.scoring.tables:
        add(table.id, "index", table.name)
    for gap in game.gaps:
        add(gap.id, "index", None)
    for source in game.sources:
        add(source.id, "index", None)
    for mode in game.modes:
        add(mode.id, "index", mode.name, f"{g}-modes")
    for group in game.cards:
        add(group.id, "cards", group.title)
        for card in group.cards:
            add(card.id, "cards", card.name)
    for comp in game.components:
        add(comp.id, "components", comp.name, f"{g}-in-the-box")
    for term in game.glossary:
        add(term.id, "glossary", term.term, f"{g}-term-{term.id}")
    for word, (page, suffix, ui) in PAGE_PARTS.items():
        out.setdefault(word, Target(page, f"{g}-{suffix}", None, ui))
    return out


__all__ = ["Target", "targets", "PAGE_PARTS"]
