"""How far each language is: texts and words translated, stale and missing, per game and for
the interface strings of locale/ (`rulebook translations status`, and the site's status page)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

from ..project import Project
from . import state as st
from .texts import entries, source_language, words

INTERFACE = "(interface)"  # the game column of the locale/ catalogs' row


@dataclass
class Row:
    game: str
    lang: str
    source: str
    texts: int = 0
    translated: int = 0  # present and not stale
    stale: int = 0
    missing: int = 0
    unrecorded: int = 0  # translated, but nothing records which source it follows
    words: int = 0  # of the source texts
    words_translated: int = 0
    items: list[dict] = field(default_factory=list)  # the stale and missing texts: context, status, path

    @property
    def percent(self) -> float:
        return 100.0 if not self.texts else round(100 * self.translated / self.texts, 1)


def game_rows(project: Project, games: list[str] | None = None, langs: list[str] | None = None) -> list[Row]:
    rows = []
    order = [g for g in (project.site.games or []) if g in project.games]
    for gid in order + sorted(set(project.games) - set(order)):
        if games and gid not in games:
            continue
        game = project.games[gid]
        state, _ = st.read(game)
        src = source_language(game, project)
        found = entries(game)
        for lang in project.languages:
            if lang == src or (langs and lang not in langs):
                continue
            row = Row(gid, lang, src)
            for e in found:
                s = st.status(e, lang, src, state)
                if s is None:
                    continue
                n = words(e.text[src])
                row.texts += 1
                row.words += n
                if s in (st.CURRENT, st.UNRECORDED):
                    row.translated += 1
                    row.words_translated += n
                    row.unrecorded += s == st.UNRECORDED
                else:
                    setattr(row, s, getattr(row, s) + 1)
                    row.items.append({"context": e.context, "status": s, "path": list(e.path)})
            rows.append(row)
    return rows


def interface_rows(project: Project, langs: list[str] | None = None) -> list[Row]:
    """The interface strings: every msgid of locale/rulebook.pot, against each language's catalog
    (English is their source; a fuzzy entry counts as stale)."""
    from babel.messages.pofile import read_po

    from ..i18n import LOCALE_DIR, DOMAIN, babel_locale
    pot = LOCALE_DIR / f"{DOMAIN}.pot"
    with pot.open("rb") as f:
        ids = [m.id for m in read_po(f) if m.id]
    rows = []
    for lang in project.languages:
        if lang.split("-")[0] == "en" or (langs and lang not in langs):
            continue
        row = Row(INTERFACE, lang, "en")
        po = LOCALE_DIR / babel_locale(lang) / "LC_MESSAGES" / f"{DOMAIN}.po"
        cat = {}
        if po.is_file():
            with po.open("rb") as f:
                cat = {m.id: m for m in read_po(f) if m.id}
        for msgid in ids:
            row.texts += 1
            n = words(msgid)
            row.words += n
            m = cat.get(msgid)
            if m is None or not m.string:
                row.missing += 1
                row.items.append({"context": msgid, "status": st.MISSING, "path": []})
            elif m.fuzzy:
                row.stale += 1
                row.items.append({"context": msgid, "status": st.STALE, "path": []})
            else:
                row.translated += 1
                row.words_translated += n
        rows.append(row)
    return rows


def rows(project: Project, games=None, langs=None, interface: bool = True) -> list[Row]:
    out = game_rows(project, games, langs)
    return out + (interface_rows(project, langs) if interface else [])


_COLUMNS = ("game", "lang", "texts", "translated", "stale", "missing", "words", "%")


def _cells(r: Row) -> list[str]:
    return [r.game, r.lang, str(r.texts), str(r.translated), str(r.stale), str(r.missing),
            f"{r.words_translated}/{r.words}", f"{r.percent:.1f}"]


def format_text(rows: list[Row]) -> str:
    table = [list(_COLUMNS)] + [_cells(r) for r in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(_COLUMNS))]
    lines = ["  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))).rstrip()
             for row in table]
    return "\n".join(lines)


def format_markdown(rows: list[Row]) -> str:
    out = ["## Translation status", "", "| " + " | ".join(_COLUMNS) + " |",
           "|" + "|".join(["---"] * 2 + ["---:"] * (len(_COLUMNS) - 2)) + "|"]
    for r in rows:
        out.append("| " + " | ".join(c.replace("|", "\\|") for c in _cells(r)) + " |")
    return "\n".join(out)


def format_json(rows: list[Row]) -> str:
    return json.dumps([dict(asdict(r), percent=r.percent) for r in rows], ensure_ascii=False, indent=2)


FORMATS = {"text": format_text, "markdown": format_markdown, "json": format_json}
