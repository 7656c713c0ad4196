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
PSEUDO = "en-XA"  # the pseudo-localized language of `rulebook build --pseudo` (translations/pseudo.py)


def babel_locale(tag: str) -> str:
    """BCP 47 tag (zh-TW) to the spelling gettext catalogs and Sphinx use (zh_TW).

    Not Babel's own normal form: it adds the script (zh_Hant_TW), which Sphinx finds no
    catalog for. The tag must still be one Babel knows."""
    if tag == PSEUDO:  # `build --pseudo`: Sphinx and Babel see English
        return "en"
    Locale.parse(tag, sep="-")
    return tag.replace("-", "_")


def url_segment(tag: str) -> str:
    """BCP 47 tag to the lowercase URL folder (zh-TW -> zh-tw)."""
    return tag.lower()


@lru_cache(maxsize=None)
def catalog(tag: str) -> dict[str, str]:
    if tag == PSEUDO:
        from .translations.pseudo import catalog as pseudo_catalog
        return pseudo_catalog()
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


# Interface strings passed to the translator through a variable, which extraction cannot see.
EXTRA_MESSAGES = ["Rulebook", "Components", "Cards", "Glossary",
                  "Player aid (PDF, A4)", "Player aid (PDF, Letter)", "Card texts (PDF, A4)", "Card texts (PDF, Letter)"]


def extract() -> list[str]:
    """Every interface string: `_("…")` calls in the templates and the generator."""
    import re
    root = LOCALE_DIR.parent
    found = set(EXTRA_MESSAGES)
    files = list((root / "themes").rglob("*.j2")) + list((root / "themes").rglob("*.html")) + list(
        (root / "generator").rglob("*.py"))
    for f in files:
        if f.name == "i18n.py":
            continue
        found.update(re.findall(r'\b_\("((?:[^"\\]|\\.)+)"', f.read_text(encoding="utf-8")))
    return sorted(found)


def write_template(path: Path | None = None) -> Path:
    """Write locale/rulebook.pot from `extract()`; translators merge it into their .po files."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po
    cat = Catalog(project="rulebook", domain=DOMAIN, fuzzy=False)
    for msg in extract():
        cat.add(msg)
    path = path or LOCALE_DIR / f"{DOMAIN}.pot"
    with path.open("wb") as f:
        write_po(f, cat, omit_header=True, sort_output=True)
    return path


if __name__ == "__main__":
    print(write_template())
