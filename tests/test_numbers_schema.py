"""The JSON Schema accepts exactly what the loader accepts, for the forms of issue 13 (amounts,
tables by player count, expressions in values:). A small validator of the JSON Schema keywords
`rulebook schema` uses stands in for an editor's."""

import json
import re

import pytest
from pydantic import ValidationError

from conftest import ROOT
from generator.model import SetupStep

SCHEMA = json.loads((ROOT / "docs" / "schema" / "game.schema.json").read_text(encoding="utf-8"))


def accepts(schema: dict, value) -> bool:
    if "$ref" in schema:
        return accepts(SCHEMA["$defs"][schema["$ref"].rsplit("/", 1)[1]], value)
    if "anyOf" in schema and not any(accepts(s, value) for s in schema["anyOf"]):
        return False
    kinds = {"integer": int, "string": str, "object": dict, "array": list, "boolean": bool, "null": type(None)}
    t = schema.get("type")
    if t is not None:
        if isinstance(value, bool) and t != "boolean":
            return False
        if not isinstance(value, kinds[t]):
            return False
    if "const" in schema and value != schema["const"]:
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if isinstance(value, str):
        if "pattern" in schema and not re.search(schema["pattern"], value):
            return False
        if len(value) > schema.get("maxLength", len(value)) or len(value) < schema.get("minLength", 0):
            return False
    if isinstance(value, int) and not isinstance(value, bool):
        if value < schema.get("minimum", value) or value > schema.get("maximum", value):
            return False
    if isinstance(value, dict):
        props, patterns = schema.get("properties", {}), schema.get("patternProperties", {})
        if any(k not in value for k in schema.get("required", [])):
            return False
        for k, v in value.items():
            if "propertyNames" in schema and not accepts({"type": "string", **schema["propertyNames"]}, k):
                return False
            matched = [s for p, s in patterns.items() if re.search(p, k)]
            if k in props:
                matched.append(props[k])
            if not matched:
                extra = schema.get("additionalProperties", True)
                if extra is False or (isinstance(extra, dict) and not accepts(extra, v)):
                    return False
            if not all(accepts(s, v) for s in matched):
                return False
    return True


def loader_accepts(data: dict) -> bool:
    try:
        SetupStep.model_validate(data, strict=True)
    except ValidationError:
        return False
    return True


def as_json(node):
    """YAML's integer keys, as a JSON document (and an editor's YAML plugin) spells them."""
    if isinstance(node, dict):
        return {str(k): as_json(v) for k, v in node.items()}
    return node


BASE = {"id": "setup-x", "do": "place", "component": "cube", "to": "supply"}
CASES = [
    {"count": 3}, {"count": "all"}, {"count": "rest"}, {"count": "unknown"}, {"count": "spaces * per_space * players"},
    {"count": "count(tower-tile) - amount(setup-a)"}, {"count": -1}, {"count": "Spaces"}, {"count": "a; b"},
    {"count": "x" * 201}, {"count": True}, {"count": 2.5}, {"count": None},
    {"per_player": 2}, {"per_player": "unknown"}, {"per_player": {2: 3, 3: 2}}, {"per_player": {2: "unknown", 3: 2}},
    {"per_player": {2: "all"}}, {"per_player": {13: 2}}, {"per_player": {0: 2}}, {"per_player": {2: -1}},
    {"per_player": "all"}, {"per_player": {2: "n + 1"}},
    {"by_players": {2: 4, 3: 6}}, {"by_players": {2: "all", 3: "unknown"}}, {"by_players": {2: "rest"}},
    {"by_players": {2: "p2"}}, {"by_players": {13: 1}}, {"by_players": 4},
    {"kinds": {"room-100": 2}}, {"kinds": {"room-100": "small"}}, {"kinds": {"room-100": {2: 4, 3: "small3"}}},
    {"kinds": {"Room": 2}}, {"kinds": {"room-100": {13: 4}}}, {"kinds": {"room-100": -2}},
    {"values": {"total": 12}}, {"values": {"total": "count(x) - 2"}}, {"values": {"small": {1: "small3", 2: 4}}},
    {"values": {"Total": 1}}, {"values": {"total": "2 ** 3"}}, {"values": {"small": {20: 1}}}, {"values": {"t": 1.5}},
]


@pytest.mark.parametrize("extra", CASES, ids=[json.dumps(c, ensure_ascii=False)[:60] for c in CASES])
def test_the_schema_and_the_loader_agree(extra):
    data = {**BASE, **extra}
    assert accepts(SCHEMA["$defs"]["SetupStep"], as_json(data)) == loader_accepts(data)


def test_the_cases_include_both_answers():
    answers = {loader_accepts({**BASE, **c}) for c in CASES}
    assert answers == {True, False}


COMPONENT = {"id": "booklet", "name": {"en": "rulebook"}, "count": 1}
COMPONENT_CASES = [{}, {"role": "reference"}, {"role": "piece"}, {"role": "rulebook"}, {"role": "Reference"},
                   {"role": True}, {"role": None}, {"role": ["reference"]}]


@pytest.mark.parametrize("extra", COMPONENT_CASES, ids=[json.dumps(c) for c in COMPONENT_CASES])
def test_the_schema_and_the_loader_agree_on_a_components_role(extra):
    from generator.model import Component
    data = {**COMPONENT, **extra}
    try:
        Component.model_validate(data, strict=True)
        loaded = True
    except ValidationError:
        loaded = False
    assert accepts(SCHEMA["$defs"]["Component"], data) == loaded
    assert loaded == (extra.get("role", "piece") in ("piece", "reference"))
