"""Text that points elsewhere ([words](#id)) names something the pages show, the same in every
language; and every rules item names its source."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, Severity
from ..links import targets
from ..project import GameDoc, Project
from ..text import POINTER, pointers
from .refs import _hint
from .texts import texts_of


# Words that send the reader elsewhere, outside a [pointer](#id): "(see Actions)", "see the table
# below", "(ver Acciones)", "más abajo", 「（見行動）」, 「見下方」.
UNLINKED = {
    "en": re.compile(r"\((?:see|see also) [^)]*\)|\bsee the [^.;:]* (?:below|above)\b", re.IGNORECASE),
    "es": re.compile(r"\((?:ver|véase) [^)]*\)|\bmás (?:abajo|arriba)\b", re.IGNORECASE),
    "zh": re.compile(r"[（(]詳?見[^）)]*[）)]|見(?:下方|上方|下文|上文|下表|上表)"),
}


_UNLINKED_EN = UNLINKED["en"]


def game_texts(game: GameDoc) -> list:
    """Every text of the game, walked once for all the checks that read every text (texts,
    translations, pointers, style)."""
    return texts_of(game.raw)


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    known = targets(game.model)
    diags: list[Diagnostic] = []
    for path, text, _owner in game_texts(game):
        sets = {}
        for lang, s in text.items():
            pointing = "](#" in s  # a pointer needs it: most texts have none, and are read once below
            found = pointers(s) if pointing else []
            sets[lang] = sorted(set(found))
            for ident in found:
                if ident not in known:
                    diags.append(Diagnostic("RB710", f"the {lang} text points to '#{ident}', which no page shows",
                                            hint=_hint(ident, known), **game.where(path + (lang,))))
            unlinked = UNLINKED.get(lang.split("-")[0].lower())
            bare = POINTER.sub("", s) if pointing else s
            # in English every form holds "see": an ASCII text without it needs no case-blind search
            skip = unlinked is None or (unlinked is _UNLINKED_EN and bare.isascii() and "see" not in bare.lower())
            m = None if skip else unlinked.search(bare)
            if m:
                diags.append(Diagnostic("RB712", f"the {lang} text points elsewhere without a link: '{m.group(0)}'",
                                        hint="write it as [words](#id), so the page links it and the build checks it",
                                        severity=Severity.WARNING, **game.where(path + (lang,))))
        langs = list(sets)
        for lang in langs[1:]:
            if sets[lang] != sets[langs[0]]:
                diags.append(Diagnostic("RB711", f"the {lang} text points to {_ids(sets[lang])} but the {langs[0]} "
                                        f"text to {_ids(sets[langs[0]])}", hint="every language points to the same places",
                                        **game.where(path + (lang,))))
    diags += _unsourced(game)
    return diags


def _unsourced(game: GameDoc) -> list[Diagnostic]:
    """A rules item (with text) that names no source, in a game with several sources: the pages
    could not say where it is from. (With one source, everything comes from it.)"""
    g = game.model
    if len(g.sources) < 2:
        return []
    groups = [("setup",), ("rounds", "start"), ("rounds", "turn"), ("rounds", "end"), ("actions",),
              ("scoring", "during"), ("scoring", "final"), ("scoring", "tie_breaks")]
    found = []
    for path in groups:
        node = g
        for key in path:
            node = getattr(node, key)
        found += [(path + (i,), item) for i, item in enumerate(node)]
    for si, section in enumerate(g.rules):
        found += [(("rules", si, "items", i), item) for i, item in enumerate(section.items)]
    for gi, group in enumerate(g.cards):
        found += [(("cards", gi, "cards", i), card) for i, card in enumerate(group.cards)]
    return [Diagnostic("RB720", f"'{item.id}' states rules but names no source",
                       hint="add source: <id of one of the game's sources>", **game.where(path + ("id",)))
            for path, item in found if item.text and not item.source]


def _ids(ids) -> str:
    return ", ".join(f"#{i}" for i in ids) if ids else "nothing"
