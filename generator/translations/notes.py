"""What a translator sees beside each text, in both file formats: where it is written, what its
placeholders stand for today, and the agreed translation of each glossary term it uses."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..project import GameDoc, Project
from ..text import placeholders
from . import state as st
from .texts import Entry, entries, message, source_language


@dataclass(frozen=True)
class Unit:
    """One text of one game for one target language, ready to be written to a file."""

    context: str
    source: str  # the message: the source text without a block scalar's last line break
    target: str  # "" when missing
    status: str  # current, stale, missing, unrecorded
    previous: str | None  # the source the translation followed, when stale
    where: str  # content/<game>/<file>:<line>
    notes: list[str]
    has_placeholders: bool


def _glossary(game: GameDoc, src: str, lang: str) -> list[tuple[re.Pattern, str, str]]:
    out = []
    for term in game.model.glossary:
        forms = ([term.term[src]] if src in term.term else []) + list(term.aliases.get(src, []))
        target = term.term.get(lang, "")
        for form in forms:
            if not form.strip():
                continue
            esc = re.escape(form)
            if form[:1].isascii() and form[:1].isalnum():
                esc = r"(?<![\w-])" + esc
            if form[-1:].isascii() and form[-1:].isalnum():
                esc += r"(?![\w-])"
            out.append((re.compile(esc, re.IGNORECASE), term.term.get(src, form), target))
    return out


def units(game: GameDoc, project: Project, lang: str) -> list[Unit]:
    state, _ = st.read(game)
    src = source_language(game, project)
    terms = _glossary(game, src, lang)
    root = project.content.name or "content"
    out = []
    for e in entries(game):
        status = st.status(e, lang, src, state)
        if status is None:
            continue
        text = e.text[src]
        notes = _placeholder_notes(e, text) + _term_notes(terms, text, lang)
        m = game.pos.of(e.path + (src,))
        where = f"{root}/{game.id}/{Path(m.file).name}:{m.line}" if m else f"{root}/{game.id}"
        prev = None
        if status == st.STALE:
            r = state.get(e.context, lang)
            prev = message(r.source) if r else None
        out.append(Unit(e.context, message(text), message(e.text.get(lang, "")) if status != st.MISSING else "",
                        status, prev, where, notes, bool(placeholders(text))))
    return out


def _placeholder_notes(e: Entry, text: str) -> list[str]:
    values = e.values()
    return [f"{{{name}}} is {values[name]} today" if name in values else f"{{{name}}} names no value"
            for name in sorted(placeholders(text))]


def _term_notes(terms, text: str, lang: str) -> list[str]:
    notes, seen = [], set()
    for pattern, term, target in terms:
        if term in seen or not pattern.search(text):
            continue
        seen.add(term)
        notes.append(f"glossary: {term} = {target}" if target else f"glossary: {term} (no {lang} term yet)")
    return notes
