"""One English spelling throughout: British (colour, centre, grey, neighbour, defence, favour). A US
form in an English text is a warning, so a page never says colour in one place and color in the
next."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, Severity
from ..project import GameDoc, Project
from ..text import POINTER, _trie
from .pointers import game_texts

US = {"color": "colour", "colors": "colours", "colored": "coloured", "colorful": "colourful",
      "center": "centre", "centers": "centres", "gray": "grey", "neighbor": "neighbour",
      "neighbors": "neighbours", "neighboring": "neighbouring", "defense": "defence",
      "behavior": "behaviour", "armor": "armour", "honor": "honour", "harbor": "harbour", "favor": "favour",
      "favors": "favours"}
_WORD = re.compile(r"\b(" + "|".join(US) + r")\b", re.IGNORECASE)
# any of them inside a word, in lower case: in an ASCII text (almost every English one) finding
# none means _WORD finds none, four times faster than its case-blind search from word boundaries
_ANY_US = re.compile(_trie(US))


def _us_word(s: str):
    if s.isascii() and not _ANY_US.search(s.lower()):
        return None
    return _WORD.search(s)


# Remarks about the sources (which copy or review says what) inside a rule's text.
SOURCE_NOTE = {
    "en": re.compile(r"\b(?:the )?(?:sources?|reviews?|rules copy|rules summary|Wikipedia)\b", re.IGNORECASE),
    "es": re.compile(r"\b(?:fuentes?|reseñas?|copia (?:inglesa )?de las reglas|resumen (?:chino|inglés)|Wikipedia)\b", re.IGNORECASE),
    "zh": re.compile(r"來源|評論|規則副本|規則簡介|Wikipedia"),
}


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    diags = []
    for path, text, owners in game_texts(game):
        # an item that names its gap may say, in passing, that the sources leave it out or
        # disagree: the gap itself is given once, in full, under "Sources and gaps"
        named_gap = bool(owners) and isinstance(owners[-1], dict) and bool(owners[-1].get("gap"))
        if path and path[0] not in ("gaps", "sources", "modes") and path[-1] == "text" and not named_gap:
            for lang, s in text.items():
                note = SOURCE_NOTE.get(lang.split("-")[0].lower())
                m = note.search(s) if note else None
                if m:
                    diags.append(Diagnostic("RB731", f"the {lang} rule text talks about its sources ('{m.group(0)}')",
                                            hint="say what the sources leave out or disagree on in a gap (gaps:, named by "
                                            "gap:), and cite the source with source:; the rule states only the rule",
                                            severity=Severity.WARNING, **game.where(path + (lang,))))
                    break
        for lang, s in text.items():
            if lang.split("-")[0].lower() != "en":
                continue
            m = _us_word(POINTER.sub(lambda p: p.group(1), s) if "](#" in s else s)
            if m:
                diags.append(Diagnostic("RB730", f"US spelling '{m.group(0)}' in the {lang} text",
                                        hint=f"the pages spell English the British way: '{US[m.group(0).lower()]}'",
                                        severity=Severity.WARNING, **game.where(path + (lang,))))
    return diags
