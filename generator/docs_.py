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
             "`--allow-untranslated`), `note`: not a problem, a fact about the run (RB607: a game simulated as",
             "far as its setup only), or `acknowledged`: the data keeps the finding on purpose, with a reason",
             "(see [Acknowledged findings](#acknowledged-findings)); validate passes. json gives it as",
             "`severity`, junit a note as `system-out` and an acknowledged finding as `skipped` instead of a",
             "failure, github both as `::notice`. This page is generated from `generator/diagnostics.py` and",
             "`generator/docs_.py` (`python -m generator.docs_`).", "",
             "| code | name | meaning |", "|---|---|---|"]
    for c in CODES.values():
        lines.append(f"| {c.code} | `{c.slug}` | {c.description} |")
    lines += ["", _EXAMPLES.strip(), "", _numbers_md(), "", _ACKNOWLEDGED.strip()]
    return "\n".join(lines) + "\n"


_EXAMPLES = """
## What the diagnostics look like

**Where the fault is.** Each diagnostic points at the value a person would change, in the file
that holds it, and names its place by id (`in step-take.text`: the text of the item `step-take`;
without an item on the way, by keys and list positions: `in scoring.tables`):

- a YAML syntax error (RB001) says in plain words what is wrong and shows the line, with a caret
  under the column:

  ```text
  content/no-thanks/glossary.yaml:25:4: error RB001: this line is indented differently from the keys above it, so YAML cannot tell which mapping it belongs to (hint: indent it exactly like the keys it belongs with (the same number of spaces), or deeper under its own key)
     25 |    en: A chip.
        |    ^
  ```

  Other syntax errors are worded the same way: "a second ': ' on this line" (quote the text),
  "a tab in the indentation", "a tab inside unquoted text", "a quote opened here is never
  closed", "this '[' is never closed", "a value cannot start with
  '@' unless it is quoted".
- a required key missing from a game (RB101) is reported at the top of its `game.yaml`, whichever
  file of the game holds the other keys; a key missing from an item, at that item.
- "did you mean" (RB102) offers only the keys allowed at that place, or lists them; a language
  tag where a text belongs says so:

  ```text
  content/no-thanks/game.yaml:96:3: error RB102: unknown key 'componet' in setup-shuffle (hint: did you mean 'component'?)
  content/no-thanks/glossary.yaml:25:3: error RB102: unknown key 'en' in term-chip (hint: 'en' is a language: indent it under the text it belongs to such as term, definition)
  content/no-thanks/cards.yaml:9:3: error RB102: unknown key 'values' in cards-numbers (hint: the keys allowed here: id, title, component, intro, gap, cards)
  ```
- a misspelt language tag (RB401) is matched against the site's languages:

  ```text
  content/no-thanks/game.yaml:48:5: error RB401: 'zh-tw' is not a language tag in card.name (hint: did you mean 'zh-TW'?)
  ```
- setup that takes more than the box holds (RB302) points at the amount: the row of a
  `by_players` table, or `per_player:`, `count:`, `kinds:`; for an amount each player takes, it
  gives the total and what the zone held before the step; the other player counts and modes
  where the same amount overflows are named in the same diagnostic:

  ```text
  content/no-thanks/game.yaml:115:7: error RB302: with 7 players (standard) this step takes 77 'chip' from 'box', which holds 55 at this point (hint: …)
  content/jorvik/game.yaml:587:3: error RB302: with 2 players (jarl) each player takes 43 'viking' from 'box': 86 in all, but it holds 20 before this step (and with 3, 4, 5 players) (hint: …)
  ```

**No follow-on errors.** A setup step that names an unknown component, zone, kind or mode gets
its RB201 and nothing more: the setup is not played until the references resolve, so there is
no RB302 about an empty stand-in. A schema error (RB1xx) in one item leaves that item out and
the rest of the game is still checked (translations, references, counts, scoring tables); a
reference to the left-out item is not reported again, the setup is not played while one of
its steps, components, zones or modes has a schema error, and a game with a schema error is not
simulated.

**For machines.** `--format json` gives each finding's `code`, `slug`, `severity`, `file`, `line`,
`column`, `message` and `hint`, and also `at` (the place by id, e.g. `step-take.by_players.3`),
`key` (see below), `reason` (of an acknowledged finding) and `excerpt` (the source line of a
syntax error).

**Number mismatches (RB404)** name only the numbers that differ, and point at the language
that differs from the others (with two languages, or three that all differ, at each language
that differs from the first):

```text
content/no-thanks/game.yaml:217:11: error RB404: in score-cards.examples.0, the en text states 68 where the zh-TW and es texts state 58 (hint: … acknowledge it: {code: RB404, at: score-cards.examples.0.en, key: '+68 -58', reason: …})
content/ulm/game.yaml:310:11: error RB404: in setup-coins.text, the zh-TW text states 2, which the es and en texts do not state (hint: …)
```
"""

_NUMBER_EXAMPLES = [
    ("拿兩張牌", "zh-TW"), ("二選一", "zh-TW"), ("三到五人", "zh-TW"), ("十二張", "zh-TW"), ("第三名", "zh-TW"),
    ("拿走一半", "zh-TW"), ("三分之一", "zh-TW"), ("再一次", "zh-TW"), ("十字路口、一般、一起", "zh-TW"),
    ("choose one of two", "en"), ("three to five players", "en"), ("twenty-five coins", "en"),
    ("the third player", "en"), ("a second time", "en"), ("score it twice", "en"), ("half of your coins", "en"),
    ("the upper half of the card", "en"), ("a double-sided board", "en"),
    ("elige una de dos", "es"), ("de tres a cinco jugadores", "es"), ("treinta y cinco monedas", "es"),
    ("veinticinco", "es"), ("el tercer jugador", "es"), ("una segunda vez", "es"), ("la mitad de tus monedas", "es"),
    ("la mitad inferior del tablero", "es"), ("Paga {cost} monedas, 3 más", "es"),
]


def _numbers_md() -> str:
    from .text import numbers
    rows = ["## Numbers in texts", "",
            "RB404 compares the literal numbers each language of a text states: every integer from 2 up,",
            "and one half. 0 and 1 are left out (\"a card\", \"un jugador\", 一張 say them in different",
            "ways), and so are `{placeholders}`. What counts as a number:", "",
            "- digits: `3`, `12`, `2nd`, `3.º`;",
            "- in English and Spanish alike: cardinals from two (two–nineteen, the tens, *twenty-five*,",
            "  *treinta y cinco*, *veinticinco*, hundred/cien), ordinals from second (*second*–*twelfth*,",
            "  *segundo*–*duodécimo*), *twice*, and *half*/*mitad* where it is an amount (*half of*, *in half*,",
            "  *la mitad de*), not a part of a thing (*the upper half*, *la mitad inferior*). An ordinal after",
            "  *a*/*an*/*un*/*una* means \"another\" and is no number: *a second time* is 再一次. *Cuarto*",
            "  (also a room) and *double*/*doble* (double-sided) are not read: write `4.º` or a digit;",
            "- in Chinese, a run of numerals (一二兩三…十百千) where a number is meant: an ordinal (第三),",
            "  a count with a measure word (兩張, 十二張, 三換一), a choice (二選一), a range whose end has a",
            "  measure word (三到五人, 三或四張) and a half (一半, 半數, 二分之一). Other fractions are not read",
            "  in any language (三分之一, a third, un tercio). Words that",
            "  contain numerals (十字, 一般, 一起, 百科) are not numbers.", "",
            "When a text is right as it is (a reviewer checked it), acknowledge its RB404 (below).", "",
            "| text | language | numbers read |", "|---|---|---|"]
    for text, lang in _NUMBER_EXAMPLES:
        found = sorted(numbers(text, lang))
        shown = ", ".join(str(n) for n in found) or "none"
        rows.append(f"| {text} | {lang} | {shown} |")
    return "\n".join(rows)


_ACKNOWLEDGED = """
## Acknowledged findings

Some findings are kept on purpose: a seed's slip transcribed as printed (Castles' solo ranks
leave 50, 81–85 and 101 uncovered), a number text a reviewer found right. A game lists them under
`acknowledge:`, each with the finding's code, its place, its key and the reason in every language:

```yaml
acknowledge:
- code: RB500
  at: solo-ranks                # the `at` of the finding: an id, then keys below it
  key: ['50', 81-85, '101']     # the `key` of the finding (or a list of them)
  reason:
    zh-TW: 中文來源的單人評等表有缺口……
    es: La tabla de rangos … tiene huecos …
    en: The solo rank table of the Chinese source has holes …
```

- Only findings about the data's facts and texts can be acknowledged: RB300–RB303, RB404, RB500,
  RB501. Schema, reference and simulation findings cannot.
- An entry matches a finding only when code, `at` and `key` are all equal. `--format json` gives
  each finding's `at` and `key`, and the hint of RB404 and RB500 spells out the entry to write.
  Keys: RB500 the uncovered values (`50`, `81-85`, `102+`) and RB501 the values covered twice,
  both with the table's id as `at`; RB404 the numbers the language states that the others do not
  (`+2`) and those it lacks (`-1`), with the language in `at` (`card-favor.text.zh-TW`); the count
  findings (RB300–RB303) have no key, and their `at` is the value at fault
  (`setup-room-cards.by_players.4`).
- The finding is then reported as acknowledged, with its reason, and validate passes:

  ```text
  content/castles-of-mad-king-ludwig/game.yaml:1104:7: acknowledged RB500: table 'solo-ranks' covers nothing at 50 (reason: The solo rank table of the Chinese source has holes: …)
  ```

  In `--format json` its `severity` is `acknowledged` and `reason` holds the reason; in JUnit it is
  a `<skipped>` test case; for GitHub a `::notice` titled `RB500 (acknowledged)`.
- An entry that matches no finding is an error itself (RB202), so an acknowledgement cannot hide a
  later change: when a row of the table is corrected, the entry for the old hole is reported and
  a new hole is an error again. Entries are not judged while the game has a schema error, nor
  RB302 entries while the setup cannot be played (an unresolved reference, a count error).
- The pages show the reason of an acknowledged fact (not of a reviewed translation) where the item
  is, as they show a gap: under the score table, in a "Not in the sources" box.
"""


def schema_reference_md() -> str:
    out: list[str] = []
    seen: set[type] = set()

    def walk(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.add(model)
        out.append(f"### `{model.__name__}`")
        out.append("")
        # the docstring's first paragraph, whole (its first line alone stopped mid-sentence)
        out.append(" ".join((model.__doc__ or "").strip().split("\n\n")[0].split()))
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
