"""One English spelling throughout: British (colour, centre, grey, neighbour, defence). A US
form in an English text is a warning, so a page never says colour in one place and color in the
next. Names printed on a game stay as printed (Castles' "King's Favors" is not listed here)."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic, Severity
from ..project import GameDoc, Project
from ..text import POINTER
from .texts import texts_in

US = {"color": "colour", "colors": "colours", "colored": "coloured", "colorful": "colourful",
      "center": "centre", "centers": "centres", "gray": "grey", "neighbor": "neighbour",
      "neighbors": "neighbours", "neighboring": "neighbouring", "defense": "defence",
      "behavior": "behaviour", "armor": "armour", "honor": "honour", "harbor": "harbour"}
_WORD = re.compile(r"\b(" + "|".join(US) + r")\b", re.IGNORECASE)


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    diags = []
    for path, text, _owner in texts_in(game.raw):
        for lang, s in text.items():
            if lang.split("-")[0].lower() != "en":
                continue
            m = _WORD.search(POINTER.sub(lambda p: p.group(1), s))
            if m:
                diags.append(Diagnostic("RB730", f"US spelling '{m.group(0)}' in the {lang} text",
                                        hint=f"the pages spell English the British way: '{US[m.group(0).lower()]}'",
                                        severity=Severity.WARNING, **game.where(path + (lang,))))
    return diags
