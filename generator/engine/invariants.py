"""Invariants checked after every step of a simulated game.

Each returns `Fault`s (code, message, YAML path of the data involved), never raises:
- RB600 nothing finite is created or destroyed: each component's total over all zones equals
  its count in the box (components that are unlimited or of unknown count are exempt);
- RB601 no zone holds fewer than zero of anything;
- RB602 scores stay on the track, when the score zone declares `track_min`/`track_max`;
- RB604 faults the primitives met (a draw from an empty pile without a rule) are passed on.
The bound on the game's length (RB603) is the play loop's, in `play.py`.

Conservation is checked incrementally: after a step only the zones that step reached (every
primitive, `count`/`pile` and the `counts`/`piles` mappings mark the zones they hand out) and
the module's own places (`extra_zones`) are recounted, and only the components whose totals
moved are compared with the box. `full=True` recounts every zone instead: `play` does that at
the start, at every new round and at the end, so a module that changes a zone it kept a
reference to behind the primitives' back is still caught (within the round); `verify=True`
(the `full_check` of `play`, RULEBOOK_FULL_CHECK=1) does both after every step and reports
any zone the incremental check missed as RB605: a module bug, not a content problem.
"""

from __future__ import annotations

from .state import Fault, State


def check(state: State, full: bool = False, verify: bool = False) -> list[Fault]:
    faults = state.faults
    if faults:
        state.faults = []
    else:
        faults = []
    comp_index = state.comp_index
    box = state.box
    missed: list = []
    endless = state.endless
    if verify or full:
        if verify:
            state.update_totals()
            seen = {z: _nonzero(t) for z, t in state.zone_totals.items()}
            totals, negative = state.recount()
            now = {z: _nonzero(t) for z, t in state.zone_totals.items()}
            missed = sorted(z for z in seen.keys() | now.keys() if seen.get(z, {}) != now.get(z, {}))
        else:
            state.update_totals()
            totals, negative = state.totals()
            if _nonzero(totals) != _nonzero(state.held):  # changed unseen (or the start): a new base for the increments
                state.recount()
        changed = list(box) + sorted(c for c in totals if c not in box)  # the box's order
    else:
        changed, negative = state.update_totals()
        totals = state.held
        if len(changed) > 1:
            changed.sort(key=lambda c: (c not in box, comp_index.get(c, 0), c))  # the box's order
    for zone, comp, n in negative:
        faults.append(Fault("RB601", f"zone '{zone}' holds {n} '{comp}'",
                            ("components", comp_index[comp]) if comp in comp_index else ()))
    for comp in changed:
        n = box.get(comp)
        have = totals.get(comp, 0)
        if n is None:
            if have and comp not in endless:
                faults.append(Fault("RB600", f"'{comp}' created: the box has none", ()))
        elif have != n:
            verb = "created" if have > n else "destroyed"
            faults.append(Fault("RB600", f"{abs(have - n)} '{comp}' {verb}: the zones hold "
                                f"{have}, the box has {n}", ("components", comp_index[comp], "count")))
    if missed:  # after the content's faults: this one is the module's
        faults.append(Fault("RB605", f"the engine module changed {', '.join(missed)} behind the primitives' "
                            "back (the incremental conservation check did not see it)", ()))
    if state.track:
        zi, lo, hi = state.track
        scores = state.scores
        if (lo is not None and min(scores) < lo) or (hi is not None and max(scores) > hi):
            for p, s in enumerate(scores):
                if lo is not None and s < lo:
                    faults.append(Fault("RB602", f"player {p + 1}'s score {s} is below the track's {lo}",
                                        ("zones", zi, "track_min")))
                if hi is not None and s > hi:
                    faults.append(Fault("RB602", f"player {p + 1}'s score {s} is beyond the track's {hi}",
                                        ("zones", zi, "track_max")))
    return faults


def _nonzero(c: dict) -> dict:
    return {k: n for k, n in c.items() if n}
