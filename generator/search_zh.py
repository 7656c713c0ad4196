"""Chinese search without a dictionary: every Han character and every pair of neighbours.

Sphinx's own Chinese search segments text with jieba, whose dictionary is Simplified-based:
it splits Traditional words where a reader would not (編年史卡 into 編年 | 史卡, 行動板塊 into
行動板 | 塊), loads some 350 000 words before the first page is indexed (about a second per
build) and then indexes only what it cut. Search engines for Chinese, Japanese and Korean commonly index overlapping
character bigrams instead (Lucene's CJK analyzer, Elasticsearch's `cjk_bigram`): no dictionary,
so no Simplified bias and nothing to load, and every word of any script is found because a
query is cut the same way.

- Index side (`split`): each run of Han characters gives its characters and its bigrams;
  other runs of letters and digits are words, stemmed as English (Sphinx's zh search does the
  same for Latin words in Chinese pages).
- Query side (`JS_SPLITTER`, copied into language_data.js): a one-character query looks for
  that character; a longer run of Han characters becomes its bigrams, all of which a page must
  hold (Sphinx's search ANDs the terms of a query).
"""

from __future__ import annotations

import re

import snowballstemmer
from sphinx.search import SearchLanguage
from sphinx.search._stopwords.en import ENGLISH_STOPWORDS

# CJK Unified Ideographs, Extension A, Compatibility Ideographs and Extensions B onwards; the
# same ranges go into JS_SPLITTER (JavaScript and Python must cut alike).
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_RUNS = re.compile(f"[{HAN}]+|[^\\W{HAN}]+")
_HAN_RUN = re.compile(f"[{HAN}]")


def han_terms(run: str) -> list[str]:
    """The index words of one run of Han characters: its characters, then its bigrams."""
    return list(run) + [run[i:i + 2] for i in range(len(run) - 1)]


def query_terms(run: str) -> list[str]:
    """What a query of one run of Han characters looks for (mirrors JS_SPLITTER)."""
    return [run] if len(run) == 1 else [run[i:i + 2] for i in range(len(run) - 1)]


def split_query(query: str) -> list[str]:
    """The Python twin of JS_SPLITTER, for tests and tools."""
    out: list[str] = []
    for run in _RUNS.findall(query):
        out += query_terms(run) if _HAN_RUN.match(run) else [run]
    return out


# HAN as a JavaScript character class body (`\u{...}` escapes, for a regular expression with /u)
_JS_HAN = "".join(c if c == "-" else f"\\u{{{ord(c):x}}}" for c in HAN)

JS_SPLITTER = """
/* rulebook: Chinese queries are cut into the character bigrams the index holds
   (generator/search_zh.py); other words as Sphinx cuts them. */
var splitQuery = (query) => {
  const han = /^[HAN]/u;
  const runs = /[HAN]+|[^HAN]+/gu;
  const out = [];
  for (const chunk of query.split(/[^\\p{Letter}\\p{Number}_]+/gu)) {
    for (const run of chunk.match(runs) || []) {
      if (!han.test(run)) { out.push(run); continue; }
      const chars = Array.from(run);
      if (chars.length === 1) { out.push(run); continue; }
      for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1]);
    }
  }
  return out;
};
""".replace("HAN", _JS_HAN)


class SearchChineseBigram(SearchLanguage):
    """Replaces Sphinx's `zh` search language (registered by generator.sphinx_)."""

    lang = "zh"
    # Sphinx writes `window.Stemmer = <language_name>Stemmer;` into language_data.js: Latin
    # words in Chinese pages are stemmed as English, so the English stemmer it is.
    language_name = "English"
    js_stemmer_rawcode = "english-stemmer.js"
    js_splitter_code = JS_SPLITTER
    stopwords = ENGLISH_STOPWORDS

    def __init__(self, options: dict[str, str]) -> None:
        super().__init__(options)
        self.latin_terms: set[str] = set()
        self.stemmer = snowballstemmer.stemmer("english")

    def split(self, input: str) -> list[str]:
        out: list[str] = []
        for run in _RUNS.findall(input):
            if _HAN_RUN.match(run):
                out += han_terms(run)
            else:
                self.latin_terms.add(run)
                out.append(run)
        return out

    def word_filter(self, stemmed_word: str) -> bool:
        if _HAN_RUN.match(stemmed_word):
            return True  # a single character is a word in Chinese
        return len(stemmed_word) > 1 and not stemmed_word.isdigit() and stemmed_word not in self.stopwords

    def stem(self, word: str) -> str:
        if _HAN_RUN.match(word):
            return word
        # as Sphinx's zh search: do not stem a Latin word that stemming would make too short
        stemmed = self.stemmer.stemWord(word.lower())
        if len(word) >= 3 > len(stemmed) and word in self.latin_terms:
            return word.lower()
        return stemmed
