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
                diags.append(Diagnostic("RB500", f"table '{table.id}' covers nothing {_range(expect, r.min - 1)}",
                                        hint=f"start this row at {expect} or add a row for {expect}-{r.min - 1}"
                                        + _keep(table.id, _span(expect, r.min - 1)),
                                        **{**where, "at": table.id, "key": _span(expect, r.min - 1)}))
            elif r.min < expect:
                # the values covered twice: up to this row's end or the rows before's, whichever is lower
                top = r.max if expect == INF else (expect - 1 if r.max is None else min(r.max, expect - 1))
                key = f"{r.min}+" if top is None else _span(r.min, top)
                diags.append(Diagnostic("RB501", f"table '{table.id}': {r.min}-{_end(r.max)} overlaps the rows before (which reach {_end(None if expect is INF else expect - 1)})",
                                        hint=(f"start this row at {expect}" if expect != INF else
                                              "a row before covers every higher value: give it a max, or remove this row")
                                        + _keep(table.id, key, "RB501"),
                                        **{**where, "at": table.id, "key": key}))
            expect = INF if r.max is None else max(expect, r.max + 1)
        if expect is INF:
            continue
        if table.domain_max is not None and expect <= table.domain_max:
            key = _span(expect, table.domain_max)
            diags.append(Diagnostic("RB500", f"table '{table.id}' covers nothing {_range(expect, table.domain_max)}",
                                    hint="extend the last row or add one" + _keep(table.id, key),
                                    **{**game.where(base + ("ranges",)), "at": table.id, "key": key}))
        elif table.domain_max is None and rows:
            key = f"{expect}+"
            diags.append(Diagnostic("RB500", f"table '{table.id}' covers nothing from {expect} upward",
                                    hint="end the last row with max: null to cover every higher value" + _keep(table.id, key),
                                    **{**game.where(base + ("ranges",)), "at": table.id, "key": key}))
    return diags


INF = float("inf")


def _range(lo: int, hi: int) -> str:
    return f"at {lo}" if lo == hi else f"from {lo} to {hi}"


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _keep(table: str, key: str, code: str = "RB500") -> str:
    return (f"; if the source prints the table so and it is kept on purpose, acknowledge it: "
            f"{{code: {code}, at: {table}, key: '{key}', reason: …}}")


def _end(m):
    return "∞" if m is None else m
