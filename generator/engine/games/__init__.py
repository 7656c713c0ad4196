"""Game modules: what one game needs that its data cannot say, written against the core.

A module is found by the game's id (`ulm` → `generator.engine.games.ulm`) and provides:
`parameters(game, rng)` (the facts the sources leave out, sampled per simulated game),
`kind_counts(params)` (counts of kinds the data leaves unknown, for setup) and
`new_state(game, setup, seed, box, endless, params)` (a `State` subclass with the rules).
A game without a module is simulated as far as its data goes: setup for every player count and
mode, with the invariants checked on the result.
"""

from __future__ import annotations

import importlib
from types import ModuleType

MODULES: dict[str, str] = {"ulm": "generator.engine.games.ulm"}


def module_for(game_id: str) -> ModuleType | None:
    name = MODULES.get(game_id)
    return importlib.import_module(name) if name else None
