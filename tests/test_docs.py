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


def test_no_file_holds_the_markers_of_an_unresolved_merge():
    """A merge once left '<<<<<<< HEAD … >>>>>>> main' in docs/authoring.md, shipped and rendered."""
    import subprocess
    try:
        files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split("\n")
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: the project's own folders
        files = [str(p.relative_to(ROOT)) for d in ("generator", "content", "docs", "tests", "themes", "locale", "bench")
                 for p in (ROOT / d).rglob("*") if p.is_file()]
    found = []
    for name in filter(None, files):
        try:
            text = (ROOT / name).read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        lines = text.splitlines()
        if any(x.startswith("<<<<<<< ") for x in lines) and any(x.startswith(">>>>>>> ") for x in lines):
            found.append(name)
    assert len(files) > 100 and found == []
