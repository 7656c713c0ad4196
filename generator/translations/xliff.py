"""XLIFF 1.2 files for translators' tools that prefer it to PO: the same entries, keys and notes.

A unit's `id` (and `resname`) is the text's stable key; a stale translation has
`state="needs-review-translation"` and its previous source in a note. Read back with expat, so
a diagnostic can name the line of a unit."""

from __future__ import annotations

import io
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

from ..diagnostics import Diagnostic
from .notes import Unit
from .po import Read
from .state import MISSING, STALE

NS = "urn:oasis:names:tc:xliff:document:1.2"


def write(units: list[Unit], game: str, lang: str, source_lang: str) -> str:
    out = io.StringIO()
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
              f'<xliff version="1.2" xmlns="{NS}">\n'
              f'  <file original={quoteattr("rulebook " + game)} source-language="{source_lang}" '
              f'target-language="{lang}" datatype="plaintext">\n'
              '    <body>\n')
    for u in units:
        state = "needs-translation" if u.status == MISSING else "needs-review-translation" if u.status == STALE else "translated"
        out.write(f'      <trans-unit id={quoteattr(u.context)} resname={quoteattr(u.context)} xml:space="preserve">\n'
                  f'        <source>{escape(u.source)}</source>\n'
                  f'        <target state="{state}">{escape(u.target)}</target>\n')
        notes = list(u.notes) + [f"location: {u.where}"]
        if u.previous is not None:
            notes.append(f"previous source: {u.previous}")
        for note in notes:
            out.write(f'        <note from="rulebook">{escape(note)}</note>\n')
        out.write('      </trans-unit>\n')
    out.write('    </body>\n  </file>\n</xliff>\n')
    return out.getvalue()


def read(data: bytes, file: str) -> tuple[dict, list[Read], list[Diagnostic]]:
    """(header: game and language, entries, diagnostics) of an XLIFF 1.2 file."""
    header: dict[str, str] = {}
    found: list[Read] = []
    cur: dict | None = None
    text: list[str] | None = None
    p = expat.ParserCreate(namespace_separator=" ")

    def start(name, attrs):
        nonlocal cur, text
        local = name.split(" ")[-1]
        if local == "file":
            original = attrs.get("original", "")
            header["X-Rulebook-Game"] = original.split(" ", 1)[1] if original.startswith("rulebook ") else original
            header["Language"] = attrs.get("target-language", "")
        elif local == "trans-unit":
            cur = {"id": attrs.get("id"), "line": p.CurrentLineNumber, "source": "", "target": "", "state": ""}
        elif local in ("source", "target") and cur is not None:
            text = []
            if local == "target":
                cur["state"] = attrs.get("state", "")

    def end(name):
        nonlocal cur, text
        local = name.split(" ")[-1]
        if local in ("source", "target") and cur is not None and text is not None:
            cur[local] = "".join(text)
            text = None
        elif local == "trans-unit" and cur is not None:
            fuzzy = cur["state"] in ("needs-review-translation", "needs-review-adaptation", "needs-review-l10n", "new")
            found.append(Read(cur["id"], cur["source"], cur["target"], fuzzy, cur["line"]))
            cur = None

    def chars(s):
        if text is not None:
            text.append(s)

    p.StartElementHandler, p.EndElementHandler, p.CharacterDataHandler = start, end, chars
    p.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    p.EntityDeclHandler = _refuse_entities
    try:
        p.Parse(data, True)
    except (expat.ExpatError, ValueError) as e:
        line = getattr(e, "lineno", 1) or 1
        return {}, [], [Diagnostic("RB410", f"not a readable XLIFF file: {e}", file, line, 1,
                                   "open it in your translation tool and save it again, or export the game again")]
    return header, found, []


def _refuse_entities(*_):
    raise ValueError("entity declarations are not allowed")
