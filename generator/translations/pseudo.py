"""Pseudo-localization: `rulebook build --pseudo` builds the site in a made-up language, en-XA,
whose every text and interface string is the English one accented, bracketed ⟦…⟧ and about 40 %
longer. A string that escaped translation (hard-coded in a template, missing from `_()`) shows
up as plain English; a layout that breaks under longer text (a player aid, a table, a setup
picture) breaks visibly. Placeholders and digits are kept, so numbers fill in as usual."""

from __future__ import annotations

from functools import lru_cache

from pydantic import BaseModel

from ..text import PLACEHOLDER

from ..i18n import PSEUDO  # en-XA: BCP 47 leaves the region XA for private use; no real language has it
NAME = "Pseudo (en-XA)"
OPEN, CLOSE = "⟦", "⟧"
_ACCENTS = str.maketrans("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
                         "àƀçđéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÀƁÇĐÉƑĜĤÎĴĶĻḾÑÖÞǪŔŠŢÛṼŴẊÝŽ")
_PAD = "ļöŕéɱ îþšûɱ đöļöŕ šîţ àɱéţ çöñšéçţéţûŕ àđîþîšçîñĝ éļîţ".split()
GROWTH = 0.4


def pseudo(s: str) -> str:
    """⟦accented text plus padding⟧; {placeholders} kept as written."""
    if not s.strip():
        return s
    parts, last = [], 0
    for m in PLACEHOLDER.finditer(s):
        parts.append(s[last:m.start()].translate(_ACCENTS))
        parts.append(m.group(0))
        last = m.end()
    parts.append(s[last:].translate(_ACCENTS))
    text = "".join(parts).strip()
    want = round(len(PLACEHOLDER.sub("", s).strip()) * GROWTH)
    pad, i = [], 0
    while sum(len(w) + 1 for w in pad) < want:
        pad.append(_PAD[i % len(_PAD)])
        i += 1
    return OPEN + text + (" " + " ".join(pad) if pad else "") + CLOSE


@lru_cache(maxsize=1)
def catalog() -> dict[str, str]:
    """Every interface string (locale/rulebook.pot's msgids), pseudo-localized."""
    from ..i18n import extract
    return {m: pseudo(m) for m in extract()}


def _is_text(d, langs) -> bool:
    return isinstance(d, dict) and bool(d) and all(isinstance(k, str) and k in langs for k in d) and all(
        isinstance(v, str) for v in d.values())


def _walk(node, langs, base, seen) -> None:
    if id(node) in seen:
        return
    seen.add(id(node))
    if _is_text(node, langs):
        node[PSEUDO] = pseudo(node.get(base) or next(iter(node.values())))
        return
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            _walk(getattr(node, name), langs, base, seen)
    elif isinstance(node, dict):
        for v in node.values():
            _walk(v, langs, base, seen)
    elif isinstance(node, list):
        for v in node:
            _walk(v, langs, base, seen)


def add_pseudo(project) -> None:
    """Give every text of the (checked) project a pseudo-localized version, and the site the language."""
    from ..model import Language
    site = project.site
    langs = set(project.languages)
    base = "en" if "en" in langs else site.default_language
    if PSEUDO in langs:
        return
    for doc in project.games.values():
        _walk(doc.model, langs, base, set())
        _walk(doc.raw, langs, base, set())
        for term in doc.model.glossary:
            term.aliases[PSEUDO] = [pseudo(a) for a in term.aliases.get(base, [])]
    _walk(site.title, langs, base, set())
    site.languages.append(Language(tag=PSEUDO, name=NAME))
