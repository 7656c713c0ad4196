"""Invariants checked after every step of a simulated game.

Each returns `Fault`s (code, message, YAML path of the data involved), never raises:
- RB600 nothing finite is created or destroyed: each component's total over all zones equals
  its count in the box (components that are unlimited or of unknown count are exempt);
- RB601 no zone holds fewer than zero of anything;
- RB602 scores stay on the track, when the score zone declares `track_min`/`track_max`;
- RB604 faults the primitives met (a draw from an empty pile without a rule) are passed on.
The bound on the game's length (RB603) is the play loop's, in `play.py`.
"""

from __future__ import annotations

from .state import Fault, State


def check(state: State) -> list[Fault]:
    faults = list(state.faults)
    state.faults.clear()
    g = state.game
    comp_index = {c.id: i for i, c in enumerate(g.components)}
    totals, negative = state.totals()
    for zone, comp, n in negative:
        faults.append(Fault("RB601", f"zone '{zone}' holds {n} '{comp}'",
                            ("components", comp_index[comp]) if comp in comp_index else ()))
    for comp, n in state.box.items():
        if totals[comp] != n:
            verb = "created" if totals[comp] > n else "destroyed"
            faults.append(Fault("RB600", f"{abs(totals[comp] - n)} '{comp}' {verb}: the zones hold "
                                f"{totals[comp]}, the box has {n}", ("components", comp_index[comp], "count")))
    for comp in totals.keys() - state.box.keys() - state.endless:
        faults.append(Fault("RB600", f"'{comp}' created: the box has none", ()))
    if state.score_zone and state.score_zone in state.zone_rules:
        z = state.zone_rules[state.score_zone]
        zi = state.zone_index[state.score_zone]
        for p, s in enumerate(state.scores):
            if z.track_min is not None and s < z.track_min:
                faults.append(Fault("RB602", f"player {p + 1}'s score {s} is below the track's {z.track_min}",
                                    ("zones", zi, "track_min")))
            if z.track_max is not None and s > z.track_max:
                faults.append(Fault("RB602", f"player {p + 1}'s score {s} is beyond the track's {z.track_max}",
                                    ("zones", zi, "track_max")))
    return faults
