"""One English spelling throughout: British (colour, centre, grey, neighbour, defence, favour). A US
form in an English text is a warning, so a page never says colour in one place and color in the
next."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, Severity
from ..project import GameDoc, Project
from ..text import POINTER
from .pointers import game_texts
from .scan import Search, first_by_language, folded

US = {"color": "colour", "colors": "colours", "colored": "coloured", "colorful": "colourful",
      "center": "centre", "centers": "centres", "gray": "grey", "neighbor": "neighbour",
      "neighbors": "neighbours", "neighboring": "neighbouring", "defense": "defence",
      "behavior": "behaviour", "armor": "armour", "honor": "honour", "harbor": "harbour", "favor": "favour",
      "favors": "favours"}
_WORD = re.compile(r"\b(" + "|".join(US) + r")\b", re.IGNORECASE)
US_WORD = Search(_WORD, US)

# Remarks about the sources (which copy or review says what) inside a rule's text. (Keywords: scan.py.)
SOURCE_NOTE = {
    "en": Search(re.compile(r"\b(?:the )?(?:sources?|reviews?|rules copy|rules summary|Wikipedia)\b", re.IGNORECASE),
                 {"source", "review", "rules copy", "rules summary", "wikipedia"}),
    "es": Search(re.compile(r"\b(?:fuentes?|reseñas?|copia (?:inglesa )?de las reglas|resumen (?:chino|inglés)|Wikipedia)\b",
                            re.IGNORECASE),
                 {"fuente", "reseña", "copia ", "resumen ", "wikipedia"}),
    "zh": re.compile(r"來源|評論|規則副本|規則簡介|Wikipedia"),
}


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    diags = []
    texts = game_texts(game)
    rules, english = [], []
    for n, (path, text, owners) in enumerate(texts):
        # an item that names its gap may say, in passing, that the sources leave it out or
        # disagree: the gap itself is given once, in full, under "Sources and gaps"
        named_gap = bool(owners) and isinstance(owners[-1], dict) and bool(owners[-1].get("gap"))
        if path and path[0] not in ("gaps", "sources", "modes") and path[-1] == "text" and not named_gap:
            rules += [(n, lang, s) for lang, s in text.items()]
        english += [(n, lang, POINTER.sub(lambda p: p.group(1), s) if "](#" in s else s)
                    for lang, s in text.items() if lang.split("-")[0].lower() == "en"]
    notes = first_by_language(SOURCE_NOTE, rules)  # each search over every text at once (scan.py)
    us = first_by_language({"en": US_WORD}, english)
    for n, (path, text, _owners) in enumerate(texts):
        for lang in text:
            found = notes.get((n, lang))
            if found:
                diags.append(Diagnostic("RB731", f"the {lang} rule text talks about its sources ('{found}')",
                                        hint="say what the sources leave out or disagree on in a gap (gaps:, named by "
                                        "gap:), and cite the source with source:; the rule states only the rule",
                                        severity=Severity.WARNING, **game.where(path + (lang,))))
                break
        for lang in text:
            found = us.get((n, lang))
            if found:
                diags.append(Diagnostic("RB730", f"US spelling '{found}' in the {lang} text",
                                        hint=f"the pages spell English the British way: '{US[folded(found)]}'",
                                        severity=Severity.WARNING, **game.where(path + (lang,))))
    return diags
