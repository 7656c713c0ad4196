"""Text helpers shared by the checks and the renderer: placeholders and literal numbers."""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")

_DIGITS = re.compile(r"\d+")
_WORDS = {
    "en": {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12},
    "es": {"dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
           "nueve": 9, "diez": 10, "once": 11, "doce": 12},
}
_ZH_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "兩": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_RUN = re.compile(r"[零〇一二兩两三四五六七八九十百]+")


def placeholders(s: str) -> set[str]:
    return set(PLACEHOLDER.findall(s))


def fill(s: str, values: dict[str, object]) -> str:
    """Replace {name} with its value; unknown names stay as they are (the checks report them)."""
    return PLACEHOLDER.sub(lambda m: str(values.get(m.group(1), m.group(0))), s)


def _zh_value(run: str) -> int | None:
    """Value of a run of Chinese numerals (up to 999): 十二 = 12, 二十 = 20, 兩 = 2."""
    total, current = 0, 0
    for ch in run:
        if ch == "百":
            total += (current or 1) * 100
            current = 0
        elif ch == "十":
            total += (current or 1) * 10
            current = 0
        else:
            d = _ZH_DIGIT[ch]
            if current and d:  # 一二 (not a number written this way): read digit by digit
                current = current * 10 + d
            else:
                current = d
    return total + current


def numbers(s: str, lang: str) -> set[int]:
    """The literal numbers 2 and above a text states (0 and 1 read too often as 'a')."""
    s = PLACEHOLDER.sub(" ", s)
    found = {int(m) for m in _DIGITS.findall(s)}
    base = lang.split("-")[0].lower()
    if base == "zh":
        found |= {v for v in (_zh_value(r) for r in _ZH_RUN.findall(s)) if v is not None}
    else:
        words = _WORDS.get(base, {})
        for w in re.findall(r"[^\W\d_]+", s.lower()):
            if w in words:
                found.add(words[w])
    return {n for n in found if n >= 2}
