"""Which version of its source text each translation follows: `content/<game>/translations.lock`.

The file is committed beside the game's YAML (which stays free of hashes). One line per
translated text and language, sorted, so it diffs one line per text and two branches that touch
different texts merge without conflict (`.gitattributes` merges it as a union; a key left twice
by such a merge is read as current when either line matches):

    context<TAB>language<TAB>digest of the source text<TAB>the source text, as a JSON string

The digest is what staleness is decided on; the source text is kept so that an export can show
a translator the previous source of a stale entry (`#| msgid`, as gettext does). Written only by
`rulebook translations mark-current` and `rulebook translations import`.

When every translation was current as the file was written, its last line says so:

    # current: <hash of the game's texts> <hash of every line above> <hash of the game's files>

The first hash covers, text by text, its context, its source text and which languages translate
it: all that the staleness check reads of the game. The third covers the game's YAML files byte
for byte (and the site's languages): when it and the second match, `validate` knows without
walking the texts that it would find nothing; else, when the first and second match, it knows
without reading a record (`unchanged`). A summary of two hashes (written before the third) is
read too. Any other change (a source
text edited, a translation added, a line of the file edited by hand or by a union merge, a line
after the summary) makes one of them differ, and every text is compared as before.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..diagnostics import Diagnostic
from ..project import GameDoc, Project
from .texts import Entry, digest, entries, source_language

FILE = "translations.lock"
HEADER = ("# rulebook translations: which version of the source text each translation follows.\n"
          "# context<TAB>language<TAB>source digest<TAB>source text (JSON). Written by `rulebook translations\n"
          "# mark-current` and `rulebook translations import`; see docs/translations.md. Do not edit by hand.\n")

CURRENT, STALE, MISSING, UNRECORDED = "current", "stale", "missing", "unrecorded"


class Record(NamedTuple):
    """One line's record. The source text is kept as the file has it (a JSON string) and decoded
    only when asked for: validate reads every record and needs only the digests. (A named tuple:
    a file holds thousands, and a frozen dataclass costs twice as much to make.)"""

    digest: str
    raw: str  # the source text as a JSON string literal

    @classmethod
    def of(cls, source: str) -> "Record":
        return cls(digest(source), json.dumps(source, ensure_ascii=False))

    @property
    def source(self) -> str:
        return json.loads(self.raw)


@dataclass
class State:
    """The records of one game: (context, language) -> the records found (one, or two after a union merge)."""

    records: dict[tuple[str, str], list[Record]] = field(default_factory=dict)
    exists: bool = False

    def get(self, context: str, lang: str, current: str | None = None) -> Record | None:
        found = self.records.get((context, lang))
        if not found:
            return None
        for r in found:
            if r.digest == current:
                return r
        return found[-1]

    def put(self, context: str, lang: str, source: str) -> None:
        self.records[(context, lang)] = [Record.of(source)]


def path_of(game: GameDoc) -> Path:
    return game.folder / FILE


def read(game: GameDoc, display: str | None = None) -> tuple[State, list[Diagnostic]]:
    path = path_of(game)
    state, diags = State(), []
    shown = display or _shown(game)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return state, diags
    except (OSError, UnicodeDecodeError) as e:
        return state, [Diagnostic("RB408", f"cannot read the file: {e}", shown, 1, 1,
                                  "delete it and run `rulebook translations mark-current` again")]
    state.exists = True
    records = state.records
    found = 0
    for context, lang, dig, raw in _LINE.findall(text):  # one pass in C; lines read one by one only when one is bad
        records.setdefault((context, lang), []).append(Record(dig, raw))
        found += 1
    if found != len(_CONTENT_LINE.findall(text)):
        records.clear()
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            parts = line.split("\t")
            if len(parts) != 4 or len(parts[2]) != 16 or not _json_string(parts[3]):
                diags.append(Diagnostic("RB408", "a line is not context<TAB>language<TAB>digest<TAB>\"source text\"",
                                        shown, n, 1, "a merge may have mangled it: delete the line and run "
                                        "`rulebook translations mark-current` for the texts you know are current"))
                continue
            records.setdefault((parts[0], parts[1]), []).append(Record(parts[2], parts[3]))
    return state, diags


# one JSON string literal, as json.dumps writes it (checked in C by the regex engine: decoding
# every record would double what validate spends on this file; a record is decoded when used)
_JSON_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]+|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"')


# a whole good line, and any line that is neither blank nor a comment (they must be as many)
_LINE = re.compile(r'^([^\t\n]*)\t([^\t\n]*)\t([^\t\n]{16})\t(' + _JSON_STRING.pattern + r')[ \t\r]*$', re.M)
_CONTENT_LINE = re.compile(r"^[ \t\r]*[^#\s].*$", re.M)


def _json_string(raw: str) -> bool:
    return _JSON_STRING.fullmatch(raw) is not None


SUMMARY = "# current: "


def texts_hash(game: GameDoc, project: Project, src: str) -> str:
    """A hash of what the staleness check reads of a game: per text with a source text, its
    context, its source text (as its digest reads it: runs of white space as one space) and the
    languages whose translation is present and not blank (those the check compares)."""
    langs = [lang for lang in project.languages if lang != src]
    parts = [src, *project.languages]
    for e in entries(game):
        t = e.text
        s = t.get(src)
        if s is None:
            continue
        norm = " ".join(s.split())
        have = " ".join(lang for lang in langs if lang in t and t[lang].strip())
        parts.append(f"{len(e.context)}:{e.context}{len(norm)}:{norm}{have}")
    return _hash("\n".join(parts))


# what a summary's third hash covers, and how: change it when the staleness check reads the game
# differently, so that no summary written before says "current" of what the check now reads anew
_FILES_FORMAT = "rulebook translations files 1"


def files_hash(game: GameDoc, project: Project, src: str) -> str:
    """A hash of the game's YAML files as they were read, with the source language and the site's
    languages: when it matches, the game is byte for byte what the summary was written from.
    ("" where the files' digest is not known.)"""
    if not game.files_digest:
        return ""
    return _hash("\n".join([_FILES_FORMAT, src, *project.languages, game.files_digest]))


def _hash(text: str) -> str:
    # BLAKE2b: a file of 100 kB takes 0.1 ms where SHA-256 takes 0.7 on this kind of machine
    return hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest()


def unchanged(game: GameDoc, project: Project, src: str) -> bool:
    """Whether the file ends with a summary that still matches both the game's texts and the lines
    above it: then every translation is current and the check has nothing to report."""
    try:
        text = path_of(game).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    start = text.rfind("\n", 0, len(text) - 1) + 1
    last = text[start:]
    if not last.startswith(SUMMARY) or not last.endswith("\n"):
        return False
    parts = last[len(SUMMARY):].split()
    if len(parts) not in (2, 3) or parts[1] != _hash(text[:start]):
        return False
    # the files, byte for byte as when the summary was written: no need to read the texts at all;
    # else the texts may still be (an edit of a number, of a comment)
    if len(parts) == 3 and parts[2] == files_hash(game, project, src):
        return True
    return parts[0] == texts_hash(game, project, src)


def _all_current(game: GameDoc, project: Project, src: str, state: State) -> bool:
    for e in entries(game):
        for lang in project.languages:
            if status(e, lang, src, state) in (STALE, UNRECORDED):
                return False
    return True


def write(game: GameDoc, state: State, project: Project | None = None) -> bool:
    """Write the file (sorted, one line per key); returns whether its bytes changed. With the
    project, and when every translation of the game (as its data is in memory) is current, the
    file ends with the summary line that lets `unchanged` skip the comparison."""
    lines = []
    kept = State(exists=True)
    for (context, lang), found in sorted(state.records.items()):
        r = found[-1]
        kept.records[(context, lang)] = [r]
        lines.append(f"{context}\t{lang}\t{r.digest}\t{r.raw}\n")
    text = HEADER + "".join(lines)
    if project is not None:
        src = source_language(game, project)
        if src in project.languages and _all_current(game, project, src, kept):
            files = files_hash(game, project, src)
            text += f"{SUMMARY}{texts_hash(game, project, src)} {_hash(text)}{' ' + files if files else ''}\n"
    path = path_of(game)
    try:
        if path.read_text(encoding="utf-8") == text:
            return False
    except (OSError, UnicodeDecodeError):
        pass
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8", newline="\n")
    tmp.replace(path)
    return True


def status(entry: Entry, lang: str, source_lang: str, state: State, now: str | None = None) -> str | None:
    """current, stale, missing or unrecorded; None where there is nothing to translate (the
    language is the source, or the source text itself is missing). `now`: the source text's
    digest, when the caller has it."""
    if lang == source_lang or source_lang not in entry.text:
        return None
    if lang not in entry.text or not entry.text[lang].strip():
        return MISSING
    if not state.exists:
        return UNRECORDED
    now = now or digest(entry.text[source_lang])
    r = state.get(entry.context, lang, now)
    if r is None:
        return UNRECORDED
    return CURRENT if r.digest == now else STALE


def settle(game: GameDoc, project: Project, state: State) -> None:
    """Where a union merge left a key twice, keep the record that matches today's source (else the
    last), so that writing the file never turns a current translation stale."""
    src = source_language(game, project)
    for e in entries(game):
        if src not in e.text:
            continue
        now = digest(e.text[src])
        for lang in project.languages:
            found = state.records.get((e.context, lang))
            if found and len(found) > 1:
                state.records[(e.context, lang)] = [state.get(e.context, lang, now)]


def mark_current(game: GameDoc, project: Project, langs: list[str] | None = None) -> tuple[int, bool]:
    """Record every present translation (of `langs`, default all) as following today's source;
    drops the records of texts that no longer exist. Returns (texts newly marked, file changed)."""
    state, _ = read(game)
    src = source_language(game, project)
    targets = [lang for lang in project.languages if lang != src and (not langs or lang in langs)]
    marked = 0
    live = set()
    for e in entries(game):
        if src not in e.text:
            continue
        for lang in project.languages:
            live.add((e.context, lang))
        for lang in targets:
            st = status(e, lang, src, state)
            if st in (STALE, UNRECORDED) or (st == CURRENT and len(state.records[(e.context, lang)]) > 1):
                state.put(e.context, lang, e.text[src])
                marked += st != CURRENT
    state.records = {k: v for k, v in state.records.items() if k in live}
    return marked, write(game, state, project)


def _shown(game: GameDoc) -> str:
    m = game.pos.of(())
    return str(Path(m.file).parent / FILE) if m else str(path_of(game))
