"""Turning content text into inert MyST Markdown.

Content is data: every ASCII punctuation character is backslash-escaped (CommonMark allows
that for all of them), so no text can become a heading, a list, a link, a role, a directive,
a substitution or HTML. Line breaks fold into spaces, so a text is always one paragraph.
Glossary links are added by the generator around the escaped pieces, never by the content.
"""

from __future__ import annotations

import re
import string

_PUNCT = set(string.punctuation)
_SPACE = re.compile(r"\s+")


def md(text: str) -> str:
    """One line of escaped Markdown."""
    return _escape(_SPACE.sub(" ", text).strip())


def _escape(piece: str) -> str:
    return "".join("\\" + ch if ch in _PUNCT else ch for ch in piece if ch.isprintable())


def link(words: str, url: str) -> str:
    """A link to a web address: `words` is Markdown already escaped; the address goes between < and >
    with every punctuation mark escaped, so Markdown takes it literally (no entity like &amp; is
    decoded, nothing ends the link early) and the page's href is the address as written. Only an
    address the schema accepts (model.Url: http or https, no quote, space or bracket) becomes a
    link; any other gives the words alone."""
    from ..model import safe_url
    if not safe_url(url):
        return words
    return f"[{words}](<{_escape(url)}>)"


class TermLinker:
    """Links glossary terms (and their aliases) in text of one language.

    Latin-script terms match whole words, case-insensitive; CJK terms match anywhere.
    Longest terms win; each term is linked at most once per text."""

    def __init__(self, terms: list[tuple[str, str]]):
        # terms: (surface form, target label)
        self.targets: dict[str, str] = {}
        for surface, label in sorted(terms, key=lambda t: -len(t[0])):
            if surface.strip():
                self.targets.setdefault(surface.lower(), label)
        if self.targets:
            parts = []
            for surface in sorted(self.targets, key=len, reverse=True):
                esc = re.escape(surface)
                # Latin-script terms match whole words; a hyphen joins words ("pushed-out").
                if surface[:1].isascii() and surface[:1].isalnum():
                    esc = r"(?<![\w-])" + esc
                if surface[-1:].isascii() and surface[-1:].isalnum():
                    esc = esc + r"(?![\w-])"
                parts.append(esc)
            self.pattern = re.compile("|".join(parts), re.IGNORECASE)
        else:
            self.pattern = None

    def render(self, text: str, skip: str | None = None) -> str:
        """Escaped Markdown of text with term links; `skip` is a label not to link (the term's own entry)."""
        text = _SPACE.sub(" ", text).strip()
        if self.pattern is None:
            return md(text)
        out, last, used = [], 0, set()
        for m in self.pattern.finditer(text):
            label = self.targets[m.group(0).lower()]
            if label in used or label == skip:
                continue
            used.add(label)
            out.append(_escape(text[last:m.start()]))
            out.append(f"[{_escape(m.group(0))}](#{label})")
            last = m.end()
        out.append(_escape(text[last:]))
        return "".join(out)
