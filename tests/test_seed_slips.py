"""The seeds' slips, transcribed literally, are caught by the validator with the exact
diagnostic; the shipped content carries the corrected value (or the gap) instead."""

from conftest import edit, line_of, mark_current, one_game_content
from generator.cli import validate


def test_jorvik_jarl_43_vikings_per_player_exceeds_the_box(tmp_path):
    # seed 004 says each player takes "43 vikings" in Jarl; the box holds 4 per colour
    content = one_game_content(tmp_path, "jorvik")
    f = content / "jorvik" / "game.yaml"
    edit(f, "  kind: viking-player\n  per_player: 4\n  to: player-supply\n",
         "  kind: viking-player\n  per_player: 43\n  to: player-supply\n")
    _p, diags = validate(content, None, simulation=False)
    # at the amount that overflows, not at the step
    assert [(d.code, d.line, d.column) for d in diags] == [("RB302", line_of(f, "  per_player: 43"), 3)]
    assert diags[0].message == ("with 2 players (jarl) each player takes 43 'viking' from 'box': 86 in all, "
                                "but it holds 20 before this step (and with 3, 4, 5 players)")


ACK = """acknowledge:
- code: RB500
  at: solo-ranks
  key: ['50', 81-85, '101']
"""


def test_castles_solo_rank_table_as_the_seed_prints_it_leaves_holes(tmp_path):
    # seed 003's solo ranks, as printed: fewer than 50, 51-70, 71-80, 86-100, more than 101
    content = one_game_content(tmp_path, "castles-of-mad-king-ludwig")
    f = content / "castles-of-mad-king-ludwig" / "game.yaml"
    text = f.read_text(encoding="utf-8")
    assert ACK in text  # the shipped data keeps the holes on purpose, with its reason
    _p, diags = validate(content, None, simulation=False)
    assert [(d.code, d.severity.value, d.key, d.line, d.column) for d in diags] == [
        ("RB500", "acknowledged", "50", line_of(f, "    - min: 51"), 7),
        ("RB500", "acknowledged", "81-85", line_of(f, "    - min: 86"), 7),
        ("RB500", "acknowledged", "101", line_of(f, "    - min: 102"), 7),
    ]
    assert diags[0].message == "table 'solo-ranks' covers nothing at 50"
    assert diags[0].reason.startswith("The solo rank table of the Chinese source has holes")

    # without the acknowledgement the holes are errors again
    f.write_text(text[:text.index("acknowledge:")], encoding="utf-8")
    _p, diags = validate(content, None, simulation=False)
    assert [(d.code, d.severity.value, d.message) for d in diags] == [
        ("RB500", "error", "table 'solo-ranks' covers nothing at 50"),
        ("RB500", "error", "table 'solo-ranks' covers nothing from 81 to 85"),
        ("RB500", "error", "table 'solo-ranks' covers nothing at 101"),
    ]


def test_an_acknowledgement_cannot_hide_a_later_change(tmp_path):
    content = one_game_content(tmp_path, "castles-of-mad-king-ludwig")
    f = content / "castles-of-mad-king-ludwig" / "game.yaml"
    # a corrected row closes the hole 81-85 and opens 81-84: the old key matches nothing, the new hole is an error
    edit(f, "    - min: 86\n", "    - min: 85\n")
    _p, diags = validate(content, None, simulation=False)
    errors = sorted((d.code, d.key, d.line, d.column) for d in diags if d.severity.value == "error")
    assert errors == [("RB202", "", line_of(f, "  key: ['50', 81-85, '101']"), 15),  # at '81-85' in the list
                      ("RB500", "81-84", line_of(f, "    - min: 85"), 7)]
    [stale] = [d for d in diags if d.code == "RB202"]
    assert stale.message == "the acknowledgement of RB500 at 'solo-ranks' with key '81-85' matches no finding"
    assert "'81-84'" in stale.hint
