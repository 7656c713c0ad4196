"""Load: safe YAML into plain Python values that remember where they came from.

Only YAML's plain core is accepted: mappings, sequences and scalars. Tags, anchors, aliases
and merge keys are refused (they are how YAML is made to run code or to explode), and so are
duplicate keys at any depth. Every value's position (file, line, column; 1-based) is kept in a
`Positions` map keyed by the value's path, so any later stage can point at the value at fault.

Clean files are read with libyaml's C parser (`_load_fast`); anything unusual goes to the pure-
Python path (`_load_pure`), which gives every diagnostic. Both give the same data and marks
(tests/test_load_fast.py); without libyaml, every file takes the pure-Python path.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any, NamedTuple

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from .diagnostics import Diagnostic
from .limits import INVISIBLE, MAX_DEPTH, MAX_FILE_BYTES, MAX_LINE_CHARS, MAX_NODES

PathT = tuple  # a path of mapping keys and list indices from the document root

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


class Mark(NamedTuple):
    """A place in a file (1-based line and column, counted in characters). A named tuple, not a
    frozen dataclass: the loader makes one per value, and a tuple is ten times cheaper to make."""

    file: str
    line: int
    column: int


class Positions:
    """Where each value (and each mapping key) of a loaded document stands.

    `values` and `keys` map paths to marks. The fast path does not fill them while it reads: it
    keeps each file's marks in document order (`_Marks`), and `of` finds a path's mark from the
    data when a diagnostic asks for it. Validating clean content asks for few marks, and making a
    path and a mark for each of the ~23,000 values of the shipped games took a sixth of
    `validate --no-sim`. Reading `values` or `keys` fills them, in document order (as the
    pure-Python path does)."""

    __slots__ = ("_parts", "_root")

    def __init__(self, values: dict | None = None, keys: dict | None = None):
        # eager (values, keys) pairs and lazy _Marks, in the order they were added: a later one's
        # mark of a path wins, as with dict.update
        self._parts: list = [] if values is None and keys is None else [({} if values is None else values,
                                                                          {} if keys is None else keys)]
        self._root: Mark | None = None

    @property
    def values(self) -> dict[PathT, Mark]:
        return self._fill()[0]

    @property
    def keys(self) -> dict[PathT, Mark]:
        return self._fill()[1]

    def _fill(self) -> tuple[dict, dict]:
        parts = self._parts
        if len(parts) == 1 and parts[0].__class__ is tuple and self._root is None:
            return parts[0]
        values: dict = {}
        keys: dict = {}
        for part in parts:
            v, k = part if part.__class__ is tuple else part.all()
            values.update(v)
            keys.update(k)
        if self._root is not None:
            values[()] = self._root
        self._parts, self._root = [(values, keys)], None
        return values, keys

    def _value(self, p: PathT) -> Mark | None:
        if not p and self._root is not None:
            return self._root
        for part in reversed(self._parts):
            m = part[0].get(p) if part.__class__ is tuple else part.value(p)
            if m is not None:
                return m
        return None

    def _key(self, p: PathT) -> Mark | None:
        for part in reversed(self._parts):
            m = part[1].get(p) if part.__class__ is tuple else part.key(p)
            if m is not None:
                return m
        return None

    def of(self, path: PathT, key: bool = False) -> Mark | None:
        """The mark of `path`, or of its nearest ancestor that has one."""
        p = tuple(path)
        while True:
            m = self._key(p) if key else self._value(p)
            if m is not None:
                return m
            if key:
                m = self._value(p)
                if m is not None:
                    return m
            if not p:
                return None
            p = p[:-1]

    def set_root(self, mark: Mark) -> None:
        """The mark of the whole document (of a merged game: its game.yaml's)."""
        self._root = mark

    def update(self, other: "Positions") -> None:
        self._parts += other._parts
        if other._root is not None:
            self._parts.append(({(): other._root}, {}))


class _Marks:
    """The marks of one file read by the fast path: libyaml's start marks of every value and key
    in document order, and for each mapping and list the index just past its last mark. A path's
    mark is found by walking the data along the path and counting the marks of the values passed
    over: the data is not changed after loading, so its order is the document's."""

    __slots__ = ("file", "root", "marks", "ends")

    def __init__(self, file: str, root: dict, marks: list, ends: dict):
        self.file, self.root, self.marks, self.ends = file, root, marks, ends

    def _mark(self, i: int) -> Mark:
        m = self.marks[i]
        return Mark(self.file, m.line + 1, m.column + 1)

    def _index(self, path: PathT) -> tuple[int, int] | None:
        """(index of the key's mark or -1, index of the value's mark) of path, None where the data
        holds no such path."""
        node, i, k = self.root, 0, -1
        ends = self.ends
        for step in path:
            j = i + 1
            if node.__class__ is dict:
                if step not in node:
                    return None
                for name, v in node.items():
                    if name == step:
                        break
                    j = ends[id(v)] if v.__class__ is dict or v.__class__ is list else j + 2
                k, i, node = j, j + 1, node[step]
                continue
            if node.__class__ is list and step.__class__ is int and 0 <= step < len(node):
                for v in node[:step]:
                    j = ends[id(v)] if v.__class__ is dict or v.__class__ is list else j + 1
                k, i, node = -1, j, node[step]
                continue
            return None
        return k, i

    def value(self, path: PathT) -> Mark | None:
        if path and path[-1] == "<key>":
            return None  # as the pure path: a key named '<key>' keeps no mark of its value
        found = self._index(path)
        return self._mark(found[1]) if found else None

    def key(self, path: PathT) -> Mark | None:
        found = self._index(path)
        return self._mark(found[0]) if found and found[0] >= 0 else None

    def all(self) -> tuple[dict, dict]:
        """Every mark by path, in document order."""
        values: dict = {}
        keys: dict = {}
        i = 0
        # a walk in document order: the i-th value or key met has the i-th mark
        stack = [iter([((), self.root, False)])]
        while stack:
            item = next(stack[-1], None)
            if item is None:
                stack.pop()
                continue
            path, v, in_map = item
            if in_map:  # a mapping's key, then its value
                keys[path] = self._mark(i)
                i += 1
            if not (in_map and path[-1] == "<key>"):  # as the pure path: a key named '<key>' keeps no mark of its value
                values[path] = self._mark(i)
            i += 1
            if v.__class__ is dict:
                stack.append(iter([(path + (k,), x, True) for k, x in v.items()]))
            elif v.__class__ is list:
                stack.append(iter([(path + (n,), x, False) for n, x in enumerate(v)]))
        return values, keys


# A directive is a line starting with % before the document's first content.
_DIRECTIVE = re.compile(r"\A(?:[ \t]*(?:#[^\n]*)?\n)*%", re.M)


class _Reject(Exception):
    def __init__(self, code: str, message: str, node_mark, hint: str = ""):
        super().__init__(message)
        self.code, self.message, self.mark, self.hint = code, message, node_mark, hint


def _mark(file: str, m) -> Mark:
    return Mark(file, m.line + 1, m.column + 1)


class _Builder:
    def __init__(self, file: str):
        self.file = file
        self.pos = Positions({}, {})
        self.constructor = yaml.constructor.SafeConstructor()

    def build(self, node: Node, path: PathT, depth: int = 0) -> Any:
        if depth > MAX_DEPTH:
            raise _Reject("RB007", f"nesting deeper than {MAX_DEPTH} levels", node.start_mark,
                          "flatten the structure; no game needs this depth")
        if node.tag not in _PLAIN_TAGS:
            raise _Reject("RB003", f"tag '{node.tag}' is not allowed", node.start_mark,
                          "content is plain data: remove the tag")
        self.pos.values[path] = _mark(self.file, node.start_mark)
        if isinstance(node, MappingNode):
            out: dict = {}
            for knode, vnode in node.value:
                if knode.tag == "tag:yaml.org,2002:merge" or (
                        isinstance(knode, ScalarNode) and knode.value == "<<" and knode.style is None):
                    raise _Reject("RB003", "merge key '<<' is not allowed", knode.start_mark,
                                  "write the keys out in full")
                if not isinstance(knode, ScalarNode):
                    raise _Reject("RB100", "a mapping key must be a plain scalar", knode.start_mark)
                key = self.build(knode, path + ("<key>",), depth + 1)
                if isinstance(key, float) or key is None or isinstance(key, bool):
                    key = knode.value
                if key in out:
                    first = self.pos.keys[path + (key,)]
                    raise _Reject("RB002", f"duplicate key '{key}' (first at line {first.line})",
                                  knode.start_mark, "remove or rename one of the two")
                self.pos.keys[path + (key,)] = _mark(self.file, knode.start_mark)
                out[key] = self.build(vnode, path + (key,), depth + 1)
            self.pos.values.pop(path + ("<key>",), None)
            return out
        if isinstance(node, SequenceNode):
            return [self.build(v, path + (i,), depth + 1) for i, v in enumerate(node.value)]
        try:
            return self.constructor.construct_object(node, deep=True)
        except ValueError:  # int() refuses a string of more than sys.get_int_max_str_digits() digits
            digits = len(node.value.lstrip("+-"))
            raise _Reject("RB007", f"a number of {digits} digits is over Python's cap of {sys.get_int_max_str_digits()}",
                          node.start_mark, "quote it if it is meant as text; no game needs such a number") from None


class _NoAliasComposer(yaml.SafeLoader):
    """PyYAML's safe loader with YAML 1.2 core-schema scalars, no aliases, no explicit tags,
    and a cap on the number of values."""

    # YAML 1.2 core schema, stricter still: only true/false are booleans (not yes/no/on/off),
    # integers are plain decimals without leading zeros (no 0x1F, 0o17, 010, 1_000, 1:30),
    # floats are decimals (no .nan, .inf, sexagesimal), and there are no implicit dates.
    # Everything else stays a string, so a value a user did not mean as a number never becomes
    # one; where the schema wants a number, the string is refused (RB100) with a hint.
    yaml_implicit_resolvers: dict = {}
    nodes = 0
    depth = 0

    def compose_node(self, parent, index):
        event = self.peek_event()
        if isinstance(event, yaml.events.AliasEvent):
            raise _Reject("RB003", f"alias '*{event.anchor}' is not allowed", event.start_mark,
                          "write the value out in full; anchors and aliases are refused")
        if getattr(event, "anchor", None) is not None:
            raise _Reject("RB003", f"anchor '&{event.anchor}' is not allowed", event.start_mark,
                          "write the value out in full; anchors and aliases are refused")
        if getattr(event, "tag", None) is not None:
            raise _Reject("RB003", f"tag '{event.tag}' is not allowed", event.start_mark,
                          "content is plain data: remove the tag")
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Reject("RB007", f"the file holds more than {MAX_NODES} values", event.start_mark,
                          "split the game into several files; no game needs this many values")
        if self.depth > MAX_DEPTH:  # checked while composing: PyYAML's composer recurses
            raise _Reject("RB007", f"nesting deeper than {MAX_DEPTH} levels", event.start_mark,
                          "flatten the structure; no game needs this depth")
        self.depth += 1
        try:
            return super().compose_node(parent, index)
        finally:
            self.depth -= 1


for _tag, _regexp, _first in [
    ("bool", r"^(?:true|True|TRUE|false|False|FALSE)$", "tTfF"),
    ("int", r"^[-+]?(?:0|[1-9][0-9]*)$", "-+0123456789"),
    ("float", r"^[-+]?(?:(?:0|[1-9][0-9]*)\.[0-9]+|(?:0|[1-9][0-9]*)(?:\.[0-9]+)?[eE][-+]?[0-9]+)$",
     "-+0123456789"),
    ("null", r"^(?:~|null|Null|NULL|)$", ["~", "n", "N", ""]),
]:
    _NoAliasComposer.add_implicit_resolver(f"tag:yaml.org,2002:{_tag}", re.compile(_regexp), list(_first))


# The fast path: libyaml's C parser (PyYAML's `yaml._yaml.CParser`) hands out events with their
# marks, and the tree and its positions are built here, with an explicit stack (the C composer
# recurses, and would crash on deep nesting before any cap is checked). It takes plain, clean
# documents only: on anything else (a parser error, a tag, an anchor or alias, a merge key, a
# duplicate key, a directive or second document, a key that is not a scalar, a cap exceeded, an
# empty file or a top level that is not a mapping, and text with tabs or Unicode line or paragraph
# separators, where libyaml and PyYAML's scanner may disagree) it gives up, and the pure-Python
# path reads the file again and gives the diagnostic. libyaml counts columns in characters, as
# PyYAML does; tests/test_load_fast.py checks that both paths agree value for value.
try:
    from yaml._yaml import CParser as _CParser
except ImportError:  # PyYAML built without libyaml: every file takes the pure-Python path
    _CParser = None

_RESOLVE_FIRST: dict[str, list] = {}
for _char, _resolvers in _NoAliasComposer.yaml_implicit_resolvers.items():  # by first character
    for _t, _regexp in _resolvers:
        _RESOLVE_FIRST.setdefault(_char, []).append((_t.rsplit(":", 1)[1], _regexp))
# Text the fast path leaves alone, where libyaml and PyYAML's scanner part ways: tabs, Unicode
# line and paragraph separators, and a '?' that may be an explicit-key indicator: one followed by
# a blank and not right after a letter or digit ("Why? Because" is prose in a scalar). So are a
# plain scalar holding '?' and an empty value inside a flow collection (below).
_QUESTION = re.compile(r"\?(?![^ \r\n])")
_LETTER_OR_DIGIT = re.compile(r"[^\W_]")


def _key_indicator(text: str) -> bool:
    """Whether text holds such a '?' (as r"(?<![^\\W_])\\?(?![^ \\r\\n])" would find it; searched
    from each '?': a pattern that starts with a look-behind is tried at every position)."""
    for m in _QUESTION.finditer(text):
        i = m.start()
        if i == 0 or not _LETTER_OR_DIGIT.match(text, i - 1):
            return True
    return False


class _GiveUp(Exception):
    """The fast path leaves this document to the pure-Python path."""


def _plain(value: str):
    """A plain scalar under the YAML 1.2 core rules of `_NoAliasComposer` (the same resolvers)."""
    for kind, regexp in _RESOLVE_FIRST.get(value[:1], ()):
        if regexp.match(value):
            if kind == "int":
                return int(value)
            if kind == "float":
                return float(value)
            if kind == "bool":
                return value.lower() == "true"
            return None
    return value


def _load_fast(text: str, file: str) -> tuple[dict, Positions] | None:
    """(data, positions) of a clean document, or None to leave it to `_load_pure`."""
    if _CParser is None or "\t" in text or "\u2028" in text or "\u2029" in text or (
            "?" in text and _key_indicator(text)):
        return None
    parser = _CParser(text)
    try:
        return _build_fast(parser, text, file)
    except (_GiveUp, yaml.YAMLError, ValueError):  # a parser error, a huge number: the pure path words it
        return None
    finally:
        parser.dispose()


_NO_KEY = object()  # a mapping's frame between a value and the next key
_BLOCK_STYLES = ("|", ">")
_BLOCK_HEADER = re.compile(r"[|>](?:[-+][1-9]?|[1-9][-+]?)?(?=[ \r\n]|\Z)")  # as PyYAML's scanner wants it


def _build_fast(parser, text: str, file: str) -> tuple[dict, Positions]:
    events = yaml.events
    Scalar, MapStart, SeqStart = events.ScalarEvent, events.MappingStartEvent, events.SequenceStartEvent
    MapEnd, SeqEnd = events.MappingEndEvent, events.SequenceEndEvent
    get = parser.get_event
    if type(get()) is not events.StreamStartEvent:
        raise _GiveUp
    e = get()
    if type(e) is not events.DocumentStartEvent or e.version or e.tags:
        raise _GiveUp
    e = get()
    if type(e) is not MapStart or e.anchor is not None or e.tag is not None:
        raise _GiveUp
    marks: list = [e.start_mark]  # the start mark of every key and value, in document order
    ends: dict[int, int] = {}  # by id of each mapping and list: the index just past its last mark
    add = marks.append
    no_key, resolvable = _NO_KEY, _RESOLVE_FIRST
    nodes, depth = 1, 1
    # the open collection: its container, whether it is a mapping, the key whose value comes next
    # (no_key before a key), whether it is inside a flow collection; its parents wait on `stack`
    # (a stack, not recursion: nesting costs no Python frames)
    cont, is_map, key, flow = {}, True, no_key, e.flow_style
    stack: list[tuple] = []
    while True:
        e = get()
        t = type(e)
        if t is Scalar:
            if e.anchor is not None or e.tag is not None:
                raise _GiveUp
            nodes += 1
            if nodes > MAX_NODES or depth > MAX_DEPTH:
                raise _GiveUp
            raw = e.value
            if e.implicit[0]:
                # in a flow collection, libyaml (0.2.5 on) reads '?' into a plain scalar (PyYAML refuses
                # it), and marks an empty value at the next token (PyYAML: right after the ':')
                if flow and ("?" in raw or not raw):
                    raise _GiveUp
                value = _plain(raw) if raw[:1] in resolvable else raw
            else:
                value = raw
                if e.style in _BLOCK_STYLES and not _BLOCK_HEADER.match(text, e.start_mark.index):
                    raise _GiveUp  # libyaml lets a comment touch a block scalar's header ('|#'); PyYAML refuses it
            add(e.start_mark)
            if is_map:
                if key is no_key:  # this scalar is a key
                    if raw == "<<":
                        raise _GiveUp
                    if value is None or value.__class__ is bool or value.__class__ is float:
                        value = raw  # as _Builder does: such keys stay text
                    if value in cont:
                        raise _GiveUp
                    key = value
                    continue
                cont[key] = value
                key = no_key
            else:
                cont.append(value)
        elif t is MapStart or t is SeqStart:
            if e.anchor is not None or e.tag is not None or (is_map and key is no_key):  # or a key that is no scalar
                raise _GiveUp
            nodes += 1
            if nodes > MAX_NODES or depth > MAX_DEPTH:
                raise _GiveUp
            add(e.start_mark)
            stack.append((cont, is_map, key, flow))
            cont, is_map, key, flow = {} if t is MapStart else [], t is MapStart, no_key, flow or e.flow_style
            depth += 1
        elif t is MapEnd or t is SeqEnd:
            ends[id(cont)] = len(marks)
            if not stack:
                break
            child = cont
            cont, is_map, key, flow = stack.pop()
            depth -= 1
            if is_map:
                cont[key] = child
                key = no_key
            else:
                cont.append(child)
        else:
            raise _GiveUp  # an alias, or the end of the document where a value belongs
    if type(get()) is not events.DocumentEndEvent or type(get()) is not events.StreamEndEvent:
        raise _GiveUp
    pos = Positions()
    pos._parts.append(_Marks(file, cont, marks, ends))
    return cont, pos


_BAD_CHAR = re.compile("[%s]" % "".join(
    ["\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff"] + [chr(o) for o in INVISIBLE]))
_LONG_LINE = re.compile("[^\n]{%d}" % (MAX_LINE_CHARS + 1))


def _scan(text: str, file: str) -> Diagnostic | None:
    """Refuse overlong lines, and characters PyYAML would choke on or that hide in ids and terms."""
    long = None
    if len(text) > MAX_LINE_CHARS and max(map(len, text.split("\n"))) > MAX_LINE_CHARS:  # the cheap test first
        long = _LONG_LINE.search(text)
    if long:
        n = text.count("\n", 0, long.start()) + 1
        return Diagnostic("RB007", f"line {n} is over the cap of {MAX_LINE_CHARS} characters", file, n,
                          MAX_LINE_CHARS + 1, "break the text into shorter lines (a folded '>' block)")
    bad = _BAD_CHAR.search(text)
    if bad:
        n = text.count("\n", 0, bad.start()) + 1
        col = bad.start() - (text.rfind("\n", 0, bad.start()) + 1) + 1
        o = ord(bad.group())
        if o in INVISIBLE:
            return Diagnostic("RB006", f"invisible character U+{o:04X} {INVISIBLE[o]}", file, n, col,
                              "delete it: invisible characters make ids and terms look alike")
        return Diagnostic("RB006", f"control character U+{o:04X}", file, n, col,
                          "delete it; only tabs and line breaks are allowed")
    return None


def _decode(raw: bytes, file: str) -> tuple[str | None, Diagnostic | None]:
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    if raw[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return None, Diagnostic("RB004", "the file is UTF-16, not UTF-8", file, 1, 1,
                                "save the file as UTF-8")
    try:
        return raw.decode("utf-8"), None
    except UnicodeDecodeError as e:
        before = raw[: e.start]
        line = before.count(b"\n") + 1
        col = len(before[before.rfind(b"\n") + 1:].decode("utf-8", "replace")) + 1
        return None, Diagnostic("RB004", f"invalid UTF-8 byte 0x{raw[e.start]:02x}", file, line, col,
                                "save the file as UTF-8")


def load_file(path: Path, display: str | None = None, hasher=None) -> tuple[Any, Positions, list[Diagnostic]]:
    """Load one YAML file. Returns (data, positions, diagnostics); data is None on failure.
    `hasher` (a hashlib object) is fed the file's name and bytes, as they were read."""
    file = display or str(path)
    try:
        raw = path.read_bytes()
    except OSError as e:
        return None, Positions(), [Diagnostic("RB004", f"cannot read the file: {e.strerror}", file)]
    if hasher is not None:
        hasher.update(b"%s\0%d\0" % (path.name.encode("utf-8", "surrogateescape"), len(raw)))
        hasher.update(raw)
    if len(raw) > MAX_FILE_BYTES:
        return None, Positions(), [Diagnostic("RB007", f"the file is {len(raw)} bytes, over the cap of {MAX_FILE_BYTES}",
                                              file, 1, 1, "split the game into several files")]
    text, diag = _decode(raw, file)
    if diag:
        return None, Positions(), [diag]
    return load_text(text, file)


def load_text(text: str, file: str) -> tuple[Any, Positions, list[Diagnostic]]:
    if text.startswith("\ufeff"):
        text = text[1:]
    if len(text) > MAX_FILE_BYTES:
        return None, Positions(), [Diagnostic("RB007", f"the text is {len(text)} characters, over the cap of {MAX_FILE_BYTES}",
                                              file, 1, 1, "split the game into several files")]
    bad = _scan(text, file)
    if bad:
        return None, Positions(), [bad]
    directive = _DIRECTIVE.search(text)
    if _CParser is not None and directive is None:
        fast = _load_fast(text, file)
        if fast is not None:
            return fast[0], fast[1], []
    return _load_pure(text, file)


def _load_pure(text: str, file: str) -> tuple[Any, Positions, list[Diagnostic]]:
    """The reference loader: PyYAML's pure-Python scanner and parser. It gives every diagnostic."""
    loader = _NoAliasComposer(text)
    builder = _Builder(file)
    try:
        directive = _DIRECTIVE.search(text)
        if directive:
            line = text.count("\n", 0, directive.end() - 1) + 1
            return None, Positions(), [Diagnostic("RB003", "YAML directives (%YAML, %TAG) are not allowed", file,
                                                  line, 1, "remove the directive line")]
        node = loader.get_single_node()
        if node is None:
            return None, Positions(), [Diagnostic("RB004", "the file is empty", file, 1, 1,
                                                  "a game file is a mapping of keys such as id: and name:")]
        data = builder.build(node, ())
    except _Reject as r:
        m = _mark(file, r.mark)
        excerpt = _line(text, m.line) if r.code != "RB007" else ""
        return None, Positions(), [Diagnostic(r.code, r.message, file, m.line, m.column, r.hint, excerpt=excerpt)]
    except yaml.composer.ComposerError as e:
        m = _mark(file, e.problem_mark)
        return None, Positions(), [Diagnostic("RB003", "the file holds more than one YAML document",
                                              file, m.line, m.column, "remove the '---' and what follows")]
    except yaml.MarkedYAMLError as e:
        return None, Positions(), [syntax_error(e, text, file)]
    except yaml.YAMLError as e:
        return None, Positions(), [Diagnostic("RB001", str(e).splitlines()[0], file, 1, 1)]
    finally:
        loader.dispose()
    if not isinstance(data, dict):
        return None, Positions(), [Diagnostic("RB004", "the top level of the file must be a mapping",
                                              file, 1, 1, "start the file with keys such as id: and name:")]
    return data, builder.pos, []


_BLOCK_END = re.compile(r"expected <block end>, but found '?(<block mapping start>|<block sequence start>|-|<scalar>)")
_START = re.compile(r"found character '(.)' that cannot start any token")


def syntax_error(e: yaml.MarkedYAMLError, text: str, file: str) -> Diagnostic:
    """RB001 in plain words, at the place a person would fix, with the line shown under it.
    (PyYAML's own words, such as "expected <block end>, but found '<block mapping start>'",
    name parser states, not what is wrong with the line.)"""
    problem, context = str(e.problem or ""), str(e.context or "")
    mark = e.problem_mark or e.context_mark
    message, hint = f"YAML cannot read this line ({problem or context})", "check indentation, quotes and colons on this line"
    block = _BLOCK_END.match(problem)
    start = _START.match(problem)
    if block and block.group(1) == "<block mapping start>":
        message = "this line is indented differently from the keys above it, so YAML cannot tell which mapping it belongs to"
        hint = "indent it exactly like the keys it belongs with (the same number of spaces), or deeper under its own key"
    elif block and block.group(1) in ("-", "<block sequence start>"):
        message = "a list item ('- ') where the next key of a mapping belongs"
        hint = "indent the list under its key (key:, then the '- ' items on the next lines, deeper), or write key: value"
    elif block:
        message = "more text after a value that is already complete (often text after a closing quote)"
        hint = "quote the whole text; inside single quotes write a quote twice: 'It''s'"
    elif problem == "mapping values are not allowed here":
        message = "a second ': ' on this line, which YAML reads as the start of another key"
        hint = "quote the text if it holds ': ' (en: 'Note: keep…'), or put a new key on its own line"
    elif problem.startswith("found character '\\t'"):
        line_start = text.rfind("\n", 0, mark.index) + 1
        if text[line_start:mark.index].strip(" \t") == "":
            message, hint = "a tab in the indentation", "YAML indents with spaces only: replace the tab with spaces"
        else:
            message, hint = "a tab inside unquoted text", "replace the tab with a space, or quote the text"
    elif start:
        message = f"a value cannot start with '{start.group(1)}' unless it is quoted"
        hint = f"quote the text: '{start.group(1)}…'"
    elif problem.startswith("found unknown escape character"):
        message = f"an unknown escape ('\\{problem[-2:-1]}') inside double quotes"
        hint = "write the backslash twice, or use single quotes"
    elif "quoted scalar" in context and e.context_mark is not None:
        mark = e.context_mark
        message = "a quote opened here is never closed"
        hint = "end the text with the same quote; inside single quotes write a quote twice ('')"
    elif problem.startswith(("expected ',' or ']'", "expected ',' or '}'")) and e.context_mark is not None:
        opener = "[" if "]" in problem[:18] else "{"
        mark = e.context_mark  # the opening bracket: the end of the file or the next key says little
        message = f"this '{opener}' is never closed"
        hint = f"close it with '{']' if opener == '[' else '}'}', or quote the text if '{opener}' is part of it"
    elif problem == "could not find expected ':'" and e.context_mark is not None:
        mark = e.context_mark
        message = "this line is neither 'key: value' nor a list item (it may be text that continues the line above)"
        hint = "indent the continued text deeper than its key, or quote the whole text; a key needs ': '"
    elif problem.startswith("expected chomping or indentation indicators"):
        message = "'|' or '>' starts a block of text, and nothing may follow it on its line"
        hint = "start the text on the next line, indented, or quote it"
    elif problem.startswith("did not find expected key") or problem.startswith("did not find expected '-' indicator"):
        message = "this line does not line up with the mapping or list it is in"
        hint = "indent it like the keys (or '- ' items) it belongs with"
    elif problem.startswith("expected a comment or a line break"):
        message = "more text after a value that is already complete"
        hint = "quote the whole value"
    elif problem == "found unexpected end of stream":
        message = "the file ends in the middle of a value"
        hint = "close the quote or bracket that is still open"
    m = _mark(file, mark) if mark is not None else Mark(file, 1, 1)
    return Diagnostic("RB001", message, file, m.line, m.column, hint, excerpt=_line(text, m.line))


def _line(text: str, n: int) -> str:
    """Line n (1-based) of text, for the excerpt under a diagnostic; empty past the end or when over the cap."""
    start = 0
    for _ in range(n - 1):
        start = text.find("\n", start) + 1
        if start == 0:
            return ""
    end = text.find("\n", start)
    line = text[start:] if end < 0 else text[start:end]
    return line if len(line) <= 400 else ""


def load_game_dir(folder: Path, display_root: Path, hasher=None) -> tuple[dict | None, Positions, list[Diagnostic]]:
    """Merge a game folder's YAML files (sorted by name) into one mapping.

    Each top-level key may appear in one file only. `hasher` is fed every file read (`load_file`)."""
    merged: dict = {}
    pos = Positions()
    diags: list[Diagnostic] = []
    files = sorted(p for p in folder.iterdir() if p.suffix in (".yaml", ".yml") and p.is_file())
    if not files:
        return None, pos, [Diagnostic("RB004", "the game folder holds no .yaml file", _display(folder, display_root))]
    failed = False
    home = None  # the root of game.yaml: a key missing from the game is reported there
    for f in files:
        data, p, d = load_file(f, _display(f, display_root), hasher)
        diags += d
        if data is None:
            failed = True
            continue
        for key, value in data.items():
            if key in merged:
                k = p.of((key,), key=True)
                first = pos.of((key,), key=True)
                diags.append(Diagnostic("RB002", f"top-level key '{key}' is also in {first.file}:{first.line}",
                                        k.file, k.line, k.column, "each top-level key lives in one file of the game"))
                continue
            merged[key] = value
        pos.update(p)
        if home is None or f.stem == "game":
            home = p.of(())
    if home is not None:
        pos.set_root(home)
    return (None if failed else merged), pos, diags


def _display(p: Path, root: Path) -> str:
    try:
        return str(p.relative_to(root))
    except ValueError:
        return str(p)
