"""Sorting words the way readers of each language expect (the glossary's order).

ICU's collation with CLDR's rules, through PyICU:
- zh-TW: by stroke count (CLDR's `stroke` collation, the default for Traditional Chinese):
  the order of Taiwan's dictionaries and indexes, which needs no reading of a character, so a
  polyphone (行 háng/xíng) cannot put a term in the wrong place as a Zhuyin order could;
- es: Spanish rules (CLDR's standard Spanish collation: ñ is a letter after n, accents count
  only to break ties, ch and ll are not letters of their own since the 1994 reform);
- any other language: its CLDR rules (root collation when CLDR has none).
"""

from __future__ import annotations

from functools import lru_cache

RULES = {"zh-TW": "zh_Hant_TW@collation=stroke", "es": "es"}


@lru_cache(maxsize=None)
def _collator(tag: str):
    import icu
    locale = RULES.get(tag) or tag.replace("-", "_")
    c = icu.Collator.createInstance(icu.Locale(locale))
    return c


def sort_key(tag: str):
    """A key function that orders strings of language `tag` by its collation."""
    collator = _collator(tag)
    return collator.getSortKey


def collated(items, tag: str, text):
    """`items` ordered by `text(item)` in language `tag`'s collation (ties keep their order)."""
    key = sort_key(tag)
    return sorted(items, key=lambda i: key(text(i)))


__all__ = ["sort_key", "collated", "RULES"]
