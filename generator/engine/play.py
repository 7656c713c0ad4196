"""Play: one simulated game from setup to final scoring, with the invariants after every step.

`play(game, players, mode, seed)` runs setup, then asks the state for its legal actions and lets
a policy (random by default, seeded) pick one until the game is over. Every loop is bounded:
a game that has not ended within the rounds the data declares (`rounds.count` or `rounds.max`),
or within a hard cap of steps, stops with RB603. Nothing here raises on bad content: problems
end the game as a `Fault` in the `Outcome`, with the round, turn and last transcript lines.
"""

from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable

from ..model import Game
from . import invariants
from .games import module_for
from .setup import SetupResult, run_setup
from .state import Fault, State, initial_box

STEPS_PER_ROUND_AND_PLAYER = 200  # a hard cap, far above any real turn: it only catches loops
TAIL = 8


@dataclass
class Outcome:
    game: str
    players: int
    mode: str
    seed: int
    setup: SetupResult
    rounds: int = 0
    turns: int = 0
    steps: int = 0
    scores: list[int] = field(default_factory=list)
    fault: Fault | None = None
    round: int = 0
    turn: int = 0
    tail: list[str] = field(default_factory=list)
    ran_out: Counter = field(default_factory=Counter)  # component -> takes that found too few
    ran_dry: Counter = field(default_factory=Counter)  # zone -> draws that found it empty (a gap says why)
    params: dict = field(default_factory=dict)
    log: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.fault is None


Policy = Callable[[State, list, random.Random], object]


def random_policy(state: State, actions: list, rng: random.Random):
    return actions[rng.randrange(len(actions))]


def play(game: Game, players: int, mode: str, seed: int, policy: Policy = random_policy,
         keep_log: bool = False, full_check: bool | None = None) -> Outcome:
    """One seeded game. `full_check` (default: the environment's RULEBOOK_FULL_CHECK=1) recounts
    every zone after every step as well as the incremental conservation check, and reports a
    zone the incremental check missed (a module changing it behind the primitives' back) as
    RB605; without it every zone is recounted at each new round and at the end."""
    if full_check is None:
        full_check = os.environ.get("RULEBOOK_FULL_CHECK", "") not in ("", "0")
    module = module_for(game.id)
    try:
        params = module.parameters(game, random.Random(f"{game.id}/{seed}/parameters")) if module else {}
        kinds = module.kind_counts(game, params) if module else None
    except Exception as e:  # sampling the unknowns from odd numbers: a module bug, reported, not raised
        out = Outcome(game.id, players, mode, seed, SetupResult(players, mode))
        out.fault = Fault("RB605", f"the engine module failed: {type(e).__name__}: {e}", ())
        return out
    setup = run_setup(game, players, mode, seed, kinds)
    out = Outcome(game.id, players, mode, seed, setup, params=params)
    if setup.shortages:
        s = setup.shortages[0]
        out.fault = Fault("RB302", f"this step takes {s.wanted} '{s.component}' from '{s.zone}', which holds "
                          f"{s.available} (kinds sampled for the simulation)", ("setup", s.step_index))
        return out
    box, endless = initial_box(game)
    state: State | None = None
    start = ""
    try:
        state = module.new_state(game, setup, seed, box, endless, params) if module else State(game, setup, seed, box, endless)
        start = _describe(state, out) if keep_log else ""
        _run(state, game, policy, out, full_check)
    except Exception as e:  # a bug in a game module must become a report, not a traceback
        _module_failed(out, e)
    if state is not None:
        out.rounds, out.turns, out.round, out.turn = state.round, state.turn, state.round, state.turn
        try:
            out.scores = state.final_scores() if out.fault is None else list(state.scores)
        except Exception as e:
            _module_failed(out, e)
        out.tail = state.log[-TAIL:]
        out.ran_out = state.ran_out
        out.ran_dry = state.ran_dry
        if keep_log:
            out.log = [f"# {game.id}, {players} players, {mode}, seed {seed}",
                       "# parameters the sources leave out, as sampled for this game:"]
            out.log += [f"#   {k}: {params[k]}" for k in sorted(params)]
            out.log += ["# after setup:", start, *state.log, "# at the end:", _describe(state, out)]
            if out.fault:
                out.log.append(f"# FAULT {out.fault.code}: {out.fault.message}")
    return out


def _module_failed(out: Outcome, e: Exception) -> None:
    """A bug in a game module becomes the game's fault (the first one found stays)."""
    if out.fault is None:
        out.fault = Fault("RB605", f"the engine module failed: {type(e).__name__}: {e}", ())


def _describe(state: State, out: Outcome) -> str:
    """The state for the transcript; a module whose description fails is reported, not raised."""
    try:
        return state.describe()
    except Exception as e:
        _module_failed(out, e)
        return f"(the module could not describe its state: {type(e).__name__}: {e})"


def _run(state: State, game: Game, policy: Policy, out: Outcome, full_check: bool = False) -> None:
    rng = random.Random(f"{game.id}/{state.players}/{state.mode}/{state.seed}/policy")
    bound = game.rounds.count or game.rounds.max
    bound_path = ("rounds", "count") if game.rounds.count else ("rounds", "max") if game.rounds.max else ("rounds",)
    cap = STEPS_PER_ROUND_AND_PLAYER * state.players * ((bound or 50) + 1)
    check = invariants.check
    faults = check(state, full=True)
    steps = 0
    last_round = state.round
    over = state.is_over()
    while not faults and not over:
        if (bound and state.round > bound) or steps >= cap:
            what = f"{bound} rounds" if bound and state.round > bound else f"{cap} steps"
            faults = [Fault("RB603", f"the game has not ended after {what}", bound_path)]
            break
        actions = state.legal_actions()
        if not actions:
            faults = [Fault("RB605", "the game is not over, but no action is legal", ())]
            break
        state.apply(policy(state, actions, rng))
        steps += 1
        over = state.is_over()
        if full_check:
            faults = check(state, verify=True)
        else:  # every zone recounted at each new round and at the end; the zones a step reached after each
            faults = check(state, full=over or state.round != last_round)
        last_round = state.round
    out.steps = steps
    if faults:
        out.fault = faults[0]
