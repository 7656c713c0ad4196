"""The translation workflow: staleness, status, export for translators' tools, import back into
the YAML. The exported files are read by tools nobody here wrote: Babel, polib, GNU msgfmt,
translate-toolkit's pofilter and its XLIFF reader."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

from conftest import ROOT, edit, line_of
from generator.cli import main, validate
from generator.project import read_project
from generator.text import numbers
from generator.translations import state as st
from generator.translations.export import export
from generator.translations.importer import import_files

GAME = "tiny/game.yaml"
BIN = Path(sys.executable).parent
# The codes of the translation workflow; test_checks counts them as covered by this file.
TRANSLATION_CODES = {"RB406", "RB407", "RB408", "RB410", "RB411", "RB412"}


def static(content: Path):
    _p, diags = validate(content, None, simulation=False)
    return diags


def codes(diags) -> list[str]:
    return sorted(d.code for d in diags)


@pytest.fixture
def shipped(tmp_path) -> Path:
    dst = tmp_path / "content"
    shutil.copytree(ROOT / "content", dst)
    return dst


def po_of(content: Path, lang: str, game: str, out: Path) -> Path:
    project, _ = read_project(content)
    export(project, lang, "po", out, [game])
    return out / lang / f"{game}.po"


# --- 1. staleness -----------------------------------------------------------------------------

def test_the_shipped_games_start_clean():
    diags = static(ROOT / "content")
    assert [d for d in diags if d.code in TRANSLATION_CODES] == []


def test_a_changed_source_makes_its_translations_stale_until_marked_current(good_content, capsys):
    edit(good_content / GAME, "en: Ana pays coins.}", "en: Ana pays coins at once.}")  # a translation: not stale
    edit(good_content / GAME, "zh-TW: 安娜支付錢幣。", "zh-TW: 安娜馬上支付錢幣。")
    diags = static(good_content)
    stale = [d for d in diags if d.code == "RB406"]
    line = line_of(good_content / GAME, "      - {zh-TW: 安娜馬上支付錢幣。, es: Ana paga monedas., en: Ana pays coins at once.}")
    assert [(d.line, d.severity.value) for d in stale] == [(line, "warning"), (line, "warning")]
    assert "actions.action-buy.examples.0" in stale[0].message and "安娜支付錢幣" in stale[0].message
    assert "mark-current tiny --lang es" in stale[0].hint
    assert main(["validate", "--no-sim", "--content", str(good_content)]) == 0
    assert main(["validate", "--no-sim", "--strict", "--content", str(good_content)]) == 1
    # the Spanish translator updates the text and marks it; English, left alone, stays stale
    edit(good_content / GAME, "es: Ana paga monedas.,", "es: Ana paga monedas enseguida.,")
    assert main(["translations", "mark-current", "tiny", "--lang", "es", "--content", str(good_content)]) == 0
    assert [d.message.split(" ")[1] for d in static(good_content) if d.code == "RB406"] == ["en"]
    assert main(["translations", "mark-current", "--content", str(good_content)]) == 0
    assert static(good_content) == []


def test_reflowing_a_source_text_is_not_a_change(good_content):
    edit(good_content / GAME, "en: The game ends after five rounds.}", "en: The game ends after five rounds.}  # ok")
    edit(good_content / GAME, "zh-TW: 五輪後遊戲結束。", 'zh-TW: "五輪後遊戲結束。 "')
    assert static(good_content) == []


def test_a_new_source_text_is_missing_not_stale(good_content):
    edit(good_content / GAME, "    examples:\n      - {zh-TW: 安娜支付錢幣。",
         "    examples:\n      - {zh-TW: 新的例子。}\n      - {zh-TW: 安娜支付錢幣。")
    diags = static(good_content)
    assert "RB406" not in codes(diags) and "RB400" in codes(diags)
    project, _ = read_project(good_content)
    from generator.translations.status import rows
    es = next(r for r in rows(project, interface=False) if r.lang == "es")
    assert (es.missing, es.stale) == (1, 0)
    assert {i["context"] for i in es.items} == {"actions.action-buy.examples.0"}


def test_without_a_state_file_one_warning_says_how_to_start(good_content):
    (good_content / "tiny" / st.FILE).unlink()
    diags = static(good_content)
    assert codes(diags) == ["RB407"] and "mark-current tiny" in diags[0].hint


def test_a_text_the_state_file_does_not_know_is_reported(good_content):
    lock = good_content / "tiny" / st.FILE
    lines = lock.read_text(encoding="utf-8").splitlines(keepends=True)
    lock.write_text("".join(x for x in lines if not x.startswith("name\tes\t")), encoding="utf-8")
    diags = static(good_content)
    assert codes(diags) == ["RB407"] and diags[0].line == 3 and "name" in diags[0].message


def test_a_mangled_state_line_points_at_its_line(good_content):
    lock = good_content / "tiny" / st.FILE
    lines = lock.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[5] = "<<<<<<< HEAD\n"
    lock.write_text("".join(lines), encoding="utf-8")
    d = [d for d in static(good_content) if d.code == "RB408"]
    assert [(x.file.endswith("tiny/translations.lock"), x.line) for x in d] == [(True, 6)]


def test_the_state_file_is_sorted_and_a_union_merge_is_read_as_current(good_content):
    lock = good_content / "tiny" / st.FILE
    body = [x for x in lock.read_text(encoding="utf-8").splitlines() if not x.startswith("#")]
    assert body == sorted(body) and all(len(x.split("\t")) == 4 for x in body)
    # two branches: one recorded an older source for name/es, the other today's; union keeps both
    old = [x for x in body if x.startswith("name\tes\t")][0].split("\t")
    lock.write_text(lock.read_text(encoding="utf-8") + f"name\tes\t{'0' * 16}\t\"舊\"\n", encoding="utf-8")
    assert static(good_content) == []
    main(["translations", "mark-current", "--content", str(good_content)])
    assert [x for x in lock.read_text(encoding="utf-8").splitlines() if x.startswith("name\tes\t")] == ["\t".join(old)]


def _summary_trusted(content: Path) -> bool:
    project, _ = read_project(content)
    game = project.games["tiny"]
    return st.unchanged(game, project, "zh-TW")


def _without_summary(content: Path):
    """What the full comparison finds: the same content, its summary line removed."""
    lock = content / "tiny" / st.FILE
    kept = lock.read_text(encoding="utf-8")
    lock.write_text("".join(x for x in kept.splitlines(keepends=True) if not x.startswith(st.SUMMARY)),
                    encoding="utf-8")
    try:
        return static(content)
    finally:
        lock.write_text(kept, encoding="utf-8")


def test_mark_current_ends_the_state_file_with_a_summary_that_validate_trusts(good_content):
    lock = good_content / "tiny" / st.FILE
    assert lock.read_text(encoding="utf-8").splitlines()[-1].startswith(st.SUMMARY)
    assert _summary_trusted(good_content) and static(good_content) == []
    # a record hand-edited above the summary: the lines no longer hash alike, every text is compared
    text = lock.read_text(encoding="utf-8")
    line = next(x for x in text.splitlines() if x.startswith("name\tes\t"))
    parts = line.split("\t")
    lock.write_text(text.replace(line, "\t".join([parts[0], parts[1], "0" * 16, parts[3]])), encoding="utf-8")
    assert not _summary_trusted(good_content)
    diags = static(good_content)
    assert codes(diags) == ["RB406"] and "es text of name" in diags[0].message


@pytest.mark.parametrize("change", ["source", "translation-added", "id-renamed", "union-merge"])
def test_a_summary_that_no_longer_matches_leaves_every_text_compared(good_content, change):
    lock = good_content / "tiny" / st.FILE
    assert main(["translations", "mark-current", "--content", str(good_content)]) == 0  # the summary as written today
    assert _summary_trusted(good_content)
    if change == "source":  # the summary covers every source text
        edit(good_content / GAME, "zh-TW: 安娜支付錢幣。", "zh-TW: 安娜馬上支付錢幣。")
        expected = ["RB406", "RB406"]
    elif change == "translation-added":  # and which languages translate each text
        edit(good_content / GAME, "es: Ana paga monedas., ", "")
        lock.write_text("".join(x for x in lock.read_text(encoding="utf-8").splitlines(keepends=True)
                                if not x.startswith("actions.action-buy.examples.0\tes\t")), encoding="utf-8")
        assert main(["translations", "mark-current", "--content", str(good_content)]) == 0
        assert _summary_trusted(good_content)  # the missing es text is no finding of this check
        edit(good_content / GAME, "{zh-TW: 安娜支付錢幣。, ", "{zh-TW: 安娜支付錢幣。, es: Ana paga monedas., ")
        expected = ["RB407"]
    elif change == "id-renamed":  # and each text's context
        edit(good_content / GAME, "id: step-take", "id: step-grab")
        expected = ["RB407", "RB407"]
    else:  # a union merge of two branches that each wrote a summary: lines from both, one body
        text = lock.read_text(encoding="utf-8")
        line = next(x for x in text.splitlines() if x.startswith("summary\tes\t"))
        other = line.split("\t")[:2] + ["0" * 16, '"舊"']
        lock.write_text(text.replace(line + "\n", line + "\n" + "\t".join(other) + "\n")
                        .replace(st.SUMMARY, st.SUMMARY + "0" * 16 + " " + "0" * 16 + "\n" + st.SUMMARY), encoding="utf-8")
        expected = []
    assert not _summary_trusted(good_content)
    diags = static(good_content)
    assert codes([d for d in diags if d.code in TRANSLATION_CODES]) == expected
    assert diags == _without_summary(good_content)


def test_the_summary_reads_no_text_while_the_files_are_byte_for_byte_those_it_was_written_from(good_content, monkeypatch):
    lock = good_content / "tiny" / st.FILE
    assert main(["translations", "mark-current", "--content", str(good_content)]) == 0
    assert len(lock.read_text(encoding="utf-8").splitlines()[-1].split()) == 5  # '#', 'current:' and three hashes
    read = []
    real = st.texts_hash
    monkeypatch.setattr(st, "texts_hash", lambda *a: read.append(1) or real(*a))
    assert _summary_trusted(good_content) and read == []  # the files' hash was enough
    # an edit that is no text (a comment): the files differ, the texts hash still holds
    (good_content / GAME).write_text((good_content / GAME).read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    assert _summary_trusted(good_content) and read == [1]
    assert static(good_content) == []
    # a summary of two hashes, as written before the third: still read
    text = lock.read_text(encoding="utf-8")
    last = text.splitlines()[-1]
    lock.write_text(text.replace(last, " ".join(last.split()[:4])), encoding="utf-8")
    read.clear()
    assert _summary_trusted(good_content) and read == [1]
    # a source text edited: neither hash holds, and the texts are compared
    edit(good_content / GAME, "zh-TW: 安娜支付錢幣。", "zh-TW: 安娜馬上支付錢幣。")
    assert not _summary_trusted(good_content)
    assert codes([d for d in static(good_content) if d.code in TRANSLATION_CODES]) == ["RB406", "RB406"]


def test_no_summary_while_a_translation_is_stale(good_content):
    edit(good_content / GAME, "zh-TW: 安娜支付錢幣。", "zh-TW: 安娜馬上支付錢幣。")
    assert main(["translations", "mark-current", "tiny", "--lang", "es", "--content", str(good_content)]) == 0
    lock = good_content / "tiny" / st.FILE
    assert not any(x.startswith(st.SUMMARY) for x in lock.read_text(encoding="utf-8").splitlines())
    assert [d.message.split(" ")[1] for d in static(good_content) if d.code == "RB406"] == ["en"]
    assert main(["translations", "mark-current", "tiny", "--lang", "en", "--content", str(good_content)]) == 0
    assert lock.read_text(encoding="utf-8").splitlines()[-1].startswith(st.SUMMARY)
    assert _summary_trusted(good_content) and static(good_content) == []


def test_the_state_file_is_an_input_of_the_rebuild_fingerprint(good_content):
    from generator import cache
    before = cache.fingerprint(good_content, {}, 0)
    main(["translations", "mark-current", "--content", str(good_content)])
    assert cache.fingerprint(good_content, {}, 0) == before  # nothing to mark: the file is unchanged
    with open(good_content / "tiny" / st.FILE, "a", encoding="utf-8") as f:
        f.write(f"name\tes\t{'0' * 16}\t\"x\"\n")
    after = cache.fingerprint(good_content, {}, 0)
    assert after.games["tiny"] != before.games["tiny"]


# --- 2. status -------------------------------------------------------------------------------

def test_status_counts_texts_words_and_interface_strings(capsys):
    assert main(["translations", "status", "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    project, _ = read_project(ROOT / "content")
    games = {r["game"] for r in rows}
    assert len({(r["game"], r["lang"]) for r in rows}) == len(rows)  # one row per game and language
    assert games == set(project.games) | {"(interface)"}
    ulm_es = next(r for r in rows if r["game"] == "ulm" and r["lang"] == "es")
    assert ulm_es["source"] == "zh-TW" and ulm_es["texts"] > 300 and ulm_es["percent"] == 100.0
    assert ulm_es["words"] > ulm_es["texts"]
    ui = {r["lang"] for r in rows if r["game"] == "(interface)"}
    assert ui == {"zh-TW", "es"}  # English is the interface strings' source


def test_status_fail_under_and_markdown(good_content, capsys):
    edit(good_content / GAME, "name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game}",
         "name: {zh-TW: 小小遊戲, es: Juego pequeño, en: Tiny game}")
    assert main(["translations", "status", "--content", str(good_content), "--fail-under", "100",
                 "--format", "markdown"]) == 1
    out = capsys.readouterr()
    assert "| tiny | es |" in out.out and "under 100 %" in out.err
    assert main(["translations", "status", "--content", str(good_content), "--fail-under", "90"]) == 0
    capsys.readouterr()
    assert main(["translations", "status", "--content", str(good_content)]) == 0  # no games: list in site.yaml
    assert [x.split()[:2] for x in capsys.readouterr().out.splitlines()[1:]] == [
        ["tiny", "es"], ["tiny", "en"], ["(interface)", "zh-TW"], ["(interface)", "es"]]


# --- 3. export -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("export")
    project, _ = read_project(ROOT / "content")
    for lang in ("es", "en"):
        export(project, lang, "po", out, None)
        export(project, lang, "xliff", out, None)
    return out


def test_po_files_read_alike_in_babel_and_polib(exported):
    from babel.messages.pofile import read_po
    project, _ = read_project(ROOT / "content")
    for po in sorted(exported.glob("*/*.po")):
        with po.open("rb") as f:
            cat = read_po(f)
        babel = {(m.context, m.id): m.string for m in cat if m.id}
        pol = {(e.msgctxt, e.msgid): e.msgstr for e in polib.pofile(str(po))}
        assert babel == pol and len(pol) > 100
        assert len({c for c, _ in pol}) == len(pol)  # one entry per context
        from generator.translations.texts import entries
        sources = {e.context: e.text["zh-TW"].rstrip("\n") for e in entries(project.games[po.stem])}
        assert {c: i for c, i in pol} == sources  # every text, its source as msgid
    ulm = polib.pofile(str(exported / "es" / "ulm.po"))
    assert ulm.metadata["Language"] == "es" and ulm.metadata["X-Rulebook-Game"] == "ulm"


def test_entries_carry_location_placeholder_values_and_glossary_terms(exported):
    ulm = {e.msgctxt: e for e in polib.pofile(str(exported / "es" / "ulm.po"))}
    e = ulm["cards.cards-main.cards.card-cathedral-type.uses.use-cathedral-discard.text"]
    file, line = e.occurrences[0]
    assert file == "content/ulm/cards.yaml"
    assert (ROOT / file).read_text(encoding="utf-8").splitlines()[int(line) - 1].strip().startswith("zh-TW:")
    assert "{points} is 6 today" in e.comment and "glossary: 行動板塊 = loseta de acción" in e.comment
    assert "python-brace-format" in e.flags and "{points}" in e.msgid and "{points}" in e.msgstr
    # the context is made of ids: reordering items does not change it
    assert all(not any(part.isdigit() for part in c.split(".")[:-1]) or ".examples." in c for c in ulm)


def test_msgfmt_check_accepts_every_file(exported):
    assert shutil.which("msgfmt"), "GNU gettext's msgfmt is missing: `make test` installs Debian's gettext"
    for po in sorted(exported.glob("*/*.po")):
        r = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
        assert r.returncode == 0, (po, r.stderr)


def _pofilter(po: Path, tmp: Path, test: str) -> list[polib.POEntry]:
    out = tmp / f"{po.parent.name}-{po.stem}-{test}.po"
    r = subprocess.run([str(BIN / "pofilter"), "--progress=none", "-t", test, str(po), str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return [e for e in polib.pofile(str(out)) if "(pofilter)" in e.tcomment] if out.exists() else []


_FULLWIDTH = str.maketrans("（）［］｛｝", "()[]{}")


# Translations that say in words what the Chinese source puts in brackets, or repeat a placeholder.
BRACKETS_REWORDED = {
    "setup.setup-reveal-cards.text": "（2 人） … becomes 'with 2 players, … with 3'",
    "rules.rules-placement.items.place-7-fence.text": "a bracketed aside of the source is a clause in es and en",
    "setup.setup-goods-karl-out.text": "'{each} silk, {each} glass and {each} gold' repeats the placeholder the source says once",
    "components.hallway.name": "es adds '(a doble cara)' for the source's 雙面",
}


def test_pofilter_variables_and_brackets_find_nothing_unexplained(exported, tmp_path):
    for po in sorted(exported.glob("*/*.po")):
        assert _pofilter(po, tmp_path, "variables") == [], po
        for e in _pofilter(po, tmp_path, "brackets"):
            # pofilter counts ASCII brackets only: a Chinese source writes them full-width （）
            src, tgt = e.msgid.translate(_FULLWIDTH), e.msgstr.translate(_FULLWIDTH)
            same = all(src.count(b) == tgt.count(b) for b in "()[]")
            assert same or e.msgctxt in BRACKETS_REWORDED, (po.name, e.msgctxt, e.msgid, e.msgstr)


def test_each_pofilter_numbers_finding_is_a_number_written_as_a_word(exported, tmp_path):
    project, _ = read_project(ROOT / "content")
    found = 0
    for po in sorted(exported.glob("*/*.po")):
        for e in _pofilter(po, tmp_path, "numbers"):
            found += 1
            src, lang = "zh-TW", po.parent.name
            # pofilter compares digits only; the project's reading also knows 三, 兩, tres,
            # three, third…: there, both sides state the same numbers (0 and 1 read as "a")
            assert numbers(e.msgid, src) == numbers(e.msgstr, lang), (po.name, e.msgctxt, e.msgid, e.msgstr)
    assert found  # there are such texts ("3 張" against "Tres cartas"): the check did run


def test_exports_are_byte_identical(exported, tmp_path):
    project, _ = read_project(ROOT / "content")
    for lang in ("es", "en"):
        export(project, lang, "po", tmp_path, None)
        export(project, lang, "xliff", tmp_path, None)
    for f in sorted(exported.glob("*/*")):
        assert (tmp_path / f.relative_to(exported)).read_bytes() == f.read_bytes(), f


def test_xliff_loads_in_translate_toolkit(exported):
    from translate.storage import factory
    store = factory.getobject(str(exported / "es" / "ulm.xlf"))
    units = {u.getid().split("\x04")[-1]: u for u in store.units if u.istranslatable()}  # id: file\x04unit
    po = {e.msgctxt: e for e in polib.pofile(str(exported / "es" / "ulm.po"))}
    assert set(units) == set(po)
    some = "cards.cards-main.cards.card-cathedral-type.uses.use-cathedral-discard.text"
    assert units[some].source == po[some].msgid and units[some].target == po[some].msgstr


def test_a_stale_entry_is_fuzzy_with_the_previous_source(good_content, tmp_path):
    edit(good_content / GAME, "zh-TW: 安娜支付錢幣。", "zh-TW: 安娜馬上支付錢幣。")
    po = po_of(good_content, "es", "tiny", tmp_path)
    e = {x.msgctxt: x for x in polib.pofile(str(po))}["actions.action-buy.examples.0"]
    assert e.fuzzy and e.previous_msgid == "安娜支付錢幣。" and e.msgid == "安娜馬上支付錢幣。"
    assert e.msgstr == "Ana paga monedas."
    r = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(po)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# --- 4. import -------------------------------------------------------------------------------

def test_round_trip_changes_exactly_the_three_lines_translated(shipped, tmp_path):
    before = {p: p.read_bytes() for p in shipped.rglob("*.yaml")}
    po = po_of(shipped, "es", "ulm", tmp_path)
    cat = polib.pofile(str(po))
    picks = {"actions.action-card.name": "Acción de cartas",
             "cards.cards-main.cards.card-cathedral-type.uses.use-cathedral-discard.text":
                 "Devuelve a la bolsa una de las dos losetas de acción de la carta: ganas {points} puntos.",
             "gaps.gap-empty-bag.text": "Las fuentes no dicen qué pasa si la bolsa se vacía: #1 'dudas'."}
    for e in cat:
        if e.msgctxt in picks:
            e.msgstr = picks[e.msgctxt]
    cat.save()  # as a translator's tool does: polib re-wraps the lines
    diags, changed = import_files(shipped, [po])
    assert [d for d in diags if d.severity.value == "error"] == [] and changed == 3
    changed_lines = []
    for p, old in before.items():
        new = p.read_bytes()
        if new != old:
            a, b = old.decode().splitlines(), new.decode().splitlines()
            assert len(a) == len(b)
            changed_lines += [(p.name, x, y) for x, y in zip(a, b) if x != y]
    assert len(changed_lines) == 3, changed_lines
    project, _ = read_project(shipped)
    ulm = project.games["ulm"].raw
    texts = {c: v for c, v in picks.items()}
    from generator.translations.texts import entries
    got = {e.context: e.text["es"] for e in entries(project.games["ulm"]) if e.context in picks}
    assert got == texts
    quoted = [y for _f, _x, y in changed_lines if "#1" in y][0]
    assert quoted.strip().startswith('es: "') or quoted.strip().startswith("es: '")
    assert ulm["id"] == "ulm"
    # imported translations are recorded as current (Castles' solo-rank holes are acknowledged, not
    # findings; the shipped texts' own style warnings, RB7xx, are not this test's business)
    assert [d for d in static(shipped) if d.severity.value != "acknowledged" and not d.code.startswith("RB7")] == []


def test_import_refuses_changed_sources_unknown_contexts_and_mismatches(shipped, tmp_path):
    po = po_of(shipped, "es", "ulm", tmp_path)
    cat = polib.pofile(str(po))
    by = {e.msgctxt: e for e in cat}
    by["actions.action-card.name"].msgid = "卡片行動（舊）"  # the source changed since the export
    by["cards.cards-main.cards.card-cathedral-type.uses.use-cathedral-discard.text"].msgstr = "Ganas {puntos} puntos."
    # (the cathedral card's own scores are placeholders now: an example with literal numbers differs instead)
    by["cards.cards-main.cards.card-trade-type.examples.0"].msgstr = \
        "Albert pone una carta de fustán en la pila de descarte: devuelve 1 loseta gris a la bolsa, toma 4 monedas."
    by["gaps.gap-empty-bag.text"].msgctxt = "gaps.gap-no-such-gap.text"
    cat.save()
    before = {p: p.read_bytes() for p in shipped.rglob("*")if p.is_file()}
    diags, changed = import_files(shipped, [po])
    got = sorted((d.code, d.file) for d in diags)
    assert got == sorted([("RB412", str(po)), ("RB402", str(po)), ("RB404", str(po)), ("RB411", str(po))])
    text = po.read_text(encoding="utf-8").splitlines()
    for d in diags:  # each points at its entry's msgid line in the PO file
        assert text[d.line - 1].startswith("msgid"), (d.code, d.line)
    assert changed == 0
    assert {p: p.read_bytes() for p in shipped.rglob("*") if p.is_file()} == before  # nothing written
    assert main(["translations", "import", str(po), "--content", str(shipped)]) == 1


def test_fuzzy_entries_wait_for_the_fuzzy_option(good_content, tmp_path):
    edit(good_content / GAME, "zh-TW: 安娜支付錢幣。", "zh-TW: 安娜馬上支付錢幣。")
    po = po_of(good_content, "es", "tiny", tmp_path)
    cat = polib.pofile(str(po))
    e = next(x for x in cat if x.msgctxt == "actions.action-buy.examples.0")
    e.msgstr = "Ana paga monedas enseguida."  # still fuzzy: the translator has not confirmed it
    cat.save()
    assert import_files(good_content, [po])[1] == 0
    assert "Ana paga monedas." in (good_content / GAME).read_text(encoding="utf-8")
    diags, changed = import_files(good_content, [po], fuzzy=True)
    assert changed == 1 and "Ana paga monedas enseguida." in (good_content / GAME).read_text(encoding="utf-8")
    assert sorted(d.message.split(" ")[1] for d in diags if d.code == "RB406") == ["en", "es"]  # imported, still stale
    e.flags.remove("fuzzy")  # now confirmed: imported and recorded current
    cat.save()
    diags, changed = import_files(good_content, [po])
    assert changed == 0 and [d.message.split(" ")[1] for d in diags if d.code == "RB406"] == ["en"]


def test_import_writes_a_missing_translation_into_a_flow_mapping_in_site_order(good_content, tmp_path):
    edit(good_content / GAME, "name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game}", "name: {zh-TW: 小遊戲, en: Tiny game}")
    po = po_of(good_content, "es", "tiny", tmp_path)
    cat = polib.pofile(str(po))
    next(x for x in cat if x.msgctxt == "name").msgstr = "Juego: pequeño"
    cat.save()
    diags, changed = import_files(good_content, [po])
    assert changed == 1 and [d for d in diags if d.severity.value == "error"] == []
    assert 'name: {zh-TW: 小遊戲, es: "Juego: pequeño", en: Tiny game}' in (good_content / GAME).read_text(encoding="utf-8")


def test_xliff_round_trip(good_content, tmp_path):
    from translate.storage import factory
    project, _ = read_project(good_content)
    export(project, "en", "xliff", tmp_path, None)
    path = tmp_path / "en" / "tiny.xlf"
    store = factory.getobject(str(path))
    unit = next(u for u in store.units if u.getid().endswith("\x04name"))
    unit.target = "Tiny game <&> \"test\""
    store.save()
    diags, changed = import_files(good_content, [path])
    assert changed == 1 and [d for d in diags if d.severity.value == "error"] == []
    assert 'en: Tiny game <&> "test"}' in (good_content / GAME).read_text(encoding="utf-8")


def test_a_broken_file_is_a_diagnostic_with_its_line(good_content, tmp_path):
    po = po_of(good_content, "es", "tiny", tmp_path)
    lines = po.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[20] = 'msgstr "unterminated\n'
    po.write_text("".join(lines), encoding="utf-8")
    diags, changed = import_files(good_content, [po])
    assert [d.code for d in diags] == ["RB410"] and diags[0].file == str(po) and changed == 0
    bad = tmp_path / "bad.xlf"
    bad.write_text('<?xml version="1.0"?>\n<xliff>\n<file target-language="es" original="rulebook tiny">\n<oops>\n</xliff>\n')
    diags, _ = import_files(good_content, [bad])
    assert [(d.code, d.line) for d in diags] == [("RB410", 5)]
    other = tmp_path / "es" / "nogame.po"
    other.write_text(po.read_text(encoding="utf-8").replace("X-Rulebook-Game: tiny", "X-Rulebook-Game: nogame"))
    assert [d.code for d in import_files(good_content, [other])[0]] == ["RB410"]


# --- pages -----------------------------------------------------------------------------------

def test_a_stale_text_is_marked_on_its_page_with_a_link_to_the_source(good_content, tmp_path):
    from generator.render import render_language
    edit(good_content / GAME, "zh-TW: 安娜支付錢幣。", "zh-TW: 安娜馬上支付錢幣。")
    project, _ = read_project(good_content)
    render_language(project, "es", tmp_path / "es")
    page = (tmp_path / "es" / "tiny" / "index.md").read_text(encoding="utf-8")
    line = next(x for x in page.splitlines() if "Ana paga monedas" in x)
    assert "Esta traducción puede estar desactualizada" in line
    assert "(rb-source:zh-tw/tiny/index.html#tiny-actions)" in line
    assert page.count("rb-source:") == 1  # only the stale text
    status = (tmp_path / "es" / "translations.md").read_text(encoding="utf-8")
    assert "actions\\.action\\-buy\\.examples\\.0](#tiny-actions)" in status
    render_language(project, "zh-TW", tmp_path / "zh")  # the source language: nothing is marked
    assert "rb-source:" not in (tmp_path / "zh" / "tiny" / "index.md").read_text(encoding="utf-8")
    zh_status = (tmp_path / "zh" / "translations.md").read_text(encoding="utf-8")
    assert "[小遊戲](#tiny-rulebook)" in zh_status and "| 介面 | " in zh_status  # the source: names, interface row
    home = (tmp_path / "es" / "index.md").read_text(encoding="utf-8")
    assert "(translations.md)" in home


def test_every_status_page_link_names_a_label_the_pages_write(tmp_path):
    """The status page links each stale or missing text to a label; a dangling one would stop
    the Sphinx build, so every place a context can map to must be a label some page writes."""
    import re
    from generator.render import render_language
    from generator.translations.pages import place
    from generator.translations.texts import entries
    project, _ = read_project(ROOT / "content")
    render_language(project, "es", tmp_path)
    labels = set()
    for md in tmp_path.rglob("*.md"):
        labels |= set(re.findall(r"^\(([^)]+)\)=$", md.read_text(encoding="utf-8"), re.M))
    for game in project.games.values():
        for e in entries(game):
            page, label = place(game.id, e.context)
            assert label in labels, (e.context, label)
            assert re.search(rf"^\({re.escape(label)}\)=$", (tmp_path / game.id / f"{page}.md").read_text(encoding="utf-8"),
                             re.M), (e.context, page, label)


# --- 5. a new language -----------------------------------------------------------------------

def test_add_language_keeps_the_file_and_the_loop_translates_it(shipped, tmp_path, capsys):
    site = shipped / "site.yaml"
    before = site.read_text(encoding="utf-8")
    assert main(["translations", "add-language", "es-MX", "--content", str(shipped)]) == 0
    after = site.read_text(encoding="utf-8")
    assert after.startswith(before.split("default_language:")[0])  # comments and order kept
    assert "- tag: es-MX\n  name: español (México)\n" in after and after.replace("- tag: es-MX\n  name: español (México)\n", "") == before
    assert main(["translations", "add-language", "es-MX", "--content", str(shipped)]) == 1  # once only
    assert main(["translations", "add-language", "xx-YY", "--content", str(shipped)]) == 1
    capsys.readouterr()
    assert main(["translations", "status", "ursuppe", "--lang", "es-MX", "--format", "json", "--content", str(shipped)]) == 0
    row = json.loads(capsys.readouterr().out)[0]
    assert row["translated"] == 0 and row["missing"] == row["texts"] > 100
    # export → translate (here: the Spanish text stands in for Mexican Spanish) → import
    po = po_of(shipped, "es-MX", "ursuppe", tmp_path)
    project, _ = read_project(shipped)
    from generator.translations.texts import entries
    spanish = {e.context: e.text["es"] for e in entries(project.games["ursuppe"])}
    cat = polib.pofile(str(po))
    for e in cat:
        e.msgstr = spanish[e.msgctxt].rstrip("\n")
    cat.save()
    diags, changed = import_files(shipped, [po])
    assert changed == len(cat), [d for d in diags if d.severity.value == "error"][:3]
    assert not [d for d in diags if d.severity.value == "error" and "ursuppe" in d.file]
    _p, diags = validate(shipped, ["ursuppe"], simulation=False)
    assert [d for d in diags if d.code in ("RB400", "RB406", "RB407")] == []


# --- the YAML editor -------------------------------------------------------------------------

def test_libyaml_and_pyyaml_place_every_value_alike():
    from generator.translations.yamledit import locate
    for path in sorted((ROOT / "content").rglob("*.yaml")) + [ROOT / "tests/fixtures/good/tiny/game.yaml"]:
        text = path.read_text(encoding="utf-8")
        assert locate(text) == locate(text, pure=True), path


@pytest.mark.parametrize("source, new, written", [
    ("k:\n  en: Cards\n", "Cards: all", 'k:\n  en: "Cards: all"\n'),  # a plain scalar that needs quotes now
    ("k:\n  en: Cards\n", "# one", 'k:\n  en: "# one"\n'),
    ("k:\n  en: Cards\n", "true", 'k:\n  en: "true"\n'),
    ("k:\n  en: 'It''s'\n", "It's 'so'", "k:\n  en: 'It''s ''so'''\n"),  # single quotes kept
    ('k:\n  en: "A \\"b\\""\n', 'C "d"', 'k:\n  en: "C \\"d\\""\n'),
    ("k:\n  en: >\n    one\n    two\n  es: x\n", "uno dos", "k:\n  en: >\n    uno dos\n  es: x\n"),  # folded block
    ("k:\n  en: |-\n    one\n    two\nz: 1\n", "uno\ndos\ntres", "k:\n  en: |-\n    uno\n    dos\n    tres\nz: 1\n"),
    ("k: {en: Cards, es: Cartas}  # c\n", "Cartas, todas", 'k: {en: Cards, es: "Cartas, todas"}  # c\n'),
])
def test_a_scalar_is_rewritten_in_its_own_style_and_nothing_else_moves(source, new, written):
    from generator.load import load_text
    from generator.translations.yamledit import apply, locate, replace_scalar
    scalars, maps = locate(source)
    key = ("k", "es") if "es: Cartas" in source else ("k", "en")
    out = apply(source, [replace_scalar(source, scalars[key], new, maps[("k",)].flow)])
    assert out == written
    data, _pos, diags = load_text(out, "x.yaml")
    node = data["k"][key[1]]
    assert diags == [] and node.rstrip("\n") == new


def test_hostile_translator_files_are_diagnostics(good_content, tmp_path):
    po = po_of(good_content, "es", "tiny", tmp_path)
    cat = polib.pofile(str(po))
    next(x for x in cat if x.msgctxt == "name").msgstr = "Juego\u202epequeño"  # a right-to-left override
    cat.save()
    diags, changed = import_files(good_content, [po])
    assert [d.code for d in diags] == ["RB006"] and "U+202E" in diags[0].message and changed == 0
    bomb = tmp_path / "bomb.xlf"
    bomb.write_text('<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>\n'
                    '<xliff><file original="rulebook tiny" target-language="es"><body/></file></xliff>\n')
    assert [d.code for d in import_files(good_content, [bomb])[0]] == ["RB410"]
    huge = tmp_path / "es" / "huge.po"
    huge.write_bytes(b"#" * (5 * 1024 * 1024))
    diags, _ = import_files(good_content, [huge])
    assert [d.code for d in diags] == ["RB410"] and "cap" in diags[0].message
    assert static(good_content) == []  # nothing was written


def test_the_commands_round_trip_from_the_command_line(good_content, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    content = str(good_content)
    assert main(["translations", "export", "--lang", "en", "--content", content]) == 0
    po = tmp_path / "translations" / "en" / "tiny.po"  # the default folder, relative to where it runs
    first = po.read_bytes()
    assert main(["translations", "export", "--lang", "en", "--content", content]) == 0 and po.read_bytes() == first
    text = po.read_text(encoding="utf-8").replace('msgstr "Tiny game"', 'msgstr "Little game"')
    po.write_text(text, encoding="utf-8")
    capsys.readouterr()
    assert main(["translations", "import", str(po), "--content", content]) == 0
    assert "1 translation imported" in capsys.readouterr().err
    assert "en: Little game}" in (good_content / GAME).read_text(encoding="utf-8")
    assert main(["translations", "export", "--lang", "fr", "--content", content]) == 2  # not a site language
    assert main(["translations", "export", "--lang", "es", "--format", "xliff", "--content", content]) == 0
    assert (tmp_path / "translations" / "es" / "tiny.xlf").is_file()


def test_a_stale_heading_gets_its_mark_on_the_line_below(good_content, tmp_path):
    from generator.render import render_language
    edit(good_content / GAME, "name: {zh-TW: 購買, es: Comprar, en: Buy}", "name: {zh-TW: 買下, es: Comprar, en: Buy}")
    edit(good_content / GAME, "term: {zh-TW: 方塊,", "term: {zh-TW: 小方塊,")
    project, _ = read_project(good_content)
    render_language(project, "en", tmp_path / "en")
    page = (tmp_path / "en" / "tiny" / "index.md").read_text(encoding="utf-8").splitlines()
    at = page.index("### Buy")
    assert page[at + 1] == "" and page[at + 2].startswith("*[This translation may be out of date")
    assert "(rb-source:zh-tw/tiny/index.html#tiny-actions)*" in page[at + 2]
    glossary = (tmp_path / "en" / "tiny" / "glossary.md").read_text(encoding="utf-8")
    assert "(rb-source:zh-tw/tiny/glossary.html#tiny-term-term-cube)*" in glossary


def test_an_import_keeps_the_current_record_a_union_merge_left_twice(good_content, tmp_path):
    lock = good_content / "tiny" / st.FILE
    body = lock.read_text(encoding="utf-8")
    line = next(x for x in body.splitlines() if x.startswith("name\tes\t"))
    lock.write_text(body.replace(line + "\n", line + "\n" + f"name\tes\t{'0' * 16}\t\"舊\"\n"), encoding="utf-8")
    po = po_of(good_content, "en", "tiny", tmp_path)  # another language and text
    cat = polib.pofile(str(po))
    next(x for x in cat if x.msgctxt == "name").msgstr = "Little game"
    cat.save()
    diags, changed = import_files(good_content, [po])
    assert changed == 1 and [d for d in diags if d.code in TRANSLATION_CODES] == []
    assert [x for x in lock.read_text(encoding="utf-8").splitlines() if x.startswith("name\tes\t")] == [line]


def test_strict_turns_warnings_not_notes_into_errors(good_content, capsys):
    # the test game has no engine module: a note says so (RB607), which --strict leaves a note
    assert main(["validate", "--strict", "--seeds", "1", "--content", str(good_content)]) == 0
    assert "note RB607" in capsys.readouterr().err
