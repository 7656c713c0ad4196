"""A content folder read and shaped: site.yaml plus one `GameDoc` per game folder.

`read_project` runs the load and model stages: YAML with positions, then the pydantic models.
Schema errors are turned into diagnostics that point at the value (or key) at fault.
"""

from __future__ import annotations

import difflib
import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import UnionType
from typing import Any, Union

from pydantic import BaseModel, ValidationError

from .diagnostics import Diagnostic
from .gcpause import collector_paused
from .load import Mark, Positions, load_file, load_game_dir
from .model import Game, Refused, Site


@dataclass
class GameDoc:
    id: str
    folder: Path
    raw: dict
    pos: Positions
    model: Game

    # model list index -> raw list index, for lists whose items with schema errors were left out
    # of the model (see `validate_game`): {("setup",): [0, 2, 3]}
    kept: dict[tuple, list[int]] = field(default_factory=dict)
    # what the model lacks because of schema errors: {"setup", "components", …} (checks that need
    # the whole of one of these skip it rather than report follow-on errors)
    partial: set[str] = field(default_factory=set)
    # ids of the items left out of the model: references to them are not reported again
    dropped_ids: set[str] = field(default_factory=set)
    # a digest of the YAML files' names and bytes as they were read ("": not known)
    files_digest: str = ""

    def raw_path(self, path) -> tuple:
        """The path in the raw data of a path in the model."""
        path = tuple(path)
        if self.kept and len(path) > 1:
            for prefix, kept in self.kept.items():
                n = len(prefix)
                if path[:n] == prefix and len(path) > n and isinstance(path[n], int) and path[n] < len(kept):
                    return prefix + (kept[path[n]],) + path[n + 1:]
        return path

    def where(self, path, key: bool = False) -> dict:
        path = self.raw_path(path)
        m = self.pos.of(path, key=key)
        return {"file": m.file, "line": m.line, "column": m.column, "at": self.at(path)} if m else {}

    def at(self, path) -> str:
        """The place of a raw path, by id (see `place`)."""
        return place(self.raw, path)


def place(raw, path) -> str:
    """A place in the data, by id: the id of the innermost item on the path, then the keys below it
    ('setup-room-cards.by_players'); without an item on the path, the path itself ('scoring.tables').
    Messages name places so, and `acknowledge: at:` matches them."""
    node, start, name = raw, 0, ""
    for i, part in enumerate(path):
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(node, dict) and isinstance(node.get("id"), str):
            start, name = i + 1, node["id"]
    rest = ".".join(str(p) for p in path[start:])
    return f"{name}.{rest}" if name and rest else name or rest


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
    """Diagnostics name files relative to the working folder, where a CI annotation or an editor
    looks for them; a content folder outside it is named in full (it was once named relative to
    its own parent, so `--content ../other/content` reported `content/…`: the wrong file)."""
    return Path.cwd().resolve()


def game_folders(content: Path) -> list[Path]:
    if not content.is_dir():
        return []
    return sorted(p for p in content.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def read_project(content: Path, only: list[str] | None = None) -> tuple[Project, list[Diagnostic]]:
    with collector_paused():
        return _read_project(content, only)


def _read_project(content: Path, only: list[str] | None) -> tuple[Project, list[Diagnostic]]:
    content = Path(content)
    root = _display_root(content)
    project = Project(content=content)
    diags: list[Diagnostic] = []

    site_file = content / "site.yaml"
    shown = _rel(site_file, root)
    if not site_file.is_file():
        diags.append(Diagnostic("RB004", f"{shown} is missing" + ("" if content.is_dir() else
                                f": there is no folder {_rel(content, root)}"), shown, 0, 0,
                                "create it with title:, languages: and default_language:" if content.is_dir()
                                else "check --content, or create the folder with a site.yaml"))
    else:
        data, pos, d = load_file(site_file.resolve(), shown)
        diags += d
        if data is not None:
            project.site_pos = pos
            project.site, d = validate(Site, data, pos)
            diags += d
    langs = project.languages or ["zh-TW", "es", "en"]

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
        hasher = hashlib.blake2b(digest_size=8)
        raw, pos, d = load_game_dir(folder.resolve(), root, hasher)
        diags += d
        if raw is None:
            continue
        game, d, shape = validate_game(raw, pos, langs, folder.name)
        diags += d
        if game is None:
            continue
        if game.id != folder.name:
            m = pos.of(("id",))
            diags.append(Diagnostic("RB201", f"the game id '{game.id}' differs from its folder name '{folder.name}'",
                                    m.file, m.line, m.column, f"set id: {folder.name} or rename the folder"))
            continue
        project.games[game.id] = GameDoc(game.id, folder, raw, pos, game, **shape, files_digest=hasher.hexdigest())
    return project, diags


# Stand-ins for required top-level values that have a schema error, so that the rest of the game
# is still checked (their own error is reported; nothing else depends on them).
# stand-ins for the model only (the checks read texts from the raw data); a text needs a language: und
_STANDINS = {"name": lambda: {"und": "?"}, "summary": lambda: {"und": "?"}, "designer": str, "colours": lambda: 1,
             "players": lambda: {"min": 1, "max": 1}}
_PASSES = 4  # leaving out items can reveal an error the first pass could not see (an emptied list)


def validate_game(raw: dict, pos: Positions, langs, folder: str):
    """The game's model, its schema diagnostics and how the model differs from the data.

    A schema error does not stop the checks of the rest of the game: the item of a list that
    holds it (a component, a setup step, a rule section…) is left out of the model, and an optional
    key in error is dropped; `kept`, `partial` and `dropped_ids` (see GameDoc) say what is missing,
    so that checks do not report what follows from it. Only the first pass's errors are reported:
    the later ones follow from what was left out."""
    try:
        return Game.model_validate(raw), [], {}
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
    diags = _diagnostics(Game, errors, raw, pos, langs)
    data = dict(raw)
    kept: dict[tuple, list[int]] = {}
    partial: set[str] = set()
    dropped: set[str] = set()
    for _ in range(_PASSES):
        drops: dict[tuple, set[int]] = {}
        for err in errors:
            loc = _trim(tuple(err["loc"]), data)
            # the outermost list item on the path (a component, a setup step, a section) is left out
            cut = next((i for i, part in enumerate(loc) if isinstance(part, int)
                        and isinstance(_value_at(data, loc[:i]), list)), None)
            if cut is not None and cut > 0:
                drops.setdefault(loc[:cut], set()).add(loc[cut])
                partial.add(str(loc[0]))
                continue
            top = loc[0] if loc else err["loc"][0] if err["loc"] else None
            if top is None:
                return None, diags, {}
            partial.add(str(top))
            if err["type"] == "extra_forbidden":
                if len(loc) == len(err["loc"]):  # else the mapping that held the key was left out already
                    _pop_at(data, loc)
            elif _drop_optional(data, loc):
                pass
            elif top in _STANDINS:
                data[top] = _STANDINS[top]()
            elif top == "id":
                data["id"] = folder
            else:
                return None, diags, {}  # a required part of the game is unusable: the checks need it
        for path, indices in drops.items():
            seq = _value_at(data, path)
            if path not in kept:
                kept[path] = list(range(len(seq)))
            for i in indices:
                dropped |= _ids_in(seq[i])
            kept[path] = [k for j, k in enumerate(kept[path]) if j not in indices]
            _set_at(data, path, [v for j, v in enumerate(seq) if j not in indices])
        try:
            game = Game.model_validate(data)
        except ValidationError as exc:
            errors = exc.errors(include_url=False)
            continue
        return game, diags, {"kept": kept, "partial": partial, "dropped_ids": dropped}
    return None, diags, {}


def _drop_optional(data: dict, loc: tuple) -> bool:
    """Leave out the innermost key on `loc` whose model field is optional; False if there is none."""
    for j in range(len(loc) - 1, -1, -1):
        m = model_at(Game, loc[:j])
        f = next((f for n, f in m.model_fields.items() if (f.alias or n) == loc[j]), None) if m else None
        if f is not None and not f.is_required():
            _pop_at(data, loc[:j + 1])
            return True
    return False


def _pop_at(data: dict, path: tuple) -> None:
    if len(path) == 1:
        data.pop(path[0], None)
        return
    child = data.get(path[0])
    if isinstance(child, dict):
        child = dict(child)
        data[path[0]] = child
        _pop_at(child, path[1:])


def _ids_in(node) -> set[str]:
    out = set()
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, dict):
            if isinstance(n.get("id"), str):
                out.add(n["id"])
            todo += [v for v in n.values() if isinstance(v, (dict, list))]
        elif isinstance(n, list):
            todo += [v for v in n if isinstance(v, (dict, list))]
    return out


def _set_at(data: dict, path: tuple, value) -> None:
    """Set the value at `path` in a copy of the mappings along it (the raw data stays as read)."""
    if len(path) == 1:
        data[path[0]] = value
        return
    child = dict(data[path[0]])
    data[path[0]] = child
    _set_at(child, path[1:], value)


def _rel(p: Path, root: Path) -> str:
    try:
        return str(p.resolve().relative_to(root))
    except ValueError:
        return str(p)


def model_at(model: type[BaseModel], path) -> type[BaseModel] | None:
    """The model class that describes the mapping at `path` of data shaped by `model` (None where
    the path leads to no model: a text, a table of values, a number)."""
    tp: Any = model
    for part in path:
        tp = _step_into(tp, part)
        if tp is None:
            return None
    return _as_model(tp)


def _as_model(tp) -> type[BaseModel] | None:
    """The model a type is, or is an optional of; None for anything else (a list of models too)."""
    while getattr(tp, "__metadata__", None) is not None:  # Annotated[T, ...]
        tp = tp.__origin__
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return tp
    if getattr(tp, "__origin__", None) is Union or isinstance(tp, UnionType):
        args = [a for a in tp.__args__ if a is not type(None)]
        return _as_model(args[0]) if len(args) == 1 else None
    return None


def _step_into(tp, part):
    """The type found one key or index below a value of type `tp`."""
    while getattr(tp, "__metadata__", None) is not None:  # Annotated[T, ...]
        tp = tp.__origin__
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        for name, f in tp.model_fields.items():
            if (f.alias or name) == part:
                return f.annotation
        return None
    args = [a for a in getattr(tp, "__args__", ()) or () if a is not type(None)]
    origin = getattr(tp, "__origin__", None)
    if origin in (Union,) or isinstance(tp, UnionType):
        for a in args:
            found = _step_into(a, part)
            if found is not None:
                return found
        return None
    if origin is list and isinstance(part, int):
        return args[0] if args else None
    if origin is dict:
        return args[1] if len(args) == 2 else None
    return None


def keys_at(model: type[BaseModel], path) -> list[str]:
    """The keys the schema allows in the mapping at `path` (empty where it is no model)."""
    m = model_at(model, path)
    return [f.alias or name for name, f in m.model_fields.items()] if m else []


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


def validate(model: type[BaseModel], data: dict, pos: Positions, langs=()):
    try:
        return model.model_validate(data), []
    except ValidationError as exc:
        return None, _diagnostics(model, exc.errors(include_url=False), data, pos, langs)


def _diagnostics(model: type[BaseModel], errors: list[dict], data: dict, pos: Positions, langs) -> list[Diagnostic]:
    grouped: dict[tuple, list[dict]] = {}
    for err in errors:
        loc = tuple(err["loc"])
        if err["type"] == "missing":
            key = ("missing", _trim(loc[:-1], data), loc[-1])
        elif err["type"] == "extra_forbidden":
            key = ("extra", _trim(loc[:-1], data), loc[-1])
        elif loc and loc[-1] == "[key]" and len(loc) > 1:
            key = ("tag" if _is_text_key(model, _trim(loc[:-2], data)) else "key", _trim(loc[:-2], data), loc[-2])
        else:
            key = ("type", _trim(loc, data), None)
        grouped.setdefault(key, []).append(err)
    diags = []
    file = pos.of(()).file if pos.of(()) else ""
    for (kind, path, name), errs in grouped.items():
        if kind == "missing":
            m = pos.of(path) or Mark(file, 0, 0)
            diags.append(Diagnostic("RB101", f"required key '{name}' is missing" + _where(data, path), m.file, m.line, m.column,
                                    f"add '{name}:' to this mapping"))
        elif kind == "extra":
            m = pos.of(path + (name,), key=True) or Mark(file, 0, 0)
            diags.append(Diagnostic("RB102", f"unknown key '{name}'" + _where(data, path), m.file, m.line, m.column,
                                    _unknown_key_hint(model, path, str(name), langs)))
        elif kind == "tag":
            m = pos.of(path + (name,), key=True) or Mark(file, 0, 0)
            close = _tag_like(str(name), langs)
            diags.append(Diagnostic("RB401", f"'{name}' is not a language tag" + _where(data, path), m.file, m.line, m.column,
                                    f"did you mean '{close}'?" if close else
                                    f"write a language tag of the site: {', '.join(langs)}"))
        elif kind == "key":  # a key of a mapping that is no model: a name in values:, a player count
            m = pos.of(path + (name,), key=True) or Mark(file, 0, 0)
            msgs = sorted({e["msg"] for e in errs})
            hint = ("a name is lower-case letters, digits and _, starting with a letter, e.g. cost"
                    if path and path[-1] == "values" else "see `rulebook schema` for the keys allowed here")
            diags.append(Diagnostic("RB100", f"key {name!r}: {'; or '.join(msgs)}" + _where(data, path),
                                    m.file, m.line, m.column, hint))
        else:
            m = pos.of(path) or Mark(file, 0, 0)
            value = _value_at(data, path)
            msgs = sorted({e["msg"].removeprefix("Value error, ") for e in errs if not e["type"].startswith("union")})
            got = type(value).__name__ if not isinstance(value, (dict, list)) else ("mapping" if isinstance(value, dict) else "list")
            hint = "quote the value if it is meant as text" if isinstance(value, (bool, int, float)) and not isinstance(value, str) else ""
            if isinstance(value, str):
                hint = _yaml11_hint(value)
            hint = hint or next((e["ctx"]["error"].hint for e in errs
                                 if isinstance((e.get("ctx") or {}).get("error"), Refused)), "")
            message = f"{'; or '.join(msgs)} (got {' '.join(filter(None, (got, _short(value))))})"
            if value == {} and all(e["type"] == "too_short" for e in errs):  # only a text asks for a mapping not empty
                message = "empty text"
                hint = f"write it in the site's languages: {', '.join(f'{lang}: …' for lang in langs or ('zh-TW', 'es', 'en'))}"
            diags.append(Diagnostic("RB100", message + _where(data, path),
                                    m.file, m.line, m.column, hint or "see `rulebook schema` for the expected type"))
    return diags


def _is_text_key(model, path) -> bool:
    """Whether `path` holds a text or another mapping keyed by language tags (not `values:` or a
    table by player count, whose keys are names and numbers)."""
    tp: Any = model
    for part in path:
        tp = _step_into(tp, part)
        if tp is None:
            return True  # a type the path cannot follow: read it as a text, as before
    return _as_model(tp) is None and _keyed_by_language(tp)


def _keyed_by_language(tp) -> bool:
    from .model import LangTag
    while getattr(tp, "__metadata__", None) is not None:  # Annotated[T, ...]
        tp = tp.__origin__
    if getattr(tp, "__origin__", None) is dict:
        return tp.__args__[0] == LangTag
    return any(_keyed_by_language(a) for a in getattr(tp, "__args__", ()) or ())


def _tag_like(name: str, langs) -> str:
    """The site's language tag that `name` misspells: zh-tw, zh_TW, ZH-TW → zh-TW; 'En' → en."""
    norm = name.replace("_", "-").lower()
    for tag in langs:
        if tag.lower() == norm:
            return tag
    close = difflib.get_close_matches(norm, [t.lower() for t in langs], n=1, cutoff=0.6)
    return next((t for t in langs if close and t.lower() == close[0]), "")


def _unknown_key_hint(model, path, name: str, langs) -> str:
    allowed = keys_at(model, path)
    tag = _tag_like(name, langs) if name.lower().replace("_", "-") in {t.lower() for t in langs} else ""
    if tag:
        m = model_at(model, path)
        texts = [k for k in allowed if m is not None and _is_text_field(m, k)]
        where = f" such as {', '.join(texts[:4])}" if texts else ""
        return f"'{name}' is a language: indent it under the text it belongs to{where}"
    close = _did_you_mean(name, allowed)
    if close:
        return close
    if allowed:
        return f"the keys allowed here: {', '.join(allowed)}"
    return "remove it; see `rulebook schema` for the keys allowed here"


def _is_text_field(m: type[BaseModel], key: str) -> bool:
    f = next((f for n, f in m.model_fields.items() if (f.alias or n) == key), None)
    return f is not None and _mentions_text(f.annotation)


def _mentions_text(tp) -> bool:
    from .model import Text
    return tp is Text or tp == Text.__origin__ or any(_mentions_text(a) for a in getattr(tp, "__args__", ()) or () if a is not str)


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


def _where(data, path: tuple) -> str:
    return f" in {place(data, path)}" if path else ""


def _value_at(data, path):
    for p in path:
        data = data[p]
    return data


def _short(value) -> str:
    if isinstance(value, (dict, list)):
        return ""
    s = repr(value)
    return s if len(s) <= 40 else s[:37] + "..."
