"""Change one text of a YAML file in place and nothing else: the comments, key order, quoting and
line layout of the rest of the file stay byte for byte as they were.

`locate` walks the parser's events (PyYAML's pure-Python parser, whose marks count characters)
and records where each scalar's source starts and ends and how it is quoted. `replace_scalar`
writes a new value over exactly that span, in the scalar's own style where the value allows it
(a plain scalar that now needs quoting gets double quotes; a block scalar keeps its header and
indentation); `insert_key` adds a missing language to a text's mapping after its last key.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import yaml

from ..load import _plain


@dataclass
class Span:
    start: int  # character offsets in the file's text
    end: int
    style: str | None  # None (plain), "'", '"', "|", ">"
    column: int  # 0-based column of the start


@dataclass
class MapInfo:
    start: int
    end: int
    flow: bool
    keys: dict = field(default_factory=dict)  # key -> (offset of the key, 0-based column)


def _key(value: str, style) -> object:
    if style is not None:
        return value
    v = _plain(value)
    return value if v is None or isinstance(v, (bool, float)) else v


def locate(text: str, pure: bool = False) -> tuple[dict[tuple, Span], dict[tuple, MapInfo]]:
    """Where every scalar value and every mapping of a (loadable) document stands."""
    scalars: dict[tuple, Span] = {}
    maps: dict[tuple, MapInfo] = {}
    stack: list[list] = []  # [is_map, path, pending key or None, next index]
    loader = yaml.SafeLoader(text) if pure else _parser(text)
    try:
        while True:
            e = loader.get_event()
            if isinstance(e, yaml.StreamEndEvent):
                break
            if isinstance(e, (yaml.ScalarEvent, yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                if stack and stack[-1][0] and stack[-1][2] is None and isinstance(e, yaml.ScalarEvent):
                    k = _key(e.value, e.style or None)
                    stack[-1][2] = k
                    maps[stack[-1][1]].keys[k] = (e.start_mark.index, e.start_mark.column)
                    continue
                if stack:
                    top = stack[-1]
                    path = top[1] + ((top[2],) if top[0] else (top[3],))
                    if top[0]:
                        top[2] = None
                    else:
                        top[3] += 1
                else:
                    path = ()
                if isinstance(e, yaml.ScalarEvent):
                    scalars[path] = Span(e.start_mark.index, e.end_mark.index, e.style or None, e.start_mark.column)
                elif isinstance(e, yaml.MappingStartEvent):
                    maps[path] = MapInfo(e.start_mark.index, -1, bool(e.flow_style))
                    stack.append([True, path, None, 0])
                else:
                    stack.append([False, path, None, 0])
            elif isinstance(e, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                frame = stack.pop()
                if frame[0]:
                    maps[frame[1]].end = e.end_mark.index
    finally:
        loader.dispose()
    return scalars, maps


def _parser(text: str):
    """libyaml's parser where PyYAML has it (its marks count characters too, as tests check), else
    PyYAML's own: the marks are what matters here, and libyaml finds them ten times faster."""
    try:
        from yaml._yaml import CParser
    except ImportError:
        return yaml.SafeLoader(text)
    return CParser(text)


# What a plain scalar may not start with, or hold, to read back as the same text.
_PLAIN_BAD_START = set("-?:,[]{}#&*!|>'\"%@`") | {" "}


def _plain_ok(v: str, flow: bool = False) -> bool:
    if not v or v != v.strip() or "\n" in v or v[0] in _PLAIN_BAD_START:
        return False
    if ": " in v or " #" in v or v.endswith(":") or "\t" in v:
        return False
    if flow and any(c in v for c in ",[]{}"):
        return False
    if not all(ch.isprintable() for ch in v) or "\ufeff" in v:
        return False
    return _plain(v) == v and isinstance(_plain(v), str)


def double_quoted(v: str) -> str:
    out = []
    for ch in v:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif not ch.isprintable() or ch == "\ufeff":
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def flow_scalar(v: str, style: str | None, flow: bool = False) -> str:
    """A one-line scalar in `style` where the value allows it, else double-quoted."""
    if style is None and _plain_ok(v, flow):
        return v
    if style == "'" and "\n" not in v and v == v.strip("\n") and all(ch.isprintable() for ch in v) and v:
        return "'" + v.replace("'", "''") + "'"
    return double_quoted(v)


_HEADER = re.compile(r"[|>][-+0-9]*")


def _block(text: str, span: Span, v: str) -> tuple[int, int, str] | None:
    """The new source of a block scalar (header kept, same indentation), or None when the value
    cannot be written as one (leading spaces, control characters)."""
    header = _HEADER.match(text, span.start)
    if not header or any(ch.isdigit() for ch in header.group()) or not v.strip():
        return None
    if any(not ch.isprintable() for ch in v.replace("\n", "")) or v[0] in " \t":
        return None
    body_start = text.find("\n", header.end())
    if body_start < 0:
        return None
    m = re.compile(r"(?:[ \t]*\n)*( +)\S").match(text, body_start + 1)
    if not m:
        return None
    indent = m.group(1)
    end = span.end
    while end > body_start and text[end - 1] in " \t\n\r":
        end -= 1
    lines = v.split("\n") if span.style == "|" else _folded_lines(v)
    if lines is None:
        return None
    body = "\n".join(indent + line if line else "" for line in lines)
    return header.end(), end, text[header.end():body_start + 1] + body


def _folded_lines(v: str) -> list[str] | None:
    """Lines of a folded (>) block that read back as v: a single line break in v is a blank line."""
    if any(line != line.strip(" ") for line in v.split("\n")):
        return None  # a line with leading or trailing spaces would be read as more indented
    out: list[str] = []
    for i, para in enumerate(v.split("\n")):
        if i:
            out.append("")
        out.append(para)
    return out


def replace_scalar(text: str, span: Span, v: str, flow: bool = False) -> tuple[int, int, str]:
    """(start, end, new source) that writes v over the scalar at `span`."""
    if span.style in ("|", ">"):
        block = _block(text, span, v)
        if block is not None:
            return block
        return span.start, _content_end(text, span), double_quoted(v)
    return span.start, span.end, flow_scalar(v, span.style, flow)


def _content_end(text: str, span: Span) -> int:
    end = span.end
    while end > span.start and text[end - 1] in " \t\n\r":
        end -= 1
    return end


def insert_key(text: str, info: MapInfo, after, scalars: dict, path: tuple, key: str, v: str) -> tuple[int, int, str]:
    """(offset, offset, new source) that adds `key: v` to the mapping at `path`, after the key `after`."""
    value = scalars.get(path + (after,))
    if info.flow:
        pos = _content_end(text, value) if value else info.keys[after][0] + len(str(after))
        return pos, pos, f", {key}: {flow_scalar(v, None, flow=True)}"
    column = info.keys[after][1]
    end = _content_end(text, value) if value else info.keys[after][0]
    nl = text.find("\n", end)
    pos = len(text) if nl < 0 else nl + 1
    prefix = "" if nl >= 0 else "\n"
    return pos, pos, f"{prefix}{' ' * column}{key}: {flow_scalar(v, None)}\n"


def apply(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping (start, end, replacement) edits."""
    out, last = [], 0
    for start, end, new in sorted(edits):
        out.append(text[last:start])
        out.append(new)
        last = end
    out.append(text[last:])
    return "".join(out)
