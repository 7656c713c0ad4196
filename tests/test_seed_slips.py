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
    assert [(d.code, d.line, d.column) for d in diags] == [("RB302", line_of(f, "- id: setup-vikings-jarl"), 3)]
    assert "with 2 players (jarl) this step takes 43 'viking' from 'box'" in diags[0].message


def test_castles_solo_rank_table_as_the_seed_prints_it_leaves_holes(tmp_path):
    # seed 003's solo ranks: below 50, 51-70, 71-80, 86-100, above 101 (points are rank numbers)
    content = one_game_content(tmp_path, "castles-of-mad-king-ludwig")
    f = content / "castles-of-mad-king-ludwig" / "game.yaml"
    table = """  tables:
  - id: solo-ranks-as-printed
    name: {zh-TW: 單人評等, es: Rangos en solitario, en: Solo ranks}
    ranges:
    - {min: 0, max: 49, points: 1}
    - {min: 51, max: 70, points: 2}
    - {min: 71, max: 80, points: 3}
    - {min: 86, max: 100, points: 4}
    - {min: 102, max: null, points: 5}
"""
    edit(f, "  tables: []\n", table)
    mark_current(content)  # the table's name is written in every language at once
    _p, diags = validate(content, None, simulation=False)
    assert [(d.code, d.message) for d in diags] == [
        ("RB500", "table 'solo-ranks-as-printed' covers nothing from 50 to 50"),
        ("RB500", "table 'solo-ranks-as-printed' covers nothing from 81 to 85"),
        ("RB500", "table 'solo-ranks-as-printed' covers nothing from 101 to 101"),
    ]
    first = line_of(f, "    - {min: 51, max: 70, points: 2}")
    assert [d.line for d in diags] == [first, first + 2, first + 3]
