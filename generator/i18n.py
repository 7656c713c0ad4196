"""Interface strings ("Setup", "Players" …) from the Babel catalogs in locale/.

Catalogs are read with Babel's PO reader, so translators edit plain .po files and nothing
needs compiling. English is the source language (msgid)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel import Locale
from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"
DOMAIN = "rulebook"


def babel_locale(tag: str) -> str:
    """BCP 47 tag (zh-TW) to the spelling Babel, gettext and Sphinx use (zh_TW)."""
    return str(Locale.parse(tag, sep="-"))


def url_segment(tag: str) -> str:
    """BCP 47 tag to the lowercase URL folder (zh-TW -> zh-tw)."""
    return tag.lower()


@lru_cache(maxsize=None)
def catalog(tag: str) -> dict[str, str]:
    path = LOCALE_DIR / babel_locale(tag) / "LC_MESSAGES" / f"{DOMAIN}.po"
    if not path.is_file():
        return {}
    with path.open("rb") as f:
        cat = read_po(f, locale=babel_locale(tag))
    return {m.id: m.string for m in cat if m.id and m.string and not m.fuzzy}


def translator(tag: str):
    table = catalog(tag)

    def gettext(message: str, **kw) -> str:
        s = table.get(message, message)
        return s.format(**kw) if kw else s

    return gettext
