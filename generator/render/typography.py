"""Typography of each language that the pages' parts need when they are put together.

The first letter of a text that follows a label's colon ("Tower variant only: …"): Spanish
writes the word after a colon in running text in lower case (RAE), and so does British English,
the house style of the English texts (docs/languages.md). A content text is written to stand
alone, so it begins with a capital; after a mode's label (`{modes} only: `) it goes on the same
line as a continuation, and its first letter is lowered there, unless the first word is a name.
A name is a word the game's texts in that language capitalise inside a sentence ("el Danubio",
"the Jarl game", "de Ulm") and never write in lower case, or a word with another capital in it
(BP, McX). Languages without letter case (Chinese) and those not listed keep their text as written.

No space before a mark in Chinese: a source or gap mark ([2], [?]), a stale translation's mark
or an emphasised note comes straight after a Chinese character or a full-width punctuation mark
(「…為止。[?]」), where Latin text has a space ("… ends. [?]"); after a Latin letter or a digit
on a Chinese page the space stays.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

from ..text import unpoint

LOWER_AFTER_COLON = {"es", "en"}  # by base language
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_LEAD = re.compile(r"^[\s\"'“‘«(\[¿¡]*")  # what may come before the first letter


def names_in(game: BaseModel, tag: str) -> set[str]:
    """The words the game's texts in language `tag` capitalise inside a sentence."""
    capitalised: set[str] = set()
    lower: set[str] = set()
    for s in _texts(game, tag):
        s = unpoint(s)
        for m in _WORD.finditer(s):
            word, at = m.group(0), m.start()
            if word.islower():
                lower.add(word)
            # after a lowercase word (or a comma) and a space: inside a sentence
            elif word[0].isupper() and at >= 2 and s[at - 1] == " " and (s[at - 2].islower() or s[at - 2] == ","):
                capitalised.add(word)
    # a common word capitalised inside a title ("The Speicherstadt") is written in lower case elsewhere
    return {w for w in capitalised if w.lower() not in lower}


def _texts(node, tag: str):
    if isinstance(node, BaseModel):
        for name in type(node).model_fields:
            yield from _texts(getattr(node, name), tag)
    elif isinstance(node, dict):
        text = node.get(tag)
        if isinstance(text, str):
            yield text
        for v in node.values():
            if isinstance(v, (BaseModel, dict, list)):
                yield from _texts(v, tag)
    elif isinstance(node, list):
        for v in node:
            yield from _texts(v, tag)


def after_colon(s: str, tag: str, names: set[str]) -> str:
    """`s` as it goes on after a label's colon in language `tag`: its first letter lowered where
    the language wants it and the first word is no name."""
    if tag.split("-")[0].lower() not in LOWER_AFTER_COLON:
        return s
    start = _LEAD.match(s).end()
    m = _WORD.match(s, start)
    if m is None:
        return s
    word = m.group(0)
    if not word[0].isupper() or any(ch.isupper() for ch in word[1:]) or word in names:
        return s
    return s[:start] + word[0].lower() + s[start + 1:]


# a Chinese character, or full-width punctuation (。，、：；「」（）…), or a CJK symbol
_CJK = "[\u2e80-\u2fff\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]"
# a space before a mark (MyST as the templates write it): [?](…), [\[2\]](…), a stale mark *[…](rb-source:…)*,
# an emphasised Chinese note *不在來源中：*; and after such a note, before its text
# (also after a glossary link whose words end in Chinese: 「…[市徽](#…) [?](#…)」)
_BEFORE_MARK = re.compile(rf"({_CJK}|{_CJK}\]\(#[a-z0-9-]+\)) (?=\[\?\]\(|\[\\\[\d+\\\]\]\(|\*\[|\*{_CJK})")
_AFTER_NOTE = re.compile(rf"(?<={_CJK}\*) (?={_CJK}|\[)")


def cjk_marks(page: str) -> str:
    """A Chinese page's MyST without the spaces Latin text puts before its marks."""
    return _AFTER_NOTE.sub("", _BEFORE_MARK.sub(r"\1", page))


__all__ = ["after_colon", "names_in", "cjk_marks", "LOWER_AFTER_COLON"]
