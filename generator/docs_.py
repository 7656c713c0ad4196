"""Generated documentation: the diagnostic codes and the schema reference come from the code
itself, so docs/diagnostics.md and the reference part of docs/authoring.md cannot drift.

`python -m generator.docs_` rewrites them; a test fails when they are out of date."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel

from .diagnostics import CODES
from .model import Game, Site, _models_in

DOCS = Path(__file__).resolve().parent.parent / "docs"
BEGIN, END = "<!-- BEGIN generated schema reference -->", "<!-- END generated schema reference -->"


def diagnostics_md() -> str:
    lines = ["# Diagnostic codes", "",
             "Every problem `rulebook validate` or `rulebook build` reports has one of these codes.",
             "Each is printed as `file:line:column: error RBnnn: message (hint: …)`; `--format json|junit|github`",
             "gives the same facts for machines. The severity is `error` (exit 1), `warning` (e.g. RB400 with",
             "`--allow-untranslated`) or `note`: not a problem, a fact about the run (RB607: a game simulated as",
             "far as its setup only); json gives it as `severity`, junit as `system-out` instead of a failure,",
             "github as `::notice`. This page is generated from `generator/diagnostics.py`",
             "(`python -m generator.docs_`).", "",
             "| code | name | meaning |", "|---|---|---|"]
    for c in CODES.values():
        lines.append(f"| {c.code} | `{c.slug}` | {c.description} |")
    return "\n".join(lines) + "\n"


def schema_reference_md() -> str:
    out: list[str] = []
    seen: set[type] = set()

    def walk(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.add(model)
        out.append(f"### `{model.__name__}`")
        out.append("")
        out.append((model.__doc__ or "").strip().splitlines()[0] if model.__doc__ else "")
        out.append("")
        out.append("| key | required | description |")
        out.append("|---|---|---|")
        subs = []
        for name, f in model.model_fields.items():
            key = f.alias or name
            desc = (f.description or "").replace("|", "\\|")
            meta = [m for m in f.metadata if getattr(m, "description", None)]
            if not desc and f.annotation is not None:
                for a in getattr(f.annotation, "__args__", ()) or ():
                    d = getattr(a, "__metadata__", None)
                    for m in d or ():
                        if getattr(m, "description", None):
                            desc = m.description
            if not desc and meta:
                desc = meta[0].description
            sub = _models_in(f.annotation)
            subs += sub
            kinds = ", ".join(f"`{s.__name__}`" for s in sub)
            out.append(f"| `{key}` | {'yes' if f.is_required() else ''} | {desc}{' (' + kinds + ')' if kinds else ''} |")
        out.append("")
        for s in subs:
            walk(s)

    walk(Game)
    walk(Site)
    return "\n".join(out).rstrip() + "\n"


def authoring_with_reference(text: str) -> str:
    head, _, rest = text.partition(BEGIN)
    _, _, tail = rest.partition(END)
    return f"{head}{BEGIN}\n\n{schema_reference_md()}\n{END}{tail}"


def write() -> None:
    (DOCS / "diagnostics.md").write_text(diagnostics_md(), encoding="utf-8")
    authoring = DOCS / "authoring.md"
    authoring.write_text(authoring_with_reference(authoring.read_text(encoding="utf-8")), encoding="utf-8")


if __name__ == "__main__":
    write()
