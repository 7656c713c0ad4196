"""Scoring tables: ranges partition their domain, with no gap and no overlap."""

from __future__ import annotations

from ..diagnostics import Diagnostic
from ..project import GameDoc, Project


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    diags: list[Diagnostic] = []
    for ti, table in enumerate(game.model.scoring.tables):
        base = ("scoring", "tables", ti)
        rows = sorted(enumerate(table.ranges), key=lambda r: r[1].min)
        expect = table.domain_min
        for ri, r in rows:
            where = game.where(base + ("ranges", ri))
            if r.max is not None and r.max < r.min:
                diags.append(Diagnostic("RB100", f"range {r.min}-{r.max} ends before it starts", hint="swap min and max", **where))
                continue
            if r.min > expect:
                diags.append(Diagnostic("RB500", f"table '{table.id}' covers nothing from {expect} to {r.min - 1}",
                                        hint=f"start this row at {expect} or add a row for {expect}-{r.min - 1}", **where))
            elif r.min < expect:
                diags.append(Diagnostic("RB501", f"table '{table.id}': {r.min}-{_end(r.max)} overlaps the rows before (which reach {_end(None if expect is INF else expect - 1)})",
                                        hint=f"start this row at {expect}", **where))
            expect = INF if r.max is None else max(expect, r.max + 1)
        if expect is INF:
            continue
        if table.domain_max is not None and expect <= table.domain_max:
            diags.append(Diagnostic("RB500", f"table '{table.id}' covers nothing from {expect} to {table.domain_max}",
                                    hint="extend the last row or add one", **game.where(base + ("ranges",))))
        elif table.domain_max is None and rows:
            diags.append(Diagnostic("RB500", f"table '{table.id}' covers nothing from {expect} upward",
                                    hint="end the last row with max: null to cover every higher value",
                                    **game.where(base + ("ranges",))))
    return diags


INF = float("inf")


def _end(m):
    return "∞" if m is None else m
