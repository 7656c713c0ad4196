"""Ids are unique within a game and every reference resolves to an id of the right sort."""

from __future__ import annotations

import difflib

from ..diagnostics import Diagnostic
from ..engine.setup import BOX
from ..project import GameDoc, Project, game_folders
from .texts import walked


def _hint(name: str, options) -> str:
    close = difflib.get_close_matches(name, sorted(options), n=1, cutoff=0.5)
    if close:
        return f"did you mean '{close[0]}'?"
    return f"known: {', '.join(sorted(options)[:12])}" if options else "none are defined"


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    seen: dict[str, tuple] = {}
    mappings = walked(game.raw)[0]
    for path, node in mappings:
        ident = node.get("id")
        if not isinstance(ident, str) or (path and path[-1] in ("values",)):
            continue
        if path == ():
            continue
        if ident in seen:
            first = game.where(seen[ident] + ("id",))
            diags.append(Diagnostic("RB200", f"duplicate id '{ident}' (first at {first.get('file')}:{first.get('line')})",
                                    hint="ids are unique within a game; rename one", **game.where(path + ("id",))))
        else:
            seen[ident] = path

    g = game.model
    sorts = {
        "component": {c.id for c in g.components},
        "zone": {z.id for z in g.zones} | {BOX},
        "mode": {m.id for m in g.modes},
        "gap": {x.id for x in g.gaps},
        "source": {s.id for s in g.sources},
    }
    kinds_of = {c.id: {k.id for k in c.kinds} for c in g.components}

    def ref(path, sort: str, name: str, options=None) -> None:
        options = sorts[sort] if options is None else options
        if name not in options and name not in game.dropped_ids:  # a dropped item has its own schema error
            diags.append(Diagnostic("RB201", f"unknown {sort} '{name}'", hint=_hint(name, options), **game.where(path)))

    for path, node in mappings:
        for key, sort in (("gap", "gap"), ("source", "source")):
            if isinstance(node.get(key), str):
                ref(path + (key,), sort, node[key])
            elif isinstance(node.get(key), list) and path != ():
                for i, name in enumerate(node[key]):
                    if isinstance(name, str):
                        ref(path + (key, i), sort, name)
        if isinstance(node.get("modes"), list) and path != ():
            for i, m in enumerate(node["modes"]):
                if isinstance(m, str):
                    ref(path + ("modes", i), "mode", m)

    for i, step in enumerate(g.setup):
        base = ("setup", i)
        if step.component:
            ref(base + ("component",), "component", step.component)
        if step.from_:
            ref(base + ("from",), "zone", step.from_)
        if step.to:
            ref(base + ("to",), "zone", step.to)
        kinds = kinds_of.get(step.component or "", set())
        if step.kind and step.component in kinds_of:
            ref(base + ("kind",), "kind", step.kind, kinds)
        for k in step.kinds or {}:
            if step.component in kinds_of:
                ref(base + ("kinds", k), "kind", k, kinds)
        if (step.count is not None or step.per_player is not None or step.by_players) and not step.component:
            diags.append(Diagnostic("RB201", "a step that moves pieces must name its component",
                                    hint="add component: <id>", **game.where(base)))
    for gi, group in enumerate(g.cards):
        ref(("cards", gi, "component"), "component", group.component)
        for ci, card in enumerate(group.cards):
            if card.kind and group.component in kinds_of:
                ref(("cards", gi, "cards", ci, "kind"), "kind", card.kind, kinds_of[group.component])
    return diags


def check_site(project: Project) -> list[Diagnostic]:
    site = project.site
    if site is None:
        return []
    diags = []
    pos = project.site_pos

    def at(path):
        m = pos.of(path)
        return {"file": m.file, "line": m.line, "column": m.column} if m else {}

    tags = [lang.tag for lang in site.languages]
    if site.default_language not in tags:
        diags.append(Diagnostic("RB201", f"default_language '{site.default_language}' is not among the languages",
                                hint=f"one of: {', '.join(tags)}", **at(("default_language",))))
    for i, t in enumerate(tags):
        if t in tags[:i]:
            diags.append(Diagnostic("RB200", f"language '{t}' is listed twice", **at(("languages", i, "tag"))))
    folders = {f.name for f in game_folders(project.content)}
    for i, gid in enumerate(site.games or []):
        if gid not in folders:
            diags.append(Diagnostic("RB201", f"site lists game '{gid}' but there is no folder for it",
                                    hint=_hint(gid, folders), **at(("games", i))))
    return diags
