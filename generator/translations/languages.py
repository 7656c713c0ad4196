"""`rulebook translations add-language`: a new language in content/site.yaml, the rest of the
file (comments, order, quoting) left as it was."""

from __future__ import annotations

import re
from pathlib import Path

from ..load import load_text
from .yamledit import flow_scalar, locate

_TAG = re.compile(r"^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?$")


def add_language(content: Path, tag: str, name: str | None = None) -> tuple[bool, str]:
    """(done, what to tell the user)."""
    if not _TAG.match(tag):
        return False, f"'{tag}' is not a BCP 47 tag as the site writes them (fr, pt-BR, zh-Hant-TW)"
    from babel import Locale, UnknownLocaleError
    try:
        locale = Locale.parse(tag, sep="-")
    except (UnknownLocaleError, ValueError):
        return False, f"Babel knows no language '{tag}': interface strings and search need it"
    name = name or locale.get_display_name(locale) or tag
    path = Path(content) / "site.yaml"
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        return False, f"cannot read {path}: {e.strerror}"
    data, _pos, diags = load_text(text, str(path))
    if diags or not isinstance(data, dict) or not isinstance(data.get("languages"), list):
        return False, f"{path} cannot be read (run `rulebook validate`)"
    if any(isinstance(x, dict) and str(x.get("tag", "")).lower() == tag.lower() for x in data["languages"]):
        return False, f"{tag} is already one of the site's languages"
    scalars, maps = locate(text)
    last = ("languages", len(data["languages"]) - 1)
    info = maps.get(last)
    line_start = text.rfind("\n", 0, info.start) + 1 if info else 0
    dash = text[line_start:info.start] if info else ""  # '- ' or '  - ': how this list writes an item
    if info is None or not info.keys or not re.fullmatch(r" *- +", dash):
        return False, f"the languages of {path} are not written as a block list; add '- tag: {tag}' by hand"
    if info.flow:  # - {tag: es, name: Español}
        end = info.end
        entry = f"{dash}{{tag: {flow_scalar(tag, None, True)}, name: {flow_scalar(name, None, True)}}}\n"
    else:
        end = max((sp.end for p, sp in scalars.items() if p[:2] == last), default=info.start)
        col = min(c for _i, c in info.keys.values())
        entry = f"{dash}tag: {flow_scalar(tag, None)}\n{' ' * col}name: {flow_scalar(name, None)}\n"
    nl = text.find("\n", end)
    pos = len(text) if nl < 0 else nl + 1
    item = ("" if nl >= 0 else "\n") + entry
    new = text[:pos] + item + text[pos:]
    check, _p, d = load_text(new, str(path))
    if d or check.get("languages", [])[-1:] != [{"tag": tag, "name": name}]:
        return False, f"could not add the language to {path} safely; add '- tag: {tag}' by hand"
    path.write_text(new, encoding="utf-8")
    return True, (f"{tag} ({name}) added to {path}. Until its texts are translated, build with "
                  f"`rulebook build --allow-untranslated` (pages show the default language, marked); "
                  f"then `rulebook translations export --lang {tag}` makes the files for translators")
