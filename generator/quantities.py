"""The numbers a game's data holds, by name: what placeholders and computed amounts refer to.

`GameNumbers(game)` answers the functions of `generator.expr` (a component's, kind's or card's
count, a component's per-colour count and number of kinds, the pieces the card reference
describes, a setup step's amount) and `Scope` resolves the plain names of one text or step:
the `values:` of its item and of the items around it (innermost first), the item's own
`count` / `per_player` / `per_colour`, the game's `colours`, and `players` where a player
count is in question (setup).

A `values:` entry is a whole number, an expression (`"total - count"`) or a table by player
count (`{2: 4, 3: 2, 4: 0}`, entries whole numbers or expressions); an amount of a setup step
(`count`, `per_player`, a `by_players` or `kinds` entry) is the same, plus the words the schema
allows ('all', 'rest', 'unknown'). Both evaluate with `generator.expr`: never `eval`.
"""

from __future__ import annotations

from .expr import UNKNOWN, ExprError, evaluate

UNKNOWN_WORD = "unknown"
MAX_CHAIN = 40  # values naming values naming values…: deeper is refused (Python's stack is not the limit)
_STEP_FIELDS = ("count", "per_player", "per_colour")  # an item's own numbers its texts may name


def _get(obj, key):
    if isinstance(obj, dict):
        return obj.get(key)
    return getattr(obj, key, None)


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


class GameNumbers:
    """The counts of one game's data, by id (ids are unique within a game)."""

    def __init__(self, game):
        self.game = game
        self.count: dict[str, object] = {}
        self.per_colour: dict[str, object] = {}
        self.kinds: dict[str, int] = {}
        self.described: dict[str, object] = {}
        self.steps = {s.id: s for s in game.setup}
        for c in game.components:
            self.count[c.id] = c.count if c.count is not None else UNKNOWN
            self.per_colour[c.id] = c.per_colour if c.per_colour is not None else UNKNOWN
            self.kinds[c.id] = len(c.kinds)
            for k in c.kinds:
                self.count[k.id] = k.count if k.count is not None else UNKNOWN
        # every item whose texts may use placeholders -> the items around it (outermost first)
        self.owners: dict[int, tuple] = {}
        items = list(game.setup) + list(game.actions) + game.rounds.start + game.rounds.turn + game.rounds.end
        items += game.scoring.during + game.scoring.final + game.scoring.tie_breaks + list(game.components)
        for sec in game.rules:
            items += sec.items
        for it in items:
            self.owners[id(it)] = (it,)
        self.items = {it.id: it for it in items}
        for group in game.cards:
            for card in group.cards:
                self.owners[id(card)] = (card,)
                self.items[card.id] = card
                for use in card.uses:
                    self.owners[id(use)] = (card, use)
        for group in game.cards:
            have = self.described.get(group.component, 0)
            for card in group.cards:
                self.count.setdefault(card.id, card.count if card.count is not None else UNKNOWN)
                if card.count is None or have is UNKNOWN:
                    have = UNKNOWN
                else:
                    have += card.count
            self.described[group.component] = have

    def call(self, fn: str, ident: str, players: int | None, seen: frozenset = frozenset()):
        if fn == "amount":
            step = self.steps.get(ident)
            if step is None:
                raise ExprError(f"amount({ident}): no setup step has the id '{ident}'",
                                "name a step of setup:", "name")
            if ident in seen:
                raise ExprError(f"amount({ident}) depends on itself", "break the cycle", "value")
            return step_amount(self, step, players, seen | {ident})
        if fn == "value":
            item_id, _, name = ident.partition(".")
            item = self.items.get(item_id)
            if item is None or not name or name not in (item.values or {}):
                raise ExprError(f"value({ident}): no item '{item_id}' with a value '{name}'",
                                "write value(item-id.name), naming an entry of that item's values:", "name")
            if ident in seen:
                raise ExprError(f"value({ident}) depends on itself", "break the cycle", "value")
            return Scope(self, (item,), players).amount(item.values[name], seen | {ident}, what=name)
        table = {"count": self.count, "per_colour": self.per_colour, "kinds": self.kinds,
                 "described": self.described}[fn]
        if ident not in table or "." in ident:
            sort = {"count": "component, kind or card", "described": "component with cards"}.get(fn, "component")
            raise ExprError(f"{fn}({ident}): no {sort} has the id '{ident}'",
                            f"name a {sort} of this game", "name")
        return table[ident]


def named_values(owner) -> dict:
    """The item's values: by name (a model object or the raw mapping, which may be malformed)."""
    values = _get(owner, "values")
    if not isinstance(values, dict):
        return {}  # not a mapping: its schema error is reported
    return {k: v for k, v in values.items() if isinstance(k, str)}  # a name that is no text: the schema's error


class Scope:
    """The names one text or amount may use: `owners` are the enclosing items, outermost first."""

    def __init__(self, numbers: GameNumbers, owners=(), players: int | None = None):
        self.numbers = numbers
        self.owners = tuple(owners)
        self.players = players

    def defined(self) -> set[str]:
        out = set()
        for o in self.owners:
            out |= set(named_values(o))
            out |= {f for f in _STEP_FIELDS if _get(o, f) is not None}
        return out | {"colours"} | ({"players"} if self.players is not None else set())

    def value(self, src: str, seen: frozenset = frozenset()):
        return evaluate(src, lambda n: self.name(n, seen), lambda f, i: self.numbers.call(f, i, self.players, seen))

    def name(self, n: str, seen: frozenset = frozenset()):
        if n in seen:
            raise ExprError(f"the value '{n}' depends on itself", "break the cycle", "value")
        if len(seen) > MAX_CHAIN:
            raise ExprError(f"'{n}' is reached through more than {MAX_CHAIN} values naming each other",
                            "name the numbers more directly", "value")
        for o in reversed(self.owners):
            values = named_values(o)
            if n in values:
                return self.amount(values[n], seen | {n}, what=n)
            if n in _STEP_FIELDS and _get(o, n) is not None:
                v = _get(o, n)
                if n == "count" and v in ("all", "rest"):
                    raise ExprError(f"this step moves '{v}': there is no single number to show",
                                    "name the count, e.g. {count(component-id)}", "value")
                return self.amount(v, seen | {n}, what=n)
        if n == "players" and self.players is not None:
            return self.players
        if n == "colours":
            return self.numbers.game.colours
        hint = "add it to the item's values:, or fix the name"
        known = sorted(self.defined())
        if known:
            hint += f" (known: {', '.join(known)})"
        raise ExprError(f"'{n}' names no value", hint, "name")

    def amount(self, v, seen: frozenset = frozenset(), what: str = ""):
        """The number a values: entry or a step amount stands for (int or UNKNOWN)."""
        if _is_int(v):
            return v
        if v == UNKNOWN_WORD or v is None:
            return UNKNOWN
        if isinstance(v, str):
            return self.value(v, seen)
        if isinstance(v, dict):
            return self.table(v, seen, what)
        raise ExprError(f"'{what}' is not a number", "", "value")

    def table(self, table: dict, seen: frozenset = frozenset(), what: str = ""):
        if self.players is None:
            vals = {repr(self.amount(x, seen, what)) for x in table.values()}
            if len(vals) == 1:
                return self.amount(next(iter(table.values())), seen, what)
            raise ExprError(f"'{what}' depends on the player count; a text cannot show it as one number",
                            "name one count's value in values:, or write the numbers per count", "value")
        if self.players not in table:
            return 0
        return self.amount(table[self.players], seen, what)


def step_amount(numbers: GameNumbers, step, players: int | None, seen: frozenset = frozenset()):
    """How many pieces a step moves: per player for a per_player step, else in all."""
    scope = Scope(numbers, (step,), players)
    if step.per_player is not None:
        return scope.amount(step.per_player, seen, "per_player")
    if step.by_players is not None:
        return scope.table(step.by_players, seen, "by_players")
    if step.count in ("all", "rest"):
        if step.count == "all" and step.from_ == "box" and step.component:
            return numbers.count.get(step.kind or step.component, UNKNOWN)
        raise ExprError(f"amount({step.id}): the step moves '{step.count}', which depends on what is left",
                        "name counts with count(…) instead", "value")
    if step.count is not None:
        return scope.amount(step.count, seen, "count")
    if step.kinds:
        total = 0
        for k, n in step.kinds.items():
            v = scope.amount(n, seen, k)
            if v is UNKNOWN or total is UNKNOWN:
                total = UNKNOWN
            else:
                total += v
        return total
    return 0


_CACHE: dict[int, tuple] = {}
_OWNERS: dict[int, tuple] = {}  # id(item) -> (item, GameNumbers), for scope_for


def scope_for(owner):
    """The Scope of a text of `owner` (an item of a game whose numbers were made), or None."""
    hit = _OWNERS.get(id(owner))
    if hit is None or hit[0] is not owner:
        return None
    numbers = hit[1]
    return Scope(numbers, numbers.owners.get(id(owner), (owner,)))


def numbers_of(game) -> GameNumbers:
    """The GameNumbers of a game, made once per model object."""
    hit = _CACHE.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]
    if len(_CACHE) > 16:
        _CACHE.clear()
        _OWNERS.clear()
    n = GameNumbers(game)
    _CACHE[id(game)] = (game, n)
    for chain in n.owners.values():
        _OWNERS[id(chain[-1])] = (chain[-1], n)
    return n


__all__ = ["GameNumbers", "Scope", "numbers_of", "step_amount", "UNKNOWN", "UNKNOWN_WORD"]
