"""Text that points elsewhere ([words](#id)) names something the pages show, the same in every
language; and every rules item names its source."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, Severity
from ..links import targets
from ..project import GameDoc, Project
from ..text import POINTER, pointers
from .refs import _hint
from .scan import Search, first_by_language
from .texts import texts_of


# Words that send the reader elsewhere, outside a [pointer](#id): "(see Actions)", "see the table
# below", "(ver Acciones)", "más abajo", 「（見行動）」, 「見下方」. (Keywords: scan.py.)
UNLINKED = {
    "en": Search(re.compile(r"\((?:see|see also) [^)]*\)|\bsee the [^.;:]* (?:below|above)\b", re.IGNORECASE),
                 {"(see ", "see the "}),
    "es": Search(re.compile(r"\((?:ver|véase) [^)]*\)|\bmás (?:abajo|arriba)\b", re.IGNORECASE),
                 {"(ver ", "(véase ", "más abajo", "más arriba"}),
    "zh": re.compile(r"[（(]詳?見[^）)]*[）)]|見(?:下方|上方|下文|上文|下表|上表)"),
}


def game_texts(game: GameDoc) -> list:
    """Every text of the game, walked once for all the checks that read every text (texts,
    translations, pointers, style)."""
    return texts_of(game.raw)


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    known = targets(game.model)
    diags: list[Diagnostic] = []
    texts = game_texts(game)
    # the words outside pointers, searched in every text at once (scan.py)
    unlinked = first_by_language(UNLINKED, [(n, lang, POINTER.sub("", s) if "](#" in s else s)
                                            for n, (_path, text, _owner) in enumerate(texts) for lang, s in text.items()])
    for n, (path, text, _owner) in enumerate(texts):
        pointing = any("](#" in s for s in text.values())  # a pointer needs it: most texts have none
        sets = {}
        for lang, s in text.items():
            if pointing:
                found = pointers(s) if "](#" in s else []
                sets[lang] = sorted(set(found))
                for ident in found:
                    if ident not in known:
                        diags.append(Diagnostic("RB710", f"the {lang} text points to '#{ident}', which no page shows",
                                                hint=_hint(ident, known), **game.where(path + (lang,))))
            words = unlinked.get((n, lang))
            if words:
                diags.append(Diagnostic("RB712", f"the {lang} text points elsewhere without a link: '{words}'",
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
