"""Acknowledged findings: `acknowledge:` entries of a game turn the findings they match into
acknowledged ones (reported, with their reason, but not errors), and an entry that matches no
finding is an error itself (RB202), so an acknowledgement can never hide a later, different finding.

An entry matches a finding by code, place (`at`, by id) and key, all three exactly."""

from __future__ import annotations

from dataclasses import replace

from ..diagnostics import Diagnostic, Severity
from ..model import ACKNOWLEDGEABLE
from ..project import GameDoc
from .counts import setup_unsound

# findings whose check runs only when the counts and the setup's references are sound (check.counts):
# an entry for them is not judged otherwise
_AFTER_COUNTS = {"RB302"}


def apply(game: GameDoc, found: list[Diagnostic]) -> list[Diagnostic]:
    acks = game.model.acknowledge
    if not acks:
        return found
    keys = [[a.key] if isinstance(a.key, str) else a.key for a in acks]
    used = {(i, k): False for i, ks in enumerate(keys) for k in ks}
    index = {(a.code, a.at, k): i for i, a in enumerate(acks) for k in keys[i]}
    out = []
    for d in found:
        i = index.get((d.code, d.at, d.key)) if d.severity is Severity.ERROR and d.code in ACKNOWLEDGEABLE else None
        if i is not None:
            used[(i, d.key)] = True
            reason = acks[i].reason
            d = replace(d, severity=Severity.ACKNOWLEDGED, reason=reason.get("en") or next(iter(reason.values()), ""))
        out.append(d)
    if game.partial:  # a schema error left items out: their findings are not known yet
        return out
    counts_blocked = setup_unsound(game) or any(
        d.code in ("RB300", "RB301", "RB303", "RB304") and d.severity is Severity.ERROR for d in out)
    for (i, key), hit in used.items():
        a = acks[i]
        if hit or (a.code in _AFTER_COUNTS and counts_blocked):
            continue
        same = sorted({repr(d.key) for d in found if d.code == a.code and d.at == a.at})
        hint = (f"the findings of {a.code} at '{a.at}' now have key {', '.join(same)}: update key:, or remove the entry"
                if same else "the finding is gone (fixed, or moved): remove the entry, or correct code:, at: and key:")
        path = ("acknowledge", i, "key") + (() if isinstance(a.key, str) else (a.key.index(key),))
        out.append(Diagnostic("RB202", f"the acknowledgement of {a.code} at '{a.at}'"
                              + (f" with key '{key}'" if key else "") + " matches no finding",
                              hint=hint, **game.where(path if a.key else ("acknowledge", i))))
    return out
