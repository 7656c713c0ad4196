"""`rulebook translations export`: one file per game for one language, in DIR/<lang>/."""

from __future__ import annotations

from pathlib import Path

from ..project import Project
from . import po, xliff
from .notes import units
from .texts import source_language

SUFFIX = {"po": ".po", "xliff": ".xlf"}


def export(project: Project, lang: str, fmt: str, out: Path, games: list[str] | None = None) -> list[tuple[Path, int]]:
    """Write the files; returns (path, number of texts) of each. A game whose source language is
    `lang` has nothing to translate into it and gets no file."""
    folder = Path(out) / lang
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for gid in _games(project):
        if games and gid not in games:
            continue
        game = project.games[gid]
        src = source_language(game, project)
        if src == lang:
            continue
        found = units(game, project, lang)
        text = (po.write if fmt == "po" else xliff.write)(found, gid, lang, src)
        path = folder / f"{gid}{SUFFIX[fmt]}"
        data = text.encode("utf-8")
        if not path.is_file() or path.read_bytes() != data:
            path.write_bytes(data)
        written.append((path, len(found)))
    return written


def _games(project: Project) -> list[str]:
    order = [g for g in (project.site.games or []) if g in project.games]
    return order + sorted(set(project.games) - set(order))
