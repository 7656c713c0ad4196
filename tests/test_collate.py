"""The glossary's order in each language, pinned on words whose order a reader knows
(docs/languages.md): zh-TW by stroke count, es by Spanish rules, en ignoring case and accents.
Each list is in the expected order; the code point order, pinyin or Zhuyin, or the pre-1994
Spanish alphabet would each put some of them elsewhere."""

import pytest

from generator.collate import collated, sort_key

ORDERS = {
    # strokes: 一 1, 工 3, 分 4, 卡 5 (卡片 before 卡爾: 片 4 < 爾 14), 阿 8, 黑 12, 護 21;
    # by code point 分 and 卡 would come before 工; by Zhuyin 阿 (ㄚ) would come first
    "zh-TW": ["一般供應區", "工匠卡", "分裂", "卡片區", "卡爾模式", "阿米巴", "黑色區域", "護衛卡"],
    # ñ is a letter after n; accents only break ties (índice with the i's); ch and ll are no
    # letters of their own since 1994 (chal between canto and cosa, llama between lima and luz)
    "es": ["canto", "chal", "cosa", "hambre", "índice", "lima", "límite", "llama", "luz", "nube", "ñandú", "oca"],
    # case and accents do not count first: Jórvík with the j's, Ulm with the u's
    "en": ["amoeba", "Castles", "jarl", "Jórvík", "jorvik trail", "soup", "Ulm", "viking"],
}


@pytest.mark.parametrize("tag", sorted(ORDERS))
def test_words_sort_as_readers_of_the_language_expect(tag):
    words = ORDERS[tag]
    assert sorted(reversed(words), key=sort_key(tag)) == words
    assert sorted(words[::2] + words[1::2], key=sort_key(tag)) == words


def test_collated_keeps_items_and_orders_them_by_their_text():
    items = [{"id": "b", "t": "阿米巴"}, {"id": "a", "t": "一般供應區"}, {"id": "c", "t": "工匠卡"}]
    assert [i["id"] for i in collated(items, "zh-TW", lambda i: i["t"])] == ["a", "c", "b"]
