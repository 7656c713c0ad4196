"""What the pages show of the translation state: the "may be out of date" mark on a stale text
(linking to the same place in the source language), and the status page of each language."""

from __future__ import annotations

from ..i18n import url_segment
from ..project import GameDoc, Project
from . import state as st
from .status import INTERFACE, rows
from .texts import entries, source_language

STATUS_PAGE = "translations"


def place(game_id: str, context: str) -> tuple[str, str]:
    """(page, label) where a text shows: the most precise label the templates are sure to write."""
    parts = context.split(".")
    top = parts[0]
    if top == "cards":
        page = "cards"
        if len(parts) > 3 and parts[2] == "cards":
            return page, f"{game_id}-{parts[3]}"
        return page, f"{game_id}-{parts[1]}" if len(parts) > 2 else f"{game_id}-cards"
    if top == "glossary":
        return "glossary", f"{game_id}-term-{parts[1]}" if len(parts) > 2 else f"{game_id}-glossary"
    if top == "components":
        return "components", f"{game_id}-in-the-box"
    if top == "rules" and len(parts) > 2:
        return "index", f"{game_id}-{parts[1]}"
    if top in ("setup", "actions", "scoring"):
        return "index", f"{game_id}-{top}"
    if top == "rounds":
        return "index", f"{game_id}-round"
    return "index", f"{game_id}-rulebook"


def stale_marks(game: GameDoc, project: Project, tag: str) -> dict[tuple[str, str], str]:
    """(source text, translation) of each stale text in `tag` -> the address of its source-language
    version, relative to the site root ('zh-tw/ulm/cards.html#ulm-card-x')."""
    src = source_language(game, project)
    if tag == src:
        return {}
    state, _ = st.read(game)
    out = {}
    for e in entries(game):
        if st.status(e, tag, src, state) == st.STALE:
            page, label = place(game.id, e.context)
            out[(e.text[src], e.text[tag])] = f"{url_segment(src)}/{game.id}/{page}.html#{label}"
    return out


def status_context(project: Project, tag: str, names: dict[str, str]) -> dict:
    """What the status page template needs: one row per game (and the interface strings), and
    the stale and missing texts of each game with the label of the place they show."""
    found = [r for r in rows(project, langs=[tag]) if r.lang == tag]
    games = []
    for r in found:
        if r.game == INTERFACE:
            continue
        items = [{"context": i["context"], "status": i["status"], "page": place(r.game, i["context"])[0],
                  "label": place(r.game, i["context"])[1]} for i in r.items]
        games.append({"id": r.game, "name": names.get(r.game, r.game), "row": r, "items": items})
    return {"games": games, "interface": next((r for r in found if r.game == INTERFACE), None),
            "is_source": [{"id": g, "name": names.get(g, g)} for g in project.games
                          if source_language(project.games[g], project) == tag]}
