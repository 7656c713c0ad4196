"""Player aids: what each sheet of reference.pdf holds, resolved from the game's data.

A game's `aids:` (content/<game>/aids.yaml) lists sheets, each for some modes, whose sections
name items, rules sections and scoring tables by id and key numbers by `item.value`; nothing is
restated. Without `aids:`, each mode gets a default sheet (round, actions, scoring and every
scoring table). `resolve` turns either into `Sheet`s for the PDF and lists what is wrong with
them for `check.aids`: an id that names nothing, a line for none of the sheet's modes, a mode
with no sheet, a scoring table left off a sheet or pointed to but not there.

Labels are not written by hand: a line whose item is limited to some of the sheet's modes is
printed with those modes' names, so a sheet for several modes cannot state one mode's rule as
everyone's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .model import Game, Item, ScoreTable, Section
from .text import pointers


def _(message: str) -> str:
    """Marks an interface string for extraction; it is translated where it is shown."""
    return message


@dataclass
class Line:
    """One line of a sheet: an item, a scoring table or a key number."""

    item: Item | None = None
    uses: list = field(default_factory=list)  # a card's uses, printed instead of its text
    table: ScoreTable | None = None
    number: tuple[dict, int] | None = None  # (label text, value)
    only: list[str] = field(default_factory=list)  # the modes this line is limited to, when the sheet has more


@dataclass
class Block:
    title: dict | None  # a localized text, or None with `ui` set
    lines: list[Line]
    numbered: bool = False
    ui: str = ""  # an interface string for the title when the data gives none


@dataclass
class Sheet:
    id: str
    modes: list[str]
    blocks: list[Block]


@dataclass(frozen=True)
class Problem:
    code: str
    message: str
    path: tuple
    hint: str = ""


def items_by_id(game: Game) -> dict[str, Item]:
    """Every item that has an id and may hold rules text, by id."""
    out: dict[str, Item] = {}
    groups = [game.setup, game.rounds.start, game.rounds.turn, game.rounds.end, game.actions,
              game.scoring.during, game.scoring.final, game.scoring.tie_breaks]
    groups += [s.items for s in game.rules] + [g.cards for g in game.cards]
    for group in groups:
        for item in group:
            out.setdefault(item.id, item)
    return out


def _applies(item: Item | ScoreTable, modes: list[str]) -> bool:
    return not item.modes or bool(set(item.modes) & set(modes))


def _only(item: Item | ScoreTable, modes: list[str]) -> list[str]:
    if not item.modes or set(modes) <= set(item.modes):
        return []
    return [m for m in item.modes if m in modes]


def default_aids(game: Game) -> list[Sheet]:
    """One sheet per mode: the round (start, steps, end), the actions, the scoring and its tables."""
    sheets = []
    for mode in game.modes:
        modes = [mode.id]

        def lines(items):
            return [Line(item=i) for i in items if _applies(i, modes)]

        blocks = [Block(None, lines(game.rounds.start), ui=_("Start of a round")),
                  Block(None, lines(game.rounds.turn), numbered=game.rounds.steps == "turn",
                        ui=_("A player's turn") if game.rounds.steps == "turn" else _("The phases of a round")),
                  Block(None, lines(game.actions), ui=_("Actions")),
                  Block(None, lines(game.scoring.during + game.scoring.final), ui=_("Scoring")),
                  Block(None, [Line(table=t) for t in game.scoring.tables if _applies(t, modes)], ui=_("Scoring tables")),
                  Block(None, lines(game.rounds.end), ui=_("End of the game")),
                  Block(None, lines(game.scoring.tie_breaks), numbered=len(game.scoring.tie_breaks) > 1,
                        ui=_("Tie-breaks"))]
        sheets.append(Sheet(f"aid-{mode.id}", modes, [b for b in blocks if b.lines]))
    return sheets


def resolve(game: Game) -> tuple[list[Sheet], list[Problem]]:
    """The sheets of the game's player aid and the problems of its `aids:` data."""
    if not game.aids:
        return default_aids(game), []
    items = items_by_id(game)
    sections: dict[str, Section] = {s.id: s for s in game.rules}
    tables: dict[str, ScoreTable] = {t.id: t for t in game.scoring.tables}
    groups = {g.id: g for g in game.cards}
    uses = {u.id: (c, u) for g in game.cards for c in g.cards for u in c.uses}
    problems: list[Problem] = []
    sheets = []
    for ai, aid in enumerate(game.aids):
        base = ("aids", ai)
        blocks = []
        shown_tables: set[str] = set()
        pointed: list[tuple[str, tuple]] = []  # (table id, where the pointing line is named)
        for si, sec in enumerate(aid.sections):
            lines: list[Line] = []
            title = sec.title
            for ri, ref in enumerate(sec.show):
                where = base + ("sections", si, "show", ri)
                if ref in items:
                    item = items[ref]
                    if not _applies(item, aid.modes):
                        problems.append(Problem("RB701", f"'{ref}' is only for {', '.join(item.modes or [])}, "
                                                f"not for this sheet's {', '.join(aid.modes)}", where,
                                                "remove it, or make a sheet for its mode"))
                        continue
                    lines.append(Line(item=item, only=_only(item, aid.modes)))
                    pointed += [(t, where) for t in _tables_named(item, tables)]
                    title = title or item.name
                elif ref in sections:
                    section = sections[ref]
                    lines += [Line(item=i, only=_only(i, aid.modes)) for i in section.items
                              if _applies(i, aid.modes) and i.text]
                    for i in section.items:
                        if _applies(i, aid.modes):
                            pointed += [(t, where) for t in _tables_named(i, tables)]
                    title = title or section.title
                elif ref in groups:
                    group = groups[ref]
                    lines += [Line(item=c, uses=list(c.uses), only=_only(c, aid.modes)) for c in group.cards
                              if _applies(c, aid.modes)]
                    title = title or group.title
                elif ref in uses:
                    card, use = uses[ref]
                    lines.append(Line(item=card, uses=[use], only=_only(card, aid.modes)))
                    title = title or use.label
                elif ref in tables:
                    if not _applies(tables[ref], aid.modes):
                        problems.append(Problem("RB701", f"table '{ref}' is only for {', '.join(tables[ref].modes or [])}, "
                                                f"not for this sheet's {', '.join(aid.modes)}", where,
                                                "remove it, or make a sheet for its mode"))
                        continue
                    lines.append(Line(table=tables[ref], only=_only(tables[ref], aid.modes)))
                    shown_tables.add(ref)
                    title = title or tables[ref].name
                else:
                    known = sorted(items) + sorted(sections) + sorted(tables) + sorted(groups) + sorted(uses)
                    problems.append(Problem("RB201", f"aid '{aid.id}' shows '{ref}', which is no item, rules "
                                            "section, card group, card use or scoring table", where, _close(ref, known)))
            blocks.append(Block(title, lines, sec.numbered, ui="" if title else "Rules"))
        numbers = []
        for ni, num in enumerate(aid.numbers):
            where = base + ("numbers", ni, "value")
            item_id, _dot, name = num.value.partition(".")
            item = items.get(item_id)
            if item is None:
                problems.append(Problem("RB201", f"key number '{num.value}' names no item '{item_id}'", where,
                                        _close(item_id, sorted(items))))
            elif name not in item.values:
                problems.append(Problem("RB201", f"item '{item_id}' has no value '{name}'", where,
                                        _close(name, sorted(item.values)) if item.values else "it has no values:"))
            elif not _applies(item, aid.modes):
                problems.append(Problem("RB701", f"'{item_id}' is only for {', '.join(item.modes or [])}, "
                                        f"not for this sheet's {', '.join(aid.modes)}", where,
                                        "remove it, or make a sheet for its mode"))
            else:
                numbers.append(Line(number=(num.label, item.values[name]), only=_only(item, aid.modes)))
        if numbers:
            blocks.append(Block(None, numbers, ui=_("Key numbers")))
        for table in game.scoring.tables:
            if table.id not in shown_tables and _applies(table, aid.modes):
                problems.append(Problem("RB700", f"aid '{aid.id}' leaves out the scoring table '{table.id}'",
                                        base + ("sections",), f"add {table.id} to a section's show: list"))
        for table_id, where in pointed:
            if table_id not in shown_tables:
                problems.append(Problem("RB700", f"a line of aid '{aid.id}' points to the scoring table "
                                        f"'{table_id}', which the sheet does not show", where,
                                        f"add {table_id} to the sheet"))
        sheets.append(Sheet(aid.id, list(aid.modes), blocks))
    covered = {m for aid in game.aids for m in aid.modes}
    for mode in game.modes:
        if mode.id not in covered:
            problems.append(Problem("RB702", f"mode '{mode.id}' has no player-aid sheet", ("aids",),
                                    f"add a sheet with modes: [{mode.id}], or add {mode.id} to a sheet's modes"))
    return sheets, problems


def _tables_named(item: Item, tables) -> list[str]:
    """The scoring tables an item's text points to (in any language), once each."""
    found = {t for text in (item.text or {}).values() for t in pointers(text) if t in tables}
    return sorted(found)


def _close(name: str, options: list[str]) -> str:
    import difflib
    close = difflib.get_close_matches(name, options, n=1, cutoff=0.5)
    if close:
        return f"did you mean '{close[0]}'?"
    return f"known: {', '.join(options[:12])}{', …' if len(options) > 12 else ''}" if options else "none are defined"
