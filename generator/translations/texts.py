"""The translatable texts of a game, each under a stable key made from ids.

A text's *context* is its path in the game's data with every list position replaced by the id
of the item at that position (`setup.place-cathedral.text`, `cards.trade.cards.fustian.uses.sell.label`),
so reordering items, or moving them between a game's files, keeps every translation attached.
Only lists whose entries have no id (an item's `examples`) fall back to the position.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..check.texts import _STEP_FIELDS, texts_of
from ..quantities import named_values
from ..project import GameDoc, Project



@dataclass(frozen=True)
class Entry:
    """One localized text of a game."""

    context: str
    path: tuple  # in the game's merged data; the last part is the text's key (`text`, `name` …)
    text: dict  # language tag -> text, as written
    owners: tuple  # the items (raw mappings) around the text, outermost first

    def values(self) -> dict[str, int]:
        """The values its {placeholders} can name: those of every enclosing item, the innermost winning."""
        out: dict[str, int] = {}
        for owner in self.owners:
            for name in _STEP_FIELDS:
                v = owner.get(name)
                if isinstance(v, int) and not isinstance(v, bool):
                    out[name] = v
            out.update(named_values(owner))
        return out


def source_language(game: GameDoc, project: Project) -> str:
    """The language the game's texts are written in first (`source_language`, else the site's default)."""
    return game.model.source_language or project.site.default_language


def context_of(raw: dict, path: tuple) -> str:
    parts = []
    node = raw
    for p in path:
        child = node[p]
        if isinstance(p, int):
            ident = child.get("id") if isinstance(child, dict) else None
            parts.append(ident if isinstance(ident, str) and ident else str(p))
        else:
            parts.append(str(p))
        node = child
    return ".".join(parts)


def entries(game: GameDoc) -> list[Entry]:
    """Every localized text of the game in document order; a context met twice (two items that
    share an id, which validate reports as RB200) keeps its first text only."""
    out, seen = [], set()
    for path, text, owners in texts_of(game.raw):
        context = context_of(game.raw, path)
        if context in seen:
            continue
        seen.add(context)
        out.append(Entry(context, path, text, owners))
    return out


def message(s: str) -> str:
    """A text as translators see it: without the line break a YAML block scalar ends with."""
    return s.rstrip("\n")


def same_text(a: str, b: str) -> bool:
    """Whether two versions of a text read alike: line breaks and runs of spaces count as one space
    (as on the page), so re-wrapping a text does not make its translations stale."""
    return a.split() == b.split()


def digest(s: str) -> str:
    """The version of a source text that a translation records (16 hex digits of its SHA-256)."""
    return hashlib.sha256(" ".join(s.split()).encode("utf-8")).hexdigest()[:16]


def words(s: str) -> int:
    """Words of a text, for the status report: Latin words, and each Han or kana character."""
    n = 0
    in_word = False
    for ch in s:
        if "\u2e80" <= ch <= "\u9fff" or "\uf900" <= ch <= "\ufaff":
            n += 1
            in_word = False
        elif ch.isalnum():
            if not in_word:
                n += 1
            in_word = True
        else:
            in_word = False
    return n
