"""Game modules: what one game needs that its data cannot say, written against the core.

A module is found by the game's id, hyphens read as underscores (`ulm` →
`generator.engine.games.ulm`, `castles-of-mad-king-ludwig` → `…games.castles_of_mad_king_ludwig`),
so adding a game's module touches no shared registry. It provides:
`parameters(game, rng)` (the facts the sources leave out, sampled per simulated game),
`kind_counts(params)` (counts of kinds the data leaves unknown, for setup) and
`new_state(game, setup, seed, box, endless, params)` (a `State` subclass with the rules).
A game without a module is simulated as far as its data goes: setup for every player count and
mode, with the invariants checked on the result.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


# Explicit entries win over discovery (tests point a fixture game at a module of their own).
MODULES: dict[str, str] = {}


def module_for(game_id: str) -> ModuleType | None:
    name = MODULES.get(game_id) or f"{__name__}.{game_id.replace('-', '_')}"
    if importlib.util.find_spec(name) is None:
        return None
    return importlib.import_module(name)
