"""JSON Schema export for editors (YAML language server) and for docs/authoring.md.

A game's top-level keys may be spread over several files, so the editor schema requires
nothing at the top level: each file is checked for the keys it has; `rulebook validate`
checks that the merged game is complete."""

from __future__ import annotations

from .model import Game, Site


def game_schema() -> dict:
    schema = _closed(Game.model_json_schema(by_alias=True))
    schema.pop("required", None)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def site_schema() -> dict:
    schema = _closed(Site.model_json_schema(by_alias=True))
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return schema


def _closed(node):
    """A mapping whose keys follow a pattern (a text's language tags, the names of values) takes
    no other key, as the loader refuses one: `zh-tw:` is flagged in the editor too."""
    if isinstance(node, dict):
        if "patternProperties" in node and "additionalProperties" not in node:
            node["additionalProperties"] = False
        for v in node.values():
            _closed(v)
    elif isinstance(node, list):
        for v in node:
            _closed(v)
    return node
