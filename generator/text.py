"""Text helpers shared by the checks and the renderer: placeholders and literal numbers."""

from __future__ import annotations

import re

PLACEHOLDER = re.compile(r"\{([a-z_][a-z0-9_]*)\}")
# A pointer to another part of the pages: [words](#id). The words become a link to the item,
# section, table, card, term or page the id names (empty words: its title); the build checks it.
POINTER = re.compile(r"\[([^\[\]\n]*)\]\(#([a-z0-9]+(?:-[a-z0-9]+)*)\)")

_DIGITS = re.compile(r"\d+")
_WORDS = {
    "en": {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
           "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
           "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
           "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12},
    "es": {"dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8,
           "nueve": 9, "diez": 10, "once": 11, "doce": 12,
           "segundo": 2, "segunda": 2, "tercer": 3, "tercero": 3, "tercera": 3, "quinto": 5, "quinta": 5,
           "sexto": 6, "sexta": 6, "séptimo": 7, "séptima": 7, "octavo": 8, "octava": 8,
           "noveno": 9, "novena": 9, "décimo": 10, "décima": 10},
}
_ZH_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "兩": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}
# A run of Chinese numerals counts as a number only where a number is meant: an ordinal (第二),
# or a count followed by a measure word (三張, 兩個, 十輪). So 十字, 百科 and 一般 are words.
_ZH_MEASURE = ("個个張张枚塊块片元分步輪轮次名種种位隻只顆颗格排點点人回條条本堆層层盒袋項项級级倍場场份組组套座艘區区"
               "疊叠列行段篇頁页年天週周手根道把句筆笔端邊边面間间處处輛辆"
               "季月局換换比對对")  # the last three: exchanges and ratios such as 三換一
_ZH_RUN = re.compile(r"(?:(?<=第)[零〇一二兩两三四五六七八九十百]+|[零〇一二兩两三四五六七八九十百]+(?=[" + _ZH_MEASURE + r"]))")


def placeholders(s: str) -> set[str]:
    return set(PLACEHOLDER.findall(s))


def pointers(s: str) -> list[str]:
    """The ids a text points to, in order."""
    return [m.group(2) for m in POINTER.finditer(s)]


def unpoint(s: str, title=None) -> str:
    """The text without pointer markup: each pointer's words, or `title(id)` when it has none."""
    return POINTER.sub(lambda m: m.group(1) or (title(m.group(2)) if title else m.group(2)), s)


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
    s = PLACEHOLDER.sub(" ", POINTER.sub(lambda m: m.group(1), s))
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
