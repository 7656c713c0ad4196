"""Which version of its source text each translation follows: `content/<game>/translations.lock`.

The file is committed beside the game's YAML (which stays free of hashes). One line per
translated text and language, sorted, so it diffs one line per text and two branches that touch
different texts merge without conflict (`.gitattributes` merges it as a union; a key left twice
by such a merge is read as current when either line matches):

    context<TAB>language<TAB>digest of the source text<TAB>the source text, as a JSON string

The digest is what staleness is decided on; the source text is kept so that an export can show
a translator the previous source of a stale entry (`#| msgid`, as gettext does). Written only by
`rulebook translations mark-current` and `rulebook translations import`.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from ..diagnostics import Diagnostic
from ..project import GameDoc, Project
from .texts import Entry, digest, entries, source_language

FILE = "translations.lock"
HEADER = ("# rulebook translations: which version of the source text each translation follows.\n"
          "# context<TAB>language<TAB>source digest<TAB>source text (JSON). Written by `rulebook translations\n"
          "# mark-current` and `rulebook translations import`; see docs/translations.md. Do not edit by hand.\n")

CURRENT, STALE, MISSING, UNRECORDED = "current", "stale", "missing", "unrecorded"


@dataclass(frozen=True)
class Record:
    digest: str
    source: str


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
        self.records[(context, lang)] = [Record(digest(source), source)]


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
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split("\t")
        try:
            if len(parts) != 4 or len(parts[2]) != 16:
                raise ValueError
            source = json.loads(parts[3])
            if not isinstance(source, str):
                raise ValueError
        except ValueError:
            diags.append(Diagnostic("RB408", "a line is not context<TAB>language<TAB>digest<TAB>\"source text\"",
                                    shown, n, 1, "a merge may have mangled it: delete the line and run "
                                    "`rulebook translations mark-current` for the texts you know are current"))
            continue
        state.records.setdefault((parts[0], parts[1]), []).append(Record(parts[2], source))
    return state, diags


def write(game: GameDoc, state: State) -> bool:
    """Write the file (sorted, one line per key); returns whether its bytes changed."""
    lines = []
    for (context, lang), found in sorted(state.records.items()):
        r = found[-1]
        lines.append(f"{context}\t{lang}\t{r.digest}\t{json.dumps(r.source, ensure_ascii=False)}\n")
    text = HEADER + "".join(lines)
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


def status(entry: Entry, lang: str, source_lang: str, state: State) -> str | None:
    """current, stale, missing or unrecorded; None where there is nothing to translate (the
    language is the source, or the source text itself is missing)."""
    if lang == source_lang or source_lang not in entry.text:
        return None
    if lang not in entry.text or not entry.text[lang].strip():
        return MISSING
    if not state.exists:
        return UNRECORDED
    now = digest(entry.text[source_lang])
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
    return marked, write(game, state)


def _shown(game: GameDoc) -> str:
    m = game.pos.of(())
    return str(Path(m.file).parent / FILE) if m else str(path_of(game))
