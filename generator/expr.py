"""Number expressions: what a `{placeholder}` or a computed setup amount may say, evaluated safely.

An expression is integer arithmetic over names and data: `total - count`,
`spaces * per_space * players`, `count(tower-tile) - amount(setup-tower-basic)`. The grammar is
small and parsed here by hand (nothing is ever passed to `eval`):

    expr   := term (("+" | "-") term)*
    term   := unary (("*" | "/" | "//") unary)*
    unary  := "-" unary | atom
    atom   := integer | name | function "(" id ")" | "(" expr ")"     (value's id is item-id.name)

Names are resolved by the caller (an item's `values:`, a step's own numbers, `players`);
functions name data by id (see `FUNCTIONS`). `/` must divide evenly (pieces are whole), `//`
rounds down. A value may be `UNKNOWN` (a count the sources do not give): any arithmetic with it
is unknown too, and pages show "?". Problems are `ExprError`s with a message and a hint; the
checks turn them into diagnostics at the text or field that holds the expression.
"""

from __future__ import annotations

import re
from functools import lru_cache

MAX_CHARS = 200    # an expression longer than this is refused (a real one is under 60)
MAX_DEPTH = 20     # nesting of parentheses and unary minus
MAX_VALUE = 10**9  # a larger intermediate result is refused: no counting to astronomical numbers

# function name -> what its argument names (for messages and docs/authoring.md)
FUNCTIONS = {
    "count": "the count of a component, a kind or a card (by id)",
    "per_colour": "a component's count in each player colour",
    "kinds": "how many kinds a component has",
    "described": "how many pieces of a component the card reference describes (the copies of its cards)",
    "amount": "how many pieces a setup step moves (for the player count in question)",
    "value": "a values: entry of another item, as item-id.name",
}


class _Unknown:
    """A number the sources do not give; shown as '?'."""

    _instance = None

    def __new__(cls):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "UNKNOWN"

    def __str__(self) -> str:
        return "?"


UNKNOWN = _Unknown()


class ExprError(Exception):
    """A bad expression: syntax, an unknown name, a division by zero. `kind` is 'syntax',
    'name' (nothing of that name) or 'value' (arithmetic that has no answer)."""

    def __init__(self, message: str, hint: str = "", kind: str = "value"):
        super().__init__(message)
        self.message, self.hint, self.kind = message, hint, kind


_TOKEN = re.compile(r"\s*(?:(?P<int>\d+)|(?P<call>[a-z_][a-z0-9_]*)\(\s*(?P<arg>[a-z0-9]+(?:-[a-z0-9]+)*(?:\.[a-z_][a-z0-9_]*)?)\s*\)"
                    r"|(?P<name>[a-z_][a-z0-9_]*)|(?P<op>//|[-+*/()]))")
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def _tokens(src: str) -> list[tuple[str, str, str]]:
    out, i, n = [], 0, len(src)
    while i < n:
        if src[i].isspace():
            i += 1
            continue
        m = _TOKEN.match(src, i)
        if not m or m.end() == i:
            raise ExprError(f"'{src[i]}' cannot appear in an expression '{src}'",
                            "use whole numbers, names, + - * / // and parentheses", "syntax")
        kind = m.lastgroup if m.lastgroup != "arg" else "call"
        if m.group("call"):
            out.append(("call", m.group("call"), m.group("arg")))
        elif kind == "int":
            out.append(("int", m.group("int"), ""))
        elif kind == "name":
            out.append(("name", m.group("name"), ""))
        else:
            out.append(("op", m.group("op"), ""))
        i = m.end()
    return out


@lru_cache(maxsize=4096)
def parse(src: str) -> tuple:
    """The expression as a small tree of tuples: ('int', n) ('name', s) ('call', f, id)
    ('neg', t) (op, a, b). Raises ExprError."""
    if len(src) > MAX_CHARS:
        raise ExprError(f"the expression is {len(src)} characters long, over {MAX_CHARS}",
                        "put parts of it in values: under names", "syntax")
    toks = _tokens(src)
    if not toks:
        raise ExprError("the expression is empty", "write a name or a number between the braces", "syntax")
    pos = 0

    def peek():
        return toks[pos] if pos < len(toks) else ("end", "", "")

    def expect_end_of(what: str):
        kind, text, _ = peek()
        found = "the end" if kind == "end" else f"'{text}'"
        raise ExprError(f"expected {what} in '{src}', found {found}", "check the operators and parentheses", "syntax")

    def expr(depth):
        nonlocal pos
        left = term(depth)
        while peek()[0] == "op" and peek()[1] in ("+", "-"):
            op = toks[pos][1]
            pos += 1
            left = (op, left, term(depth))
        return left

    def term(depth):
        nonlocal pos
        left = unary(depth)
        while peek()[0] == "op" and peek()[1] in ("*", "/", "//"):
            op = toks[pos][1]
            pos += 1
            left = (op, left, unary(depth))
        return left

    def unary(depth):
        nonlocal pos
        if depth > MAX_DEPTH:
            raise ExprError(f"the expression nests deeper than {MAX_DEPTH}", "simplify it", "syntax")
        if peek() == ("op", "-", ""):
            pos += 1
            return ("neg", unary(depth + 1))
        return atom(depth)

    def atom(depth):
        nonlocal pos
        kind, text, arg = peek()
        if kind == "int":
            pos += 1
            if len(text) > 9:
                raise ExprError(f"the number {text} is too large", "", "syntax")
            return ("int", int(text))
        if kind == "name":
            pos += 1
            if peek() == ("op", "(", ""):
                raise ExprError(f"'{text}(…)' is not a function: known are {', '.join(FUNCTIONS)}",
                                "a function takes one id, e.g. count(tower-tile)", "syntax")
            return ("name", text)
        if kind == "call":
            pos += 1
            if text not in FUNCTIONS:
                raise ExprError(f"'{text}(…)' is not a function: known are {', '.join(FUNCTIONS)}",
                                "a function takes one id, e.g. count(tower-tile)", "name")
            return ("call", text, arg)
        if (kind, text) == ("op", "("):
            pos += 1
            inner = expr(depth + 1)
            if peek() != ("op", ")", ""):
                expect_end_of("')'")
            pos += 1
            return inner
        expect_end_of("a number, a name or '('")

    tree = expr(0)
    if pos != len(toks):
        expect_end_of("an operator")
    return tree


def names(tree: tuple) -> set[str]:
    """The plain names an expression uses (not the functions' ids)."""
    tag = tree[0]
    if tag == "name":
        return {tree[1]}
    if tag in ("int", "call"):
        return set()
    return set().union(*(names(t) for t in tree[1:]))


def evaluate(src: str, name, call):
    """The value of `src`: an int or UNKNOWN. `name(s)` and `call(function, id)` give the values
    the expression refers to (int or UNKNOWN) or raise ExprError."""
    return _eval(parse(src), name, call, src)


def _eval(t: tuple, name, call, src: str):
    tag = t[0]
    if tag == "int":
        return t[1]
    if tag == "name":
        return name(t[1])
    if tag == "call":
        return call(t[1], t[2])
    if tag == "neg":
        v = _eval(t[1], name, call, src)
        return v if v is UNKNOWN else -v
    a, b = _eval(t[1], name, call, src), _eval(t[2], name, call, src)
    if a is UNKNOWN or b is UNKNOWN:
        return UNKNOWN
    if tag == "+":
        v = a + b
    elif tag == "-":
        v = a - b
    elif tag == "*":
        v = a * b
    else:
        if b == 0:
            raise ExprError(f"'{src}' divides by zero", "check the numbers it names")
        if tag == "/" and a % b:
            raise ExprError(f"'{src}': {a} / {b} does not come out whole",
                            "use // to round down, or check the numbers it names")
        v = a // b
    if abs(v) > MAX_VALUE:
        raise ExprError(f"'{src}' reaches {v}, beyond {MAX_VALUE}", "check the numbers it names")
    return v


def is_id(s: str) -> bool:
    return bool(_ID.match(s))


__all__ = ["parse", "evaluate", "names", "ExprError", "UNKNOWN", "FUNCTIONS", "MAX_CHARS"]
