"""A content folder read and shaped: site.yaml plus one `GameDoc` per game folder.

`read_project` runs the load and model stages: YAML with positions, then the pydantic models.
Schema errors are turned into diagnostics that point at the value (or key) at fault.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from .diagnostics import Diagnostic
from .load import Mark, Positions, load_file, load_game_dir
from .model import FIELD_NAMES, Game, Site


@dataclass
class GameDoc:
    id: str
    folder: Path
    raw: dict
    pos: Positions
    model: Game

    def where(self, path, key: bool = False) -> dict:
        m = self.pos.of(tuple(path), key=key)
        return {"file": m.file, "line": m.line, "column": m.column} if m else {}


@dataclass
class Project:
    content: Path
    site: Site | None = None
    site_pos: Positions = field(default_factory=Positions)
    games: dict[str, GameDoc] = field(default_factory=dict)
    # what simulated play found, per game: {(players, mode): check.simulate.Facts}; pages show it
    facts: dict[str, dict] = field(default_factory=dict)

    @property
    def languages(self) -> list[str]:
        return [lang.tag for lang in self.site.languages] if self.site else []


def _display_root(content: Path) -> Path:
    # Diagnostics name files as the user wrote them: relative to the working folder when possible.
    try:
        content.resolve().relative_to(Path.cwd().resolve())
        return Path.cwd().resolve()
    except ValueError:
        return content.resolve().parent


def game_folders(content: Path) -> list[Path]:
    if not content.is_dir():
        return []
    return sorted(p for p in content.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def read_project(content: Path, only: list[str] | None = None) -> tuple[Project, list[Diagnostic]]:
    content = Path(content)
    root = _display_root(content)
    project = Project(content=content)
    diags: list[Diagnostic] = []

    site_file = content / "site.yaml"
    shown = _rel(site_file, root)
    if not site_file.is_file():
        diags.append(Diagnostic("RB004", "content/site.yaml is missing", shown, 0, 0,
                                "create it with title:, languages: and default_language:"))
    else:
        data, pos, d = load_file(site_file.resolve(), shown)
        diags += d
        if data is not None:
            project.site_pos = pos
            project.site, d = validate(Site, data, pos)
            diags += d

    folders = game_folders(content)
    names = [f.name for f in folders]
    if only:
        for g in only:
            if g not in names:
                hint = _did_you_mean(g, names) or f"games here: {', '.join(names) or 'none'}"
                diags.append(Diagnostic("RB005", f"no game '{g}' in {_rel(content, root)}", _rel(content, root), 0, 0, hint))
        folders = [f for f in folders if f.name in only]
    elif not folders:
        diags.append(Diagnostic("RB005", "the content folder holds no game folder", _rel(content, root), 0, 0,
                                "add a folder such as content/ulm/ with a game.yaml"))

    for folder in folders:
        raw, pos, d = load_game_dir(folder.resolve(), root)
        diags += d
        if raw is None:
            continue
        game, d = validate(Game, raw, pos)
        diags += d
        if game is None:
            continue
        if game.id != folder.name:
            m = pos.of(("id",))
            diags.append(Diagnostic("RB201", f"the game id '{game.id}' differs from its folder name '{folder.name}'",
                                    m.file, m.line, m.column, f"set id: {folder.name} or rename the folder"))
            continue
        project.games[game.id] = GameDoc(game.id, folder, raw, pos, game)
    return project, diags


def _rel(p: Path, root: Path) -> str:
    try:
        return str(p.resolve().relative_to(root))
    except ValueError:
        return str(p)


def _did_you_mean(word: str, options) -> str:
    close = difflib.get_close_matches(str(word), list(options), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else ""


def _trim(loc: tuple, data: Any) -> tuple:
    """Keep the part of a pydantic error location that is a real path in the data."""
    path = []
    cur = data
    for part in loc:
        if isinstance(cur, dict) and part in cur:
            cur = cur[part]
        elif isinstance(cur, dict) and isinstance(part, str) and part.isdigit() and int(part) in cur:
            part = int(part)
            cur = cur[part]
        elif isinstance(cur, list) and isinstance(part, int) and 0 <= part < len(cur):
            cur = cur[part]
        else:
            break
        path.append(part)
    return tuple(path)


def validate(model: type[BaseModel], data: dict, pos: Positions):
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    grouped: dict[tuple, list[dict]] = {}
    for err in errors:
        loc = tuple(err["loc"])
        if err["type"] == "missing":
            key = ("missing", _trim(loc[:-1], data), loc[-1])
        elif err["type"] == "extra_forbidden":
            key = ("extra", _trim(loc[:-1], data), loc[-1])
        else:
            key = ("type", _trim(loc, data), None)
        grouped.setdefault(key, []).append(err)
    diags = []
    file = pos.of(()).file if pos.of(()) else ""
    for (kind, path, name), errs in grouped.items():
        if kind == "missing":
            m = pos.of(path) or Mark(file, 0, 0)
            diags.append(Diagnostic("RB101", f"required key '{name}' is missing" + _where(path), m.file, m.line, m.column,
                                    f"add '{name}:' to this mapping"))
        elif kind == "extra":
            m = pos.of(path + (name,), key=True) or Mark(file, 0, 0)
            hint = _did_you_mean(name, FIELD_NAMES) or "remove it; see `rulebook schema` for the keys allowed here"
            diags.append(Diagnostic("RB102", f"unknown key '{name}'" + _where(path), m.file, m.line, m.column, hint))
        else:
            m = pos.of(path) or Mark(file, 0, 0)
            value = _value_at(data, path)
            msgs = sorted({e["msg"] for e in errs if not e["type"].startswith("union")})
            got = type(value).__name__ if not isinstance(value, (dict, list)) else ("mapping" if isinstance(value, dict) else "list")
            hint = "quote the value if it is meant as text" if isinstance(value, (bool, int, float)) and not isinstance(value, str) else ""
            if isinstance(value, str):
                hint = _yaml11_hint(value)
            diags.append(Diagnostic("RB100", f"{'; or '.join(msgs)} (got {got} {_short(value)})" + _where(path),
                                    m.file, m.line, m.column, hint or "see `rulebook schema` for the expected type"))
    return None, diags


# Values YAML 1.1 would have read as booleans or numbers; the loader reads them as text (YAML 1.2
# core rules, see docs/limits.md), so where the schema wants a boolean or a number, say why.
_YAML11 = [
    (re.compile(r"(?i)yes|no|on|off|y|n"), "write true or false: yes/no/on/off are text"),
    (re.compile(r"(?i)[-+]?\.(?:nan|inf)"), "write a finite number: .nan and .inf are refused"),
    (re.compile(r"(?i)[-+]?0[xob][0-9a-f_]+"), "write the number in decimal: hexadecimal, octal and binary numbers are text"),
    (re.compile(r"[-+]?0[0-9_]+(?:\.[0-9]*)?"), "write the number without leading zeros: 007 is text"),
    (re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?"),
     "write the number in decimal: 1:30 is text, not a base-60 number"),
    (re.compile(r"[-+]?[0-9]+(?:_[0-9]+)+(?:\.[0-9_]*)?"), "write the number without underscores"),
]


def _yaml11_hint(value: str) -> str:
    for pattern, hint in _YAML11:
        if pattern.fullmatch(value.strip()):
            return hint
    return ""


def _where(path: tuple) -> str:
    return f" in {'.'.join(str(p) for p in path)}" if path else ""


def _value_at(data, path):
    for p in path:
        data = data[p]
    return data


def _short(value) -> str:
    if isinstance(value, (dict, list)):
        return ""
    s = repr(value)
    return s if len(s) <= 40 else s[:37] + "..."
