"""`rulebook translations import`: translators' PO and XLIFF files back into the YAML.

Every entry is checked first; one refused entry (its source changed since the export, its context
names no text, its placeholders or numbers differ from the source's) stops the whole import, with
a diagnostic at the entry's line, and no file is written. Fuzzy entries are skipped unless
`fuzzy` (then their text is written, but stays stale). Accepted translations are written over
their scalar's span only (`yamledit`); each changed file is read back and compared with what was
meant before it replaces the old one. Imported, non-fuzzy translations are recorded as current
in translations.lock. Then the games are validated (static checks) and the findings returned.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path

from ..diagnostics import Diagnostic, has_errors
from ..limits import INVISIBLE, MAX_FILE_BYTES, MAX_LINE_CHARS
from ..load import _BAD_CHAR, load_text
from ..project import GameDoc, Project, read_project
from ..check.texts import _set
from ..text import numbers, placeholders
from . import po, state as st, xliff, yamledit
from .texts import Entry, entries, message, same_text, source_language


# A translator's file holds a game's texts in two languages, with comments: a few times its YAML.
MAX_IMPORT_BYTES = 4 * MAX_FILE_BYTES


@dataclass
class Change:
    game: GameDoc
    entry: Entry
    lang: str
    value: str
    record: bool  # mark current (not a fuzzy entry)


def _read(path: Path) -> tuple[dict, list, list[Diagnostic]]:
    shown = str(path)
    try:
        if path.stat().st_size > MAX_IMPORT_BYTES:
            return {}, [], [Diagnostic("RB410", f"the file is over the cap of {MAX_IMPORT_BYTES} bytes", shown, 1, 1,
                                       "a game's file is far smaller: export it again")]
        data = path.read_bytes()
    except OSError as e:
        return {}, [], [Diagnostic("RB410", f"cannot read the file: {e.strerror}", shown)]
    if path.suffix.lower() in (".xlf", ".xliff") or data.lstrip()[:5] == b"<?xml":
        return xliff.read(data, shown)
    return po.read(data, shown)


def _lang(project: Project, tag: str) -> str | None:
    tag = tag.replace("_", "-").lower()
    return next((lang for lang in project.languages if lang.lower() == tag), None)


def check_file(project: Project, path: Path) -> tuple[list[Change], list[Diagnostic], int]:
    """The changes one file asks for (fuzzy entries included, with record=False), the diagnostics
    of the entries refused, and how many of the changes are fuzzy."""
    shown = str(path)
    header, found, diags = _read(path)
    if diags:
        return [], diags, 0
    gid = header.get("X-Rulebook-Game") or path.stem
    game = project.games.get(gid)
    if game is None:
        return [], [Diagnostic("RB410", f"the file is for game '{gid}', which is not in {project.content}", shown, 1, 1,
                               "export the file again with `rulebook translations export`")], 0
    lang = _lang(project, header.get("Language", "") or path.parent.name)
    src = source_language(game, project)
    if lang is None or lang == src:
        said = header.get("Language", "") or "none"
        return [], [Diagnostic("RB410", f"the file's language ({said}) is not one the site translates {gid} into "
                               f"(site languages: {', '.join(project.languages)}; source: {src})", shown, 1, 1,
                               "set the Language header to the language of the translations")], 0
    return _check_entries(project, game, lang, src, found, shown)


def _check_entries(project, game, lang, src, found, shown) -> tuple[list[Change], list[Diagnostic], int]:
    by_context = {e.context: e for e in entries(game)}
    changes, diags, fuzzy = [], [], 0
    for r in found:
        if not r.target.strip():
            continue
        where = {"file": shown, "line": r.line or 1, "column": 1}
        e = by_context.get(r.context or "")
        if e is None:
            diags.append(Diagnostic("RB411", f"no text of {game.id} has the context '{r.context}'",
                                    hint="the text was removed or renamed since the export; export again", **where))
            continue
        if src not in e.text:
            continue
        source = e.text[src]
        if not same_text(r.source, source):
            diags.append(Diagnostic("RB412", f"the {src} text of {r.context} changed since the export",
                                    hint="export again and translate the new text", **where))
            continue
        if placeholders(r.target) != placeholders(source):
            diags.append(Diagnostic("RB402", f"the {lang} translation of {r.context} uses {_set(placeholders(r.target))} "
                                    f"but the {src} text uses {_set(placeholders(source))}",
                                    hint="keep every {placeholder} of the source, spelled alike", **where))
            continue
        if numbers(r.target, lang) != numbers(source, src):
            diags.append(Diagnostic("RB404", f"the {lang} translation of {r.context} states {_set(numbers(r.target, lang))} "
                                    f"but the {src} text states {_set(numbers(source, src))}",
                                    hint="a number that differs from the source is a mistranslation", **where))
            continue
        bad = _BAD_CHAR.search(r.target)
        if bad:
            o = ord(bad.group())
            diags.append(Diagnostic("RB006", f"the {lang} translation of {r.context} holds "
                                    + (f"the invisible character U+{o:04X} {INVISIBLE[o]}" if o in INVISIBLE
                                       else f"the control character U+{o:04X}"),
                                    hint="delete it: content text may not hold it", **where))
            continue
        if len(r.target) > MAX_LINE_CHARS:
            diags.append(Diagnostic("RB007", f"the {lang} translation of {r.context} is over the cap of "
                                    f"{MAX_LINE_CHARS} characters", hint="no rule text needs this length", **where))
            continue
        if r.fuzzy:
            fuzzy += 1
        changes.append(Change(game, e, lang, r.target, record=not r.fuzzy))
    return changes, diags, fuzzy


def import_files(content: Path, files: list[Path], fuzzy: bool = False) -> tuple[list[Diagnostic], int]:
    """Import the files; returns (diagnostics, number of YAML values changed)."""
    project, diags = read_project(content)
    if has_errors(diags) or project.site is None:
        return diags, 0
    changes: list[Change] = []
    for path in files:
        found, d, _ = check_file(project, Path(path))
        diags += d
        changes += [c for c in found if fuzzy or c.record]
    if has_errors(diags):
        return diags, 0
    changed, diags2 = _write(project, changes)
    diags += diags2
    if has_errors(diags2):
        return diags, 0
    from ..check import run
    games = sorted({c.game.id for c in changes})
    if games:
        checked, found = read_project(content, games)
        diags += found + run(checked, simulation=False)
    return diags, changed


def _write(project: Project, changes: list[Change]) -> tuple[int, list[Diagnostic]]:
    """Write the YAML files and the state files; nothing at all when one file cannot be written safely."""
    by_file: dict[Path, list[Change]] = {}
    for c in changes:
        src = source_language(c.game, project)
        m = c.game.pos.of(c.entry.path + (src,))
        by_file.setdefault(c.game.folder / Path(m.file).name, []).append(c)
    new_texts: dict[Path, str] = {}
    changed = 0
    for path, group in sorted(by_file.items()):
        text = path.read_text(encoding="utf-8")
        new, n, diag = _edit(project, path, text, group)
        if diag:
            return 0, [diag]
        if n:
            new_texts[path] = new
            changed += n
    for path, new in new_texts.items():
        tmp = path.with_name(path.name + ".rulebook-tmp")
        tmp.write_bytes(new.encode("utf-8"))
        tmp.replace(path)
    by_game: dict[str, list[Change]] = {}
    for c in changes:
        by_game.setdefault(c.game.id, []).append(c)
    for gid, group in by_game.items():
        game = project.games[gid]
        state, _ = st.read(game)
        st.settle(game, project, state)
        src = source_language(game, project)
        for c in group:
            if c.record:
                state.put(c.entry.context, c.lang, c.entry.text[src])
        state.exists = True
        st.write(game, state)
    return changed, []


def _edit(project: Project, path: Path, text: str, group: list[Change]) -> tuple[str, int, Diagnostic | None]:
    group = [c for c in group if c.entry.text.get(c.lang) is None or message(c.entry.text[c.lang]) != c.value]
    if not group:  # every translation is the one the file holds: nothing to find, nothing to write
        return text, 0, None
    scalars, maps = yamledit.locate(text)
    edits, expected = [], []
    for c in group:
        key = c.entry.path + (c.lang,)
        now = c.entry.text.get(c.lang)
        if now is not None and key in scalars:
            span = scalars[key]
            flow = maps[c.entry.path].flow if c.entry.path in maps else False
            edits.append(yamledit.replace_scalar(text, span, c.value, flow))
        else:
            info = maps.get(c.entry.path)
            if info is None or not info.keys:
                return text, 0, Diagnostic("RB410", f"cannot find the text {c.entry.context} in the file", str(path))
            order = project.languages
            before = [k for k in info.keys if k in order and order.index(k) < order.index(c.lang)]
            after = before[-1] if before else list(info.keys)[-1]
            edits.append(yamledit.insert_key(text, info, after, scalars, c.entry.path, c.lang, c.value))
        expected.append((key, c.value))
    if not edits:
        return text, 0, None
    new = yamledit.apply(text, edits)
    if not _reads_as_meant(text, new, expected, str(path)):
        return text, 0, Diagnostic("RB410", "the translations could not be written without changing something else "
                                   "in the file; nothing was written", str(path), 1, 1,
                                   "please report this with the file and the PO entry")
    return new, len(edits), None


def _reads_as_meant(old: str, new: str, expected: list[tuple[tuple, str]], shown: str) -> bool:
    before, _, d1 = load_text(old, shown)
    after, _, d2 = load_text(new, shown)
    if d1 or d2 or before is None or after is None:
        return False
    want = copy.deepcopy(before)
    for path, value in expected:
        node = want
        for p in path[:-1]:
            node = node[p]
        old_value = node.get(path[-1])
        node[path[-1]] = value + ("\n" if isinstance(old_value, str) and old_value.endswith("\n") else "")
    for path, value in expected:  # a block scalar's own line break follows its header, not the translator
        node = after
        for p in path[:-1]:
            node = node[p]
        if isinstance(node.get(path[-1]), str) and message(node[path[-1]]) == value:
            w = want
            for p in path[:-1]:
                w = w[p]
            w[path[-1]] = node[path[-1]]
    return want == after
