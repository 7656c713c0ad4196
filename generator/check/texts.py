"""Translations agree: every language present, same placeholders, same literal numbers."""

from __future__ import annotations

import re

from ..diagnostics import Diagnostic
from ..expr import ExprError
from ..model import FIELD_NAMES, Game
from ..project import GameDoc, Project, model_at
from ..quantities import Scope, named_values, numbers_of
from ..text import numbers, placeholders

_LANG = re.compile(r"^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?$")
# Fields of a step whose numbers its texts may name as {count} etc.
_STEP_FIELDS = ("count", "per_player")


def is_text(node) -> bool:
    """A mapping of language tags to strings. A mapping whose keys are all schema keys is data,
    even where a key looks like a tag (`print: {gap: …}`; 'gap' is a language code too)."""
    return (isinstance(node, dict) and bool(node) and _tags(tuple(node))
            and all(isinstance(v, str) for v in node.values()))


_TAGS: dict[tuple, bool] = {}  # by a mapping's keys: whether they are those of a text (few sets recur)


def _tags(keys: tuple) -> bool:
    hit = _TAGS.get(keys)
    if hit is None:
        hit = (all(isinstance(k, str) and _LANG.match(k) for k in keys)
               and not all(k in FIELD_NAMES for k in keys))
        if len(_TAGS) < 4096:
            _TAGS[keys] = hit
    return hit


def walk(node) -> tuple[list[tuple[tuple, dict]], list[tuple[tuple, dict, tuple]]]:
    """One walk of a game's raw data, in document order (parents before children):

    - every mapping with its path (the reference checks read them all);
    - every localized text with its path and the items (outermost first) whose values it may use:
      a card use says {points} of its card. Texts under `values:` and `aliases:` are data, not
      texts of the page.

    (A list made with a stack, not nested generators: the game is walked for every check.)"""
    mappings: list = []
    texts: list = []
    todo = [((), node, (), True)] if isinstance(node, (dict, list)) else []  # path, node, owners, whether texts count
    while todo:
        p, n, o, live = todo.pop()
        if isinstance(n, dict):
            mappings.append((p, n))
            if live:
                if is_text(n):
                    texts.append((p, n, o))
                    continue  # only strings inside
                if "id" in n:
                    o = o + (n,)
            children = [(p + (k,), v, o, live and k not in ("values", "aliases")) for k, v in n.items()
                        if isinstance(v, (dict, list))]
        else:
            children = [(p + (i,), v, o, live) for i, v in enumerate(n) if isinstance(v, (dict, list))]
        children.reverse()
        todo += children
    return mappings, texts


_WALKED: dict[int, tuple] = {}


def walked(raw: dict) -> tuple[list, list]:
    """`walk(raw)`, once per game's data: the reference, text, translation, pointer and style
    checks all read it."""
    hit = _WALKED.get(id(raw))
    if hit is not None and hit[0] is raw:
        return hit[1]
    if len(_WALKED) > 16:
        _WALKED.clear()
    out = walk(raw)
    _WALKED[id(raw)] = (raw, out)
    return out


def texts_of(raw: dict) -> list[tuple[tuple, dict, tuple]]:
    """Every localized text of the game's data, with its path and owners (`walk`)."""
    return walked(raw)[1]


def owner_values(owners) -> set[str]:
    names: set[str] = set()
    for owner in owners:
        names |= set(named_values(owner))
        names |= {f for f in _STEP_FIELDS if isinstance(owner.get(f), int) and not isinstance(owner.get(f), bool)}
    return names


def check(game: GameDoc, project: Project) -> list[Diagnostic]:
    langs = project.languages
    diags: list[Diagnostic] = []
    known: dict[int, set[str]] = {}  # owner_values by owner tuple: the texts of one item share it
    numbers = numbers_of(game.model)
    for path, text, owner in texts_of(game.raw):
        defined = scope = None
        if any("{" in v for v in text.values()):  # what placeholders may name: only for texts that have one
            defined = known.get(id(owner))
            if defined is None:
                defined = known[id(owner)] = owner_values(owner)
            scope = Scope(numbers, owner)
        diags += check_text(game, path, text, owner, langs, defined, scope)
    diags += check_values(game, numbers)
    return diags


def check_values(game: GameDoc, numbers) -> list[Diagnostic]:
    """Every expression in values: evaluates (names known, no cycle, no division by zero)."""
    diags = []
    for path, node in _items_with_values(game.raw):
        scope = Scope(numbers, path[1])
        for name, v in node["values"].items():
            exprs = [((name,), v)] if isinstance(v, str) else \
                [((name, n), x) for n, x in v.items() if isinstance(x, str)] if isinstance(v, dict) else []
            for sub, src in exprs:
                try:
                    scope.value(src, frozenset({name}))
                except ExprError as e:
                    if "depends on the player count" in e.message and len(sub) == 1:
                        continue
                    diags.append(expr_diagnostic(game, path[0] + ("values",) + sub, e, key=False))
    return diags


def _items_with_values(raw) -> list[tuple[tuple, dict]]:
    """((path, owners), item) of every item whose values: holds an expression or a table, found
    through the lists that hold items (no walk of the whole game: the texts were walked already)."""
    out = []

    def items(path, lst, outer=()):
        for i, it in enumerate(lst if isinstance(lst, list) else ()):
            if not isinstance(it, dict):
                continue
            owners = outer + (it,)
            v = it.get("values")
            if isinstance(v, dict) and any(isinstance(x, (str, dict)) for x in v.values()):
                out.append(((path + (i,), owners), it))
            if isinstance(it.get("uses"), list):
                items(path + (i, "uses"), it["uses"], owners)

    if not isinstance(raw, dict):
        return out
    for key in ("setup", "actions"):
        items((key,), raw.get(key))
    for outer in ("rounds", "scoring"):
        node = raw.get(outer)
        for key in (node or {}) if isinstance(node, dict) else ():
            items((outer, key), node[key])
    for name, inner in (("rules", "items"), ("cards", "cards")):
        sections = raw.get(name)
        for i, sec in enumerate(sections if isinstance(sections, list) else ()):  # else: the schema's error
            if isinstance(sec, dict):
                items((name, i, inner), sec.get(inner), (sec,) if "id" in sec else ())
    return out


def expr_diagnostic(game: GameDoc, path, e: ExprError, key: bool = False, what: str = "") -> Diagnostic:
    code = "RB403" if e.kind == "name" else "RB307"
    return Diagnostic(code, (what + ": " if what else "") + e.message, hint=e.hint or "check the expression",
                      **game.where(path, key=key))


def check_text(game: GameDoc, path, text: dict, owner, langs: list[str], defined: set[str] | None = None,
               scope: Scope | None = None) -> list[Diagnostic]:
    diags = []
    missing = [lang for lang in langs if lang not in text]
    if missing:
        diags.append(Diagnostic("RB400", f"no {', '.join(missing)} text" + _of(game, path),
                                hint=f"add {missing[0]}: with the translation", **game.where(path)))
    for lang in text:
        if langs and lang not in langs:
            diags.append(Diagnostic("RB401", f"language '{lang}' is not one of the site's ({', '.join(langs)})",
                                    hint="fix the tag or add the language to content/site.yaml",
                                    **game.where(path + (lang,), key=True)))
    present = [lang for lang in langs if lang in text]
    for lang in present:
        if not text[lang] or text[lang].isspace():  # as `not text[lang].strip()`, without a copy
            diags.append(Diagnostic("RB405", f"the {lang} text is empty" + _of(game, path), hint="write the text or remove the key",
                                    **game.where(path + (lang,))))
    if len(present) < 1:
        return diags
    if any("{" in text[lang] for lang in present):  # most texts have no placeholder
        diags += _placeholders(game, path, text, owner, present, defined, scope)
    diags += number_agreement(game, path, text, present)
    return diags


def _placeholders(game: GameDoc, path, text: dict, owner, present: list[str], defined: set[str] | None,
                  scope: Scope | None) -> list[Diagnostic]:
    """RB403, RB307 and RB402: each placeholder names a value, and every language uses the same."""
    diags = []
    ref = present[0]
    if defined is None:
        defined = owner_values(owner)
    ph = {lang: placeholders(text[lang]) for lang in present}
    if scope is None and any(ph.values()):
        scope = Scope(numbers_of(game.model), owner)
    for lang in present:
        for name in sorted(ph[lang]):
            if name in defined:  # a value of its own: check_values and the setup checks report its faults
                continue
            try:
                scope.value(name)
            except ExprError as e:
                if e.kind == "name" and name.isidentifier():
                    diags.append(Diagnostic("RB403", f"placeholder {{{name}}} in the {lang} text names no value" + _of(game, path),
                                            hint=_values_hint(game, path, name, defined),
                                            **game.where(path + (lang,))))
                else:
                    diags.append(expr_diagnostic(game, path + (lang,), e,
                                                 what=f"placeholder {{{name}}} in the {lang} text" + _of(game, path)))
        if lang != ref and ph[lang] != ph[ref]:
            diags.append(Diagnostic("RB402", f"the {lang} text uses {_set(ph[lang])} but the {ref} text uses {_set(ph[ref])}"
                                    + _of(game, path), hint="every language uses the same placeholders",
                                    **game.where(path + (lang,))))
    return diags


def number_agreement(game: GameDoc, path, text: dict, present: list[str]) -> list[Diagnostic]:
    """RB404: the languages of a text state the same literal numbers. When most languages agree,
    the one that differs is at fault and the diagnostic points at it; it names only the numbers
    that differ. With no majority (two languages, or three that all differ), each language that
    differs from the first is reported."""
    nums = {lang: numbers(text[lang], lang) for lang in present}
    first = nums[present[0]]
    if all(nums[lang] == first for lang in present):
        return []
    sets = [frozenset(nums[lang]) for lang in present]
    common = max(sets, key=sets.count)
    if sets.count(common) * 2 > len(sets):
        agree = [lang for lang in present if nums[lang] == common]
    else:
        common, agree = frozenset(nums[present[0]]), [present[0]]
    diags = []
    for lang in present:
        if nums[lang] == common:
            continue
        extra, lack = sorted(nums[lang] - common), sorted(common - nums[lang])
        names = agree[0] if len(agree) == 1 else f"{', '.join(agree[:-1])} and {agree[-1]}"
        others = f"the {names} text{'s' if len(agree) > 1 else ''}"
        verb = "state" if len(agree) > 1 else "states"
        if extra and lack:
            msg = f"the {lang} text states {_list(extra)} where {others} {verb} {_list(lack)}"
        elif extra:
            msg = f"the {lang} text states {_list(extra)}, which {others} {'do' if len(agree) > 1 else 'does'} not state"
        else:
            msg = f"the {lang} text does not state {_list(lack)}, which {others} {verb}"
        key = " ".join([f"+{n}" for n in extra] + [f"-{n}" for n in lack])
        where = game.where(path + (lang,))
        diags.append(Diagnostic("RB404", (f"in {game.at(path)}, " if path else "") + msg,
                                hint="correct the number of this language, or write it once in values: as a {placeholder}; "
                                "if a reviewer found the text right as it is, acknowledge it: "
                                f"{{code: RB404, at: {where.get('at', '')}, key: '{key}', reason: …}}",
                                key=key, **where))
    return diags


def _list(ns) -> str:
    return ", ".join(str(n) for n in ns)


def _values_hint(game: GameDoc, path, name: str, defined: set[str]) -> str:
    """Where the value could go: the nearest enclosing item that may have values: (a card group's
    intro, a section's intro or a component's note has none, so the hint does not offer it)."""
    known = f" (known: {', '.join(sorted(defined))})" if defined else ""
    for n in range(len(path) - 1, -1, -1):
        m = model_at(Game, path[:n])
        if m is not None and "values" in m.model_fields:
            item = game.at(path[:n]) or "the item"
            return f"add values: {{{name}: …}} to {item}, or fix the name" + known
    return "this text belongs to no item with values: write the number out, or fix the name" + known


def _of(game: GameDoc, path) -> str:
    return f" in {game.at(path)}" if path else ""


def _set(s) -> str:
    return "{" + ", ".join(str(x) for x in sorted(s, key=str)) + "}" if s else "none"
