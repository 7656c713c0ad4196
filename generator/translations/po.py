"""Gettext PO files for translators: one per game and language, written byte-for-byte the same
for the same content, read back with Babel's PO reader (with line numbers for diagnostics).

Each entry: `msgctxt` the text's stable key, `msgid` the source text, `msgstr` the translation;
`#.` comments give the placeholders' values today and the glossary terms the text uses, `#:` the
YAML file and line; a stale translation is `#, fuzzy` with the source it followed as `#| msgid`.
Texts with placeholders carry `python-brace-format`, so `msgfmt --check` compares them too.
"""

from __future__ import annotations

import io
import re

from ..diagnostics import Diagnostic
from ..i18n import babel_locale
from .notes import Unit
from .state import STALE


def _quote(s: str) -> str:
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r").replace("\n", "\\n") + '"'


def _field(keyword: str, s: str, prefix: str = "") -> str:
    """`msgid "…"`, or a multi-line string split after each line break, as gettext writes it."""
    if "\n" not in s.rstrip("\n"):
        return f"{prefix}{keyword} {_quote(s)}\n"
    parts = re.findall(r"[^\n]*\n|[^\n]+$", s)
    return f'{prefix}{keyword} ""\n' + "".join(f"{prefix}{_quote(p)}\n" for p in parts)


def _comment(s: str) -> str:
    return " ".join(s.split())


def write(units: list[Unit], game: str, lang: str, source_lang: str) -> str:
    out = io.StringIO()
    out.write(f"# Translation of the rulebook of {game} into {lang}, from {source_lang}.\n"
              "# Made by `rulebook translations export`; bring it back with `rulebook translations import`.\n"
              'msgid ""\nmsgstr ""\n'
              f'"Project-Id-Version: rulebook {game}\\n"\n'
              '"Report-Msgid-Bugs-To: \\n"\n'
              '"PO-Revision-Date: 1970-01-01 00:00+0000\\n"\n'
              '"Last-Translator: \\n"\n'
              f'"Language-Team: {lang}\\n"\n'
              f'"Language: {babel_locale(lang)}\\n"\n'
              '"MIME-Version: 1.0\\n"\n'
              '"Content-Type: text/plain; charset=UTF-8\\n"\n'
              '"Content-Transfer-Encoding: 8bit\\n"\n'
              f'"X-Rulebook-Game: {game}\\n"\n'
              f'"X-Rulebook-Source-Language: {source_lang}\\n"\n')
    for u in units:
        out.write("\n")
        for note in u.notes:
            out.write(f"#. {_comment(note)}\n")
        out.write(f"#: {u.where}\n")
        flags = (["fuzzy"] if u.status == STALE else []) + (["python-brace-format"] if u.has_placeholders else [])
        if flags:
            out.write(f"#, {', '.join(flags)}\n")
        if u.status == STALE and u.previous is not None:
            out.write(_field("msgid", u.previous, "#| "))
        out.write(_field("msgctxt", u.context))
        out.write(_field("msgid", u.source))
        out.write(_field("msgstr", u.target))
    return out.getvalue()


class Read:
    """An entry read back from a translator's file (PO or XLIFF)."""

    __slots__ = ("context", "source", "target", "fuzzy", "line")

    def __init__(self, context, source, target, fuzzy, line):
        self.context, self.source, self.target, self.fuzzy, self.line = context, source, target, fuzzy, line


def read(data: bytes, file: str) -> tuple[dict, list[Read], list[Diagnostic]]:
    """(header fields, entries, diagnostics) of a PO file."""
    from babel.messages.pofile import PoFileError, read_po
    try:
        bad = _lint(data.decode("utf-8"))
        if bad:
            return {}, [], [Diagnostic("RB410", f"not a PO line: {bad[1]!r}", file, bad[0], 1,
                                       "a string is one double-quoted line, with \\\" and \\\\ escaped")]
        cat = read_po(io.BytesIO(data), abort_invalid=True, charset="utf-8")
    except PoFileError as e:  # Babel counts lines from 0 in its errors
        m = re.search(r"(\d+)\s*$", str(e))
        return {}, [], [Diagnostic("RB410", f"not a readable PO file: {e}", file, int(m.group(1)) + 1 if m else 1, 1,
                                   "open it in a PO editor, or export the game again")]
    except (UnicodeDecodeError, ValueError, IndexError) as e:
        return {}, [], [Diagnostic("RB410", f"not a readable PO file: {e}", file, 1, 1,
                                   "save it as UTF-8 from a PO editor, or export the game again")]
    header = _header(data.decode("utf-8", "replace"))
    found = []
    for m in cat:
        if not m.id:
            continue
        if isinstance(m.id, tuple):  # a plural: no text of ours is one
            found.append(Read(m.context, m.id[0], "", m.fuzzy, m.lineno))
            continue
        found.append(Read(m.context, m.id, m.string or "", m.fuzzy, m.lineno))
    return header, found, []


_STRING = r'"(?:[^"\\]|\\.)*"'
_LINE = re.compile(r'(?:(?:msgctxt|msgid|msgid_plural|msgstr(?:\[\d+\])?)[ \t]+)?' + _STRING + r'[ \t]*')


def _lint(text: str) -> tuple[int, str] | None:
    """The first line that is neither a comment nor a well-formed keyword or string line. Babel's
    reader would take `msgstr "unterminated` as 'unterminate': a translation silently cut."""
    for n, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if s and not s.startswith("#") and not _LINE.fullmatch(s):
            return n, line
    return None


def _header(text: str) -> dict[str, str]:
    """The fields of the header entry (Babel's reader keeps only the standard ones)."""
    m = re.search(r'^msgid ""\nmsgstr ""\n((?:"[^\n]*"\n)*)', text, re.M)
    out = {}
    if m:
        joined = "".join(re.findall(r'^"(.*)"$', m.group(1), re.M)).replace("\\n", "\n")
        for line in joined.split("\n"):
            key, sep, value = line.partition(":")
            if sep:
                out[key.strip()] = value.strip()
    return out
