"""Case-blind searches over every text of a game, run only where they can match.

The style and pointer checks look for words in every text of every language (US spellings,
remarks about the sources, "see … below"). A case-blind regular expression that starts at a word
boundary is slow in Python's engine: it is tried at every position of every text. Most texts hold
none of the words, so each search names keywords, one of which every match holds in lower case;
the texts of a language are lowered once, joined, and searched for the keywords in one pass, and
the search itself runs only on the texts where a keyword was found. Its answers are the same as
running it on every text (tests/test_scan.py holds them to that).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate

from ..text import _trie

# Characters that a case-blind search matches to an ASCII letter but that str.lower() does not
# turn into it: 'ſ' (long s) and the Kelvin sign 'K' match s and k; dotted and dotless I match i
# (and 'İ' lowers to two characters). A text holding one is searched in full.
FOLDS = {0x17F: "s", 0x212A: "k", 0x130: "i", 0x131: "i"}
_ODD_FOLD = re.compile("[" + "".join(map(chr, FOLDS)) + "]")


def folded(word: str) -> str:
    """A word as the case-blind search reads it, in lower case ('colorſ' is 'colors')."""
    return word.translate(FOLDS).lower()


_SEP = "\x00"  # the loader refuses control characters, so no text holds it


class Search:
    """A regular expression and keywords: one of them, in lower case, is in every match."""

    def __init__(self, pattern: re.Pattern, keywords):
        self.pattern = pattern
        self.keywords = frozenset(keywords)
        self._any = re.compile(_trie(self.keywords))

    def first(self, texts: list[str]) -> dict[int, str]:
        """For each index of `texts` whose text the pattern matches: its first match."""
        if not texts:
            return {}
        joined = _SEP.join(texts)
        low = joined.lower()
        if len(low) != len(joined) or _ODD_FOLD.search(joined):
            candidates = range(len(texts))
        else:
            ends = list(accumulate(len(t) + 1 for t in texts))  # just past each text's separator
            candidates = sorted({bisect_right(ends, m.start()) for m in self._any.finditer(low)})
        out = {}
        search = self.pattern.search
        for i in candidates:
            m = search(texts[i])
            if m:
                out[i] = m.group(0)
        return out


def first_by_language(searches: dict[str, Search | re.Pattern], texts: list[tuple[int, str, str]]) -> dict[tuple[int, str], str]:
    """(number, language) → first match, for texts given as (number, language tag, text): each is
    searched with its language's search (by the tag's first part: 'zh' for zh-TW), or not at all."""
    by_tag: dict[str, tuple[list[int], list[str]]] = {}
    for n, lang, s in texts:
        group = by_tag.get(lang)
        if group is None:
            group = by_tag[lang] = ([], [])
        group[0].append(n)
        group[1].append(s)
    out: dict[tuple[int, str], str] = {}
    for lang, (numbers, strings) in by_tag.items():
        search = searches.get(lang.split("-")[0].lower())
        if search is None:
            continue
        if isinstance(search, Search):
            for i, found in search.first(strings).items():
                out[(numbers[i], lang)] = found
        else:  # a plain pattern, fast enough as it is (no case folding, no word boundary to try everywhere)
            for n, s in zip(numbers, strings):
                m = search.search(s)
                if m:
                    out[(n, lang)] = m.group(0)
    return out
