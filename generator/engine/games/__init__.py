"""Engine modules: what one game needs that its data cannot say, found through an entry point.

A module registers the game id it plays in the `rulebook.engines` entry-point group of its
distribution (as pytest plugins and Sphinx extensions are found), so a publisher ships one as an
installed package and never as a file in content/. The four shipped modules are registered the
same way in rulebook's own pyproject.toml:

    [project.entry-points."rulebook.engines"]
    ulm = "generator.engine.games.ulm"

The object an entry point names (usually a module) provides `new_state(game, setup, seed, box,
endless, params)`, returning a `State` subclass with the rules, and optionally
`parameters(game, rng)` (the facts the sources leave out, sampled per simulated game; default
none) and `kind_counts(game, params)` (counts of kinds the data leaves unknown, for setup;
default none). docs/engine.md documents the API. A game without a module is simulated as far
as its data goes: setup for every player count and mode, invariants checked on the result;
`rulebook validate` says so ("setup only").
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

GROUP = "rulebook.engines"

# Explicit entries win over discovery: {game id: import name}. Tests point a fixture game at a
# module of their own (monkeypatch.setitem(MODULES, "tiny", __name__)).
MODULES: dict[str, str] = {}


class EngineError(Exception):
    """An engine module could not be used: it failed to import, lacks `new_state`, or two
    installed distributions register the same game. Turned into RB606 by check/simulate.py."""


@dataclass(frozen=True)
class Engine:
    """An engine module as the simulation calls it, with the optional functions filled in."""

    name: str  # where it came from: "generator.engine.games.ulm (rulebook 0.1.0)"
    new_state: Callable
    parameters: Callable
    kind_counts: Callable


def _no_parameters(game, rng) -> dict:
    return {}


def _no_kind_counts(game, params) -> None:
    return None


@lru_cache(maxsize=1)
def registered() -> dict[str, list[tuple[str, str]]]:
    """{game id: [(import value, distribution), …]} of every installed entry point of the group
    (read once per process: scanning the installed distributions costs some milliseconds).
    Each distribution is read once, the first found on sys.path winning (as importlib.metadata's
    `entry_points()` does); unlike `entry_points()`, which keeps only the first of two
    distributions naming the same game, every claim is kept, so that a clash is reported."""
    from importlib.metadata import distributions
    out: dict[str, list[tuple[str, str]]] = {}
    seen: set[str] = set()
    for dist in distributions():
        # the name from the metadata folder's name, as entry_points() has it: reading every
        # distribution's METADATA would cost a quarter of a second
        name = getattr(dist, "_normalized_name", None) or re.sub(r"[-_.]+", "_", dist.metadata["Name"] or "").lower()
        if name in seen:  # the same distribution again, further down sys.path (a stale egg-info)
            continue
        seen.add(name)
        for ep in dist.entry_points:
            if ep.group == GROUP:
                out.setdefault(ep.name, []).append((ep.value, f"{dist.metadata['Name']} {dist.version}"))
    return out


def _load(value: str, where: str) -> Engine:
    module, _, attr = value.partition(":")
    try:
        obj: Any = importlib.import_module(module.strip())
        for part in filter(None, attr.strip().split(".")):
            obj = getattr(obj, part)
    except Exception as e:  # an installed plugin that fails to import: reported, never raised
        raise EngineError(f"the engine module {value} ({where}) failed to load: {type(e).__name__}: {e}") from e
    new_state = getattr(obj, "new_state", None)
    if not callable(new_state):
        raise EngineError(f"the engine module {value} ({where}) has no new_state(game, setup, seed, box, endless, params)")
    return Engine(f"{value} ({where})", new_state, getattr(obj, "parameters", _no_parameters),
                  getattr(obj, "kind_counts", _no_kind_counts))


def find(game_id: str) -> Engine | None:
    """The engine of a game, or None (setup only). Raises EngineError when one is registered but
    cannot be used."""
    if game_id in MODULES:
        return _load(MODULES[game_id], "set in generator.engine.games.MODULES")
    found = registered().get(game_id, [])
    if len(found) > 1:
        raise EngineError(f"{len(found)} installed distributions register an engine for '{game_id}': "
                          + ", ".join(f"{v} ({d})" for v, d in found))
    return _load(*found[0]) if found else None


def module_for(game_id: str) -> Engine | None:
    """The engine of a game, or None when it has none or it cannot be used (check/simulate.py
    reports that as RB606 before any game is played)."""
    try:
        return find(game_id)
    except EngineError:
        return None
