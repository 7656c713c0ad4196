"""Generated documentation stays in step with the code."""

from conftest import ROOT
from generator import docs_
from generator.diagnostics import CODES
from generator.i18n import catalog, extract


def test_diagnostics_doc_lists_every_code():
    text = (ROOT / "docs/diagnostics.md").read_text(encoding="utf-8")
    assert text == docs_.diagnostics_md(), "run `python -m generator.docs_`"
    for code in CODES:
        assert f"| {code} |" in text


def test_authoring_schema_reference_is_current():
    text = (ROOT / "docs/authoring.md").read_text(encoding="utf-8")
    assert docs_.authoring_with_reference(text) == text, "run `python -m generator.docs_`"
    assert "### `SetupStep`" in text and "`per_player`" in text


def test_every_interface_string_is_translated():
    messages = extract()
    assert "Setup" in messages and "Players" in messages
    for tag in ("zh-TW", "es"):
        table = catalog(tag)
        missing = [m for m in messages if m not in table]
        assert missing == [], f"{tag} lacks {missing}"
        for m in messages:  # placeholders survive translation
            assert ("{n}" in m) == ("{n}" in table[m]), (tag, m)
