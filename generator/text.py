"""Text helpers shared by the checks and the renderer: placeholders and literal numbers."""

from __future__ import annotations

import re
from fractions import Fraction

# A placeholder is a name or an expression over names and data (generator/expr.py): {cost},
# {total - count}, {count(tower-tile)}. It starts with a letter, a digit, '_' or '(' (so '{ x }' is prose).
# A hyphen between letters outside a function's id ('{csv-table}', '{eval-rst}') reads as an id, not
# as a subtraction: such braces are prose (write '{total - count}' with spaces to subtract).
PLACEHOLDER = re.compile(r"\{([a-z_(0-9][a-z0-9_ ().+\-*/]{0,200})\}")
_CALL_ARG = re.compile(r"[a-z_][a-z0-9_]*\([a-z0-9_.-]*\)")
_ID_HYPHEN = re.compile(r"[a-z0-9_]-[a-z_]")


def _is_placeholder(expr: str) -> bool:
    return "-" not in expr or not _ID_HYPHEN.search(_CALL_ARG.sub("f()", expr))


def _sub(repl, s: str) -> str:
    if "{" not in s:  # most texts: no placeholder at all
        return s
    return PLACEHOLDER.sub(lambda m: repl(m) if _is_placeholder(m.group(1)) else m.group(0), s)

# A pointer to another part of the pages: [words](#id). The words become a link to the item,
# section, table, card, term or page the id names (empty words: its title); the build checks it.
POINTER = re.compile(r"\[([^\[\]\n]*)\]\(#([a-z0-9]+(?:-[a-z0-9]+)*)\)")

_DIGITS = re.compile(r"\d+")
HALF = Fraction(1, 2)  # "half", 一半, mitad: a number too (a rule that halves in one language halves in all)

# Number words of es and en, read alike (docs/diagnostics.md, "Numbers in texts"): cardinals from
# two, tens, ordinals from second, twice/double and half. One (uno, una, first, primero) is left
# out: it reads too often as "a". An ordinal after an indefinite article means "another" and is
# no number: "a second time" and "una segunda vez" are 再一次.
_UNITS = {
    "en": {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9},
    "es": {"dos": 2, "tres": 3, "cuatro": 4, "cinco": 5, "seis": 6, "siete": 7, "ocho": 8, "nueve": 9},
}
_TENS = {
    "en": {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
           "ninety": 90},
    "es": {"treinta": 30, "cuarenta": 40, "cincuenta": 50, "sesenta": 60, "setenta": 70, "ochenta": 80,
           "noventa": 90},
}
_WORDS = {
    "en": {**_UNITS["en"], **_TENS["en"], "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
           "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "hundred": 100,
           "twice": 2},
    "es": {**_UNITS["es"], **_TENS["es"], "diez": 10, "once": 11, "doce": 12, "trece": 13, "catorce": 14,
           "quince": 15, "dieciséis": 16, "diecisiete": 17, "dieciocho": 18, "diecinueve": 19, "veinte": 20,
           "veintidós": 22, "veintitrés": 23, "veinticuatro": 24, "veinticinco": 25, "veintiséis": 26,
           "veintisiete": 27, "veintiocho": 28, "veintinueve": 29, "cien": 100, "ciento": 100,
           },
}
_ORDINALS = {
    "en": {"second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
           "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12},
    "es": {"segundo": 2, "segunda": 2, "tercer": 3, "tercero": 3, "tercera": 3, "quinto": 5, "quinta": 5,
           "sexto": 6, "sexta": 6, "séptimo": 7, "séptima": 7, "octavo": 8, "octava": 8,
           "noveno": 9, "novena": 9, "décimo": 10, "décima": 10, "undécimo": 11, "undécima": 11,
           "duodécimo": 12, "duodécima": 12},
}
# "cuarto" (a room, a quarter) and "second" as a unit of time are words too often to count:
# write 4.º, 4th. "Double" and "doble" (double-sided) are no number either, as 加倍 is none.
# A half counts where it is an amount: "half of", "half the", "in half"; "la mitad de";
# not a part of a thing: "the upper half", "la mitad inferior".
_HALF = {"en": ("half", {"of", "the", "a", "an", "your", "their", "his", "her", "its", "as", "rounded"}, {"in", "by", "into"}),
         "es": ("mitad", {"de", "del"}, set())}
_PART = {"upper", "lower", "top", "bottom", "left", "right", "front", "back", "first", "second", "other", "last",
         "each", "inner", "outer", "northern", "southern", "eastern", "western"}
_ARTICLES = {"en": {"a", "an"}, "es": {"un", "una"}}
_JOIN = {"en": {"-"}, "es": {"y"}}  # twenty-five, treinta y cinco

_ZH_DIGIT = {"零": 0, "〇": 0, "一": 1, "二": 2, "兩": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}
# A run of Chinese numerals counts as a number only where a number is meant: an ordinal (第二),
# a count followed by a measure word (三張, 兩個, 十輪), a choice (二選一), a range whose end has
# a measure word (三到五人, 三或四張), a half (二分之一, 一半, 半數; other fractions are not read).
# So 十字, 百科, 一般 and 一起 are words.
_ZH_MEASURE = ("個个張张枚塊块片元分步輪轮次名種种位隻只顆颗格排點点人回條条本堆層层盒袋項项級级倍場场份組组套座艘區区"
               "疊叠列行段篇頁页年天週周手根道把句筆笔端邊边面間间處处輛辆"
               "季月局換换比對对")  # the last three: exchanges and ratios such as 三換一
_ZH_NUM = "[零〇一二兩两三四五六七八九十百千]+"
_ZH_RANGE = "(?:到|至|或|、|～|~|-|—)"
_ZH_RUN = re.compile(
    r"(?<=第)" + _ZH_NUM
    + r"|" + _ZH_NUM + r"(?=[選选])|(?<=[選选])" + _ZH_NUM  # 二選一, 三選二
    + r"|" + _ZH_NUM + r"(?=" + _ZH_RANGE + _ZH_NUM + "[" + _ZH_MEASURE + r"])"  # the start of 三到五人
    + r"|" + _ZH_NUM + r"(?=[" + _ZH_MEASURE + r"])")
_ZH_ANY = re.compile(_ZH_NUM)
_ZH_FRACTION = re.compile(r"(" + _ZH_NUM + r")分之(" + _ZH_NUM + r")|一半|半數|半数")


def normal(expr: str) -> str:
    """An expression without its spaces: {total-count} and {total - count} are one placeholder."""
    return "".join(expr.split())


def placeholders(s: str) -> set[str]:
    if "{" not in s:
        return set()
    return {normal(p) for p in PLACEHOLDER.findall(s) if _is_placeholder(p)}


def pointers(s: str) -> list[str]:
    """The ids a text points to, in order."""
    return [m.group(2) for m in POINTER.finditer(s)]


def unpoint(s: str, title=None) -> str:
    """The text without pointer markup: each pointer's words, or `title(id)` when it has none."""
    return POINTER.sub(lambda m: m.group(1) or (title(m.group(2)) if title else m.group(2)), s)


def fill(s: str, values) -> str:
    """Replace each {placeholder} with its value. `values` is a dict of names or a
    `quantities.Scope`; a placeholder that cannot be evaluated stays as it is (the checks report it)."""
    if isinstance(values, dict):
        return _sub(lambda m: str(values.get(m.group(1), m.group(0))), s)
    from .expr import ExprError

    def one(m):
        try:
            return str(values.value(m.group(1)))
        except ExprError:
            return m.group(0)
    return _sub(one, s)


def _zh_value(run: str) -> int | None:
    """Value of a run of Chinese numerals (up to 9999): 十二 = 12, 二十 = 20, 兩 = 2."""
    total, current = 0, 0
    for ch in run:
        if ch == "千":
            total += (current or 1) * 1000
            current = 0
        elif ch == "百":
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


def numbers(s: str, lang: str) -> set:
    """The literal numbers a text states: integers 2 and above (0 and 1 read too often as 'a')
    and the fraction one half. docs/diagnostics.md lists the forms with examples."""
    # validate reads every text in every language, and most state no number: each step looks
    # first, in one call in C, for what it reads (a pointer, a brace, a digit, a number word)
    if "](#" in s:
        s = POINTER.sub(lambda m: m.group(1), s)
    if "{" in s:
        s = _sub(lambda m: " ", s)
    digits = _DIGITS.findall(s)
    found: set = set(map(int, digits)) if digits else set()
    base = _BASE.get(lang) or _base(lang)
    if base == "zh":
        if not _ZH_ANY.search(s):
            pass
        elif "半" in s or "分之" in s:
            for m in _ZH_FRACTION.finditer(s):
                if not m.group(1) or (_zh_value(m.group(1)), _zh_value(m.group(2))) == (2, 1):
                    found.add(HALF)  # other fractions are not read (nor are "a third", "un tercio")
            found |= {_zh_value(r) for r in _ZH_RUN.findall(_ZH_FRACTION.sub("　", s))}
        else:
            found |= {_zh_value(r) for r in _ZH_RUN.findall(s)}
    else:
        found |= _word_numbers(s, base)
    if not found:
        return found
    return {n for n in found if n >= 2 or (n < 1 and n > 0)}


_BASE: dict[str, str] = {}


def _base(lang: str) -> str:
    base = _BASE[lang] = lang.split("-")[0].lower()
    return base


def _trie(words) -> str:
    """A regular expression matching any of `words`, as a trie (one branch per first letter, and so
    on): the regex engine then tries few branches at each position of a text."""
    tree: dict = {}
    for w in words:
        node = tree
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def emit(node) -> str:
        alts = [re.escape(ch) + emit(sub) for ch, sub in sorted(node.items()) if ch]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in node else body
    return emit(tree)


_WORD = re.compile(r"[^\W\d_]+")
_TOKEN = re.compile(r"[^\W\d_]+|-(?=[^\W\d_])")
_INTERESTING = {lang: frozenset(_WORDS[lang]) | frozenset(_ORDINALS[lang]) | {_HALF[lang][0]} for lang in _WORDS}
# any of them, inside a word too: most texts hold none, and one search says so three times faster
# than splitting the text into words ("often" passes, then its words show that it holds no "ten")
_ANYWHERE = {lang: re.compile(_trie(words)) for lang, words in _INTERESTING.items()}


def _word_numbers(s: str, base: str) -> set:
    found: set = set()
    interesting = _INTERESTING.get(base)
    if not interesting:
        return found
    low = s.lower()
    if not _ANYWHERE[base].search(low) or interesting.isdisjoint(_WORD.findall(low)):
        return found
    words, ordinals = _WORDS[base], _ORDINALS[base]
    tens, units = _TENS[base], _UNITS[base]
    articles, join, half = _ARTICLES[base], _JOIN[base], _HALF[base]
    tokens = _TOKEN.findall(low)
    i, n = 0, len(tokens)
    while i < n:
        w = tokens[i]
        before = tokens[i - 1] if i else ""
        if w in tens and i + 2 < n and tokens[i + 1] in join and tokens[i + 2] in units:
            found.add(tens[w] + units[tokens[i + 2]])  # twenty-five, treinta y cinco
            i += 3
            continue
        if w == half[0]:
            if before not in _PART and (i + 1 < n and tokens[i + 1] in half[1] or before in half[2]):
                found.add(HALF)
        elif w in words:
            found.add(words[w])
        elif w in ordinals and before not in articles:
            found.add(ordinals[w])
        i += 1
    return found
