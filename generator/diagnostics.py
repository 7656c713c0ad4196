"""Diagnostics: the one way every stage reports a problem.

Stages never print and never raise on bad content; they return `Diagnostic` values. Only the
CLI formats them (`format_text`, `format_json`, `format_junit`, `format_github`).
Every code is registered once in `CODES` with a one-line description; `docs/diagnostics.md`
is generated from that table and a test keeps the two in step.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from enum import Enum


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    NOTE = "note"  # not a problem: what a run did (e.g. a game simulated as far as setup only)
    ACKNOWLEDGED = "acknowledged"  # a finding the data acknowledges with a reason (`acknowledge:`); not a failure


@dataclass(frozen=True)
class Code:
    code: str
    slug: str
    description: str


_CODE_LIST = [
    # 0xx: reading files
    Code("RB001", "yaml-syntax", "The file is not well-formed YAML."),
    Code("RB002", "duplicate-key", "A mapping names the same key twice (at any depth, or across a game's files)."),
    Code("RB003", "unsafe-yaml", "A YAML feature the content may not use: tags, anchors, aliases, merge keys, several documents, directives."),
    Code("RB004", "bad-file", "A file cannot be read: not UTF-8 (UTF-16, invalid bytes), empty, not a mapping at the top, or missing."),
    Code("RB005", "no-games", "The content folder holds no game folder, or a game named on the command line does not exist."),
    Code("RB006", "bad-character", "A file holds a control character or an invisible one (zero-width, direction mark) that could make ids and terms look alike."),
    Code("RB007", "over-cap", "A file is over one of the caps of generator/limits.py (size, line length, number of values, nesting); see docs/limits.md."),
    # 1xx: schema
    Code("RB100", "wrong-type", "A value has the wrong type or is out of its allowed range."),
    Code("RB101", "missing-key", "A required key is missing."),
    Code("RB102", "unknown-key", "A key the schema does not know (often a typo; the hint suggests the nearest known key)."),
    # 2xx: identity and references
    Code("RB200", "duplicate-id", "Two things of one game share an id."),
    Code("RB201", "unresolved-reference", "A reference names an id that does not exist, or one of the wrong sort."),
    Code("RB202", "unmatched-acknowledgement", "An entry of `acknowledge:` matches no finding (it was fixed, or the finding changed): remove or update it."),
    # 3xx: counts
    Code("RB300", "breakdown-sum", "The kinds of a component do not add up to its count."),
    Code("RB301", "per-colour-count", "A per-colour count times the number of player colours differs from the component's count."),
    Code("RB302", "setup-exceeds-box", "For some player count or mode, setup takes more of a component than the box holds."),
    Code("RB303", "player-count-table", "A table by player count misses a supported count or names an unsupported one."),
    Code("RB304", "unknown-count", "A count is unknown, and nothing records why: name a gap."),
    Code("RB305", "described-count", "The cards or tiles the card reference describes for a component differ in number from its count, and no gap explains it."),
    Code("RB306", "total-to-each-player", "A setup step gives a total by player count (by_players) to a per-player zone: say per_player for what each player gets."),
    Code("RB307", "bad-expression", "A computed number (a {placeholder} or an amount) cannot be evaluated: bad syntax, a division by zero, a cycle, or a table by player count where one number is needed."),
    Code("RB308", "setup-moves-reference", "A setup step names a component that is not a playing piece (`role: reference`: a rulebook, a reference sheet); setup never moves one."),
    # 4xx: translations
    Code("RB400", "untranslated", "A text lacks one of the site's languages."),
    Code("RB401", "unknown-language", "A text is given in a language the site does not declare."),
    Code("RB402", "placeholder-mismatch", "The languages of one text use different placeholders."),
    Code("RB403", "undefined-placeholder", "A placeholder names no value of its item."),
    Code("RB404", "number-mismatch", "The languages of one text state different literal numbers (Chinese numerals count)."),
    Code("RB405", "empty-text", "A text is empty or only white space."),
    Code("RB406", "stale-translation", "The source-language text changed since this translation was recorded as current (content/<game>/translations.lock): it may be out of date. A warning; an error with --strict."),
    Code("RB407", "unrecorded-translation", "Nothing records which source text a translation follows (no translations.lock, or no line for this text). A warning; an error with --strict."),
    Code("RB408", "bad-translation-state", "A line of content/<game>/translations.lock cannot be read (often a merge that mangled it)."),
    Code("RB410", "bad-translation-file", "A PO or XLIFF file given to `rulebook translations import` cannot be read, or names no game or language of the site."),
    Code("RB411", "unknown-context", "An imported entry's context names no text of the game (the text was removed, or the file is for another game)."),
    Code("RB412", "source-changed", "An imported entry translates a source text that changed since the file was exported: export again and translate the new text."),
    # 5xx: scoring tables
    Code("RB500", "range-gap", "A scoring table leaves values of its domain uncovered."),
    Code("RB501", "range-overlap", "Two rows of a scoring table cover the same value."),
    # 6xx: simulation (generator/engine, run by generator/check/simulate.py)
    Code("RB600", "sim-conservation", "In a simulated game a finite component was created or destroyed: its total over all zones differs from the box."),
    Code("RB601", "sim-negative", "In a simulated game a zone held fewer than zero of a component."),
    Code("RB602", "sim-score-off-track", "In a simulated game a score left the score track's declared range (track_min/track_max)."),
    Code("RB603", "sim-no-end", "A simulated game did not end within the rounds the data declares (rounds.count or rounds.max)."),
    Code("RB604", "sim-empty-pile", "A simulated game drew from an empty pile, bag or stack whose zone gives no on_empty rule and no gap."),
    Code("RB605", "sim-engine-error", "The simulation could not go on: the game's engine module failed or offered no legal action (a bug in rulebook)."),
    Code("RB606", "engine-module", "An installed engine module registered for the game cannot be used: it fails to import, lacks new_state, or two distributions register the same game id."),
    Code("RB607", "setup-only", "A note, not an error: no engine module is registered for the game, so validate played its setup for every player count and mode but no turns (docs/engine.md)."),
    # 7xx: player aids, pointers and sources (generator/check/aids.py, pointers.py)
    Code("RB700", "aid-missing-table", "A player-aid sheet leaves out a scoring table the rules define, or shows a line that points to a table the sheet does not show."),
    Code("RB701", "aid-wrong-mode", "A player-aid sheet shows a line that is only for modes the sheet is not for."),
    Code("RB702", "aid-mode-uncovered", "A game mode has no player-aid sheet."),
    Code("RB710", "dangling-pointer", "Text points ([words](#id)) to an id that no page shows."),
    Code("RB711", "pointer-mismatch", "The languages of one text point to different places."),
    Code("RB712", "unlinked-pointer", "Text sends the reader elsewhere ('see Actions', 'the table below') in words, not as a [words](#id) link (a warning)."),
    Code("RB720", "unsourced-item", "In a game with several sources, a rules item names none, so the pages cannot say where it comes from."),
    Code("RB730", "us-spelling", "An English text uses a US spelling (color, center, gray …); the pages spell English the British way (a warning)."),
    Code("RB731", "source-note-in-rule", "A rule's text talks about its sources (which copy or review says what); that belongs in a gap or the source list (a warning). An item that names its `gap:` may say in passing that the sources leave it out or disagree."),
    # 9xx: building
    Code("RB900", "sphinx-warning", "Sphinx warned about a generated page (a dangling link, a bad table); the build stops."),
    Code("RB901", "build-failed", "The build could not finish (Sphinx error, disk, permissions); the previous site is kept."),
    Code("RB902", "pdf-failed", "A PDF could not be printed (no Chromium, a browser crash, over the time limit); the previous site is kept."),
]

CODES: dict[str, Code] = {c.code: c for c in _CODE_LIST}


@dataclass(frozen=True)
class Diagnostic:
    code: str
    message: str
    file: str = ""
    line: int = 0
    column: int = 0
    hint: str = ""
    severity: Severity = Severity.ERROR
    at: str = ""  # where in the game's data, by id: 'solo-ranks', 'card-favor.text.zh-TW' (what `acknowledge: at:` names)
    key: str = ""  # what tells this finding from others of its code at that place (`acknowledge: key:`)
    reason: str = ""  # with severity ACKNOWLEDGED: why the data keeps it
    excerpt: str = ""  # the source line at fault, shown under the message with a caret at the column

    def __post_init__(self) -> None:
        if self.code not in CODES:  # a programming error, not a content error
            raise ValueError(f"unregistered diagnostic code {self.code}")

    @property
    def location(self) -> str:
        if not self.file:
            return "rulebook"
        if not self.line:
            return self.file
        return f"{self.file}:{self.line}:{self.column}"

    def sort_key(self) -> tuple:
        return (self.file, self.line, self.column, self.code, self.message)


def has_errors(diags: list[Diagnostic]) -> bool:
    return any(d.severity is Severity.ERROR for d in diags)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def format_text(diags: list[Diagnostic]) -> str:
    out = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        line = f"{d.location}: {d.severity.value} {d.code}: {_one_line(d.message)}"
        if d.severity is Severity.ACKNOWLEDGED:
            line += f" (reason: {_one_line(d.reason)})"
        elif d.hint:
            line += f" (hint: {_one_line(d.hint)})"
        out.append(line)
        if d.excerpt and d.line:
            out += caret_lines(d.excerpt, d.line, d.column)
    return "\n".join(out)


def caret_lines(source: str, line: int, column: int) -> list[str]:
    """The source line under a diagnostic, and a caret under its column (wide characters, such as
    Chinese ones, take two terminal cells; tabs are shown as one space)."""
    import unicodedata
    text = source.rstrip("\r\n").replace("\t", " ")
    before = text[: max(column - 1, 0)]
    width = sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in before)
    gutter = f"{line:>5} | "
    return [gutter + text, " " * (len(gutter) - 2) + "| " + " " * width + "^"]


def format_json(diags: list[Diagnostic]) -> str:
    rows = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        row = asdict(d)
        row["severity"] = d.severity.value
        row["slug"] = CODES[d.code].slug
        rows.append(row)
    return json.dumps(rows, ensure_ascii=False, indent=2)


def format_junit(diags: list[Diagnostic]) -> str:
    from xml.sax.saxutils import quoteattr  # here, not at the top: it pulls in urllib.request (~20 ms)
    errors = [d for d in diags if d.severity is Severity.ERROR]
    skipped = sum(1 for d in diags if d.severity is Severity.ACKNOWLEDGED)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<testsuite name="rulebook validate" tests="{max(len(diags), 1)}" failures="{len(errors)}" skipped="{skipped}">',
    ]
    if not diags:
        lines.append('  <testcase classname="rulebook" name="content is valid"/>')
    for d in sorted(diags, key=Diagnostic.sort_key):
        name = quoteattr(f"{d.code} {d.location}")
        lines.append(f"  <testcase classname={quoteattr(d.file or 'rulebook')} name={name}>")
        tag = "failure" if d.severity is Severity.ERROR else "system-out"
        text = _xml_text(f"{d.message} (hint: {d.hint})" if d.hint else d.message)
        if d.severity is Severity.ACKNOWLEDGED:
            lines.append(f"    <skipped message={quoteattr('acknowledged: ' + _one_line(d.reason))}/>")
            lines.append(f"    <system-out>{_xml_text(d.message)}</system-out>")
        elif tag == "failure":
            lines.append(f"    <failure message={quoteattr(_one_line(d.message))} type={quoteattr(d.code)}>{text}</failure>")
        else:
            lines.append(f"    <system-out>{text}</system-out>")
        lines.append("  </testcase>")
    lines.append("</testsuite>")
    return "\n".join(lines)


def _xml_text(s: str) -> str:
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _github_escape(s: str, prop: bool = False) -> str:
    # GitHub workflow-command escaping: content can never close the command or start another.
    s = s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        s = s.replace(":", "%3A").replace(",", "%2C")
    return s


def format_github(diags: list[Diagnostic]) -> str:
    out = []
    for d in sorted(diags, key=Diagnostic.sort_key):
        kind = {Severity.ERROR: "error", Severity.WARNING: "warning"}.get(d.severity, "notice")  # notes, acknowledged
        title = d.code + (" (acknowledged)" if d.severity is Severity.ACKNOWLEDGED else "")
        props = [f"title={_github_escape(title, True)}"]
        if d.file:
            props.insert(0, f"file={_github_escape(d.file, True)}")
            if d.line:
                props.insert(1, f"line={d.line},col={d.column}")
        msg = d.message + (f" (reason: {d.reason})" if d.severity is Severity.ACKNOWLEDGED
                           else f" (hint: {d.hint})" if d.hint else "")
        out.append(f"::{kind} {','.join(props)}::{_github_escape(msg)}")
    return "\n".join(out)


FORMATTERS = {"text": format_text, "json": format_json, "junit": format_junit, "github": format_github}
