"""Setup pictures: SVG drawn from the state the setup simulation computes.

Each shared zone is a labelled panel holding its pieces; each group of pieces is drawn as
tokens (one token with a count for a large group) and named beside them. Kinds take their
`colour` from the data when it gives one, else a fixed palette. Every label is in the page's language and
XML-escaped: content never becomes markup here either.
"""

from __future__ import annotations

import random
from xml.sax.saxutils import escape

from ..engine.setup import BOX, SetupResult
from ..model import Game

PALETTE = ["#8c8c8c", "#f2f2f2", "#8b5a2b", "#2f7fc1", "#e8892b", "#5b9e47", "#b8455c", "#7a62b3",
           "#c9a227", "#3aa6a0", "#d06fa0", "#556b2f"]
WIDTH = 720
PANEL_GAP = 14
TOKEN = 22
GROUP_AS_ONE = 8  # a group larger than this draws one token with "×N"
UNSURE = "?"  # a group whose number the sources do not give: one token with "×?"


def _colours(game: Game) -> dict[tuple[str, str], str]:
    colours: dict[tuple[str, str], str] = {}
    i = 0
    for comp in game.components:
        if comp.role == "reference":  # never drawn: its kinds take no colour from the palette
            continue
        if comp.kinds:
            for kind in comp.kinds:
                colours[(comp.id, kind.id)] = getattr(kind, "colour", None) or PALETTE[i % len(PALETTE)]
                i += 1
        colours[(comp.id, "")] = "#d8cbb0"
        i += 1
    return colours


def _grid_panel(body: list[str], y: float, name: str, groups, grid) -> float:
    """Pieces in a rows × columns grid (in the order setup left them), with a key beside it."""
    rows, cols = grid
    cell = 40
    pieces = [(fill, label) for fill, label, n in groups for _ in range(n)]
    random.Random(name).shuffle(pieces)  # setup places them at random: show one such placement
    h = max(30 + rows * cell + 10, 30 + len(groups) * 22 + 10)
    body.append(f'<g transform="translate(10,{y})">')
    body.append(f'<rect width="{WIDTH - 20}" height="{h}" rx="6" fill="#fbf7ef" stroke="#d9d3c7"/>')
    body.append(f'<text x="10" y="20" class="zone">{escape(name)}</text>')
    for i in range(rows * cols):
        r, c = divmod(i, cols)
        x0, y0 = 14 + c * cell, 30 + r * cell
        fill = pieces[i][0] if i < len(pieces) else "none"
        body.append(f'<rect x="{x0}" y="{y0}" width="{cell - 6}" height="{cell - 6}" rx="4" fill="{fill}" stroke="#444"/>')
    kx = 14 + cols * cell + 24
    for i, (fill, label, n) in enumerate(groups):
        ky = 30 + i * 22
        body.append(f'<rect x="{kx}" y="{ky}" width="14" height="14" rx="3" fill="{fill}" stroke="#444"/>')
        caption = f"{label} ×{n}" if n > 1 else label
        body.append(f'<text x="{kx + 20}" y="{ky + 12}" class="count">{escape(caption)}</text>')
    body.append("</g>")
    return y + h + PANEL_GAP


def _text_width(s: str) -> float:
    return sum(13 if ord(ch) > 0x2E80 else 7 for ch in s)


# The site's font stacks, in the order of themes/rulebook/static/rulebook.css (docs/languages.md):
# an SVG shown as an image does not inherit the page's CSS. Latin faces first on a Latin page, so
# that digits and apostrophes are never set full-width by a CJK face (Debian's Chromium, finding
# no Noto Sans, fell through to Noto Sans CJK TC); the CJK face first on a Chinese one.
LATIN_FONTS = '"Noto Sans","DejaVu Sans","Segoe UI","Helvetica Neue",Helvetica,Arial,"Liberation Sans"'
CJK_FONTS = '"Noto Sans CJK TC","Source Han Sans TC","PingFang TC","Microsoft JhengHei","AR PL UMing TW"'


def font_stack(lang: str) -> str:
    """The font-family list for text in language `lang` (a BCP 47 tag)."""
    if lang.split("-")[0].lower() == "zh":
        return f"{CJK_FONTS},{LATIN_FONTS},sans-serif"
    return f"{LATIN_FONTS},{CJK_FONTS},sans-serif"


def setup_svg(game: Game, result: SetupResult, text, title: str, labels: dict[str, str], lang: str = "en") -> str:
    """One picture of the table after setup. `text(localized)` picks the page's language, whose
    BCP 47 tag `lang` picks the fonts."""
    zones = {z.id: z for z in game.zones}
    comps = {c.id: c for c in game.components}
    kinds = {(c.id, k.id): k for c in game.components for k in c.kinds}
    colours = _colours(game)
    panels = []
    for zone_id, counter in result.zones.items():
        if zone_id == BOX or not counter:
            continue
        base, _, player = zone_id.partition("#")
        if player and player != "1":  # every player's zone looks alike: draw the first
            continue
        zone = zones.get(base)
        name = text(zone.name) if zone else base
        if player:
            name = f"{name} ({labels['each_player']})"
        grid = getattr(zone, "grid", None) if zone else None
        groups = []
        for (cid, kid), n in sorted(counter.items(), key=lambda kv: (list(comps).index(kv[0][0]) if kv[0][0] in comps else 0, kv[0][1])):
            if n <= 0:
                continue
            label = text(kinds[(cid, kid)].name) if (cid, kid) in kinds else text(comps[cid].name) if cid in comps else cid
            if (zone_id, cid, kid) in result.unsure or (zone_id, cid, "") in result.unsure:
                n = UNSURE  # the sources do not give this number: the picture does not guess it
            groups.append((colours.get((cid, kid), "#999"), label, n))
        panels.append((name, groups, grid))
    out = []
    y = 40
    body = []
    inner = WIDTH - 20 - 24
    for name, groups, grid in panels:
        if grid and UNSURE not in [n for _f, _l, n in groups] and sum(n for _f, _l, n in groups) <= grid[0] * grid[1]:
            y = _grid_panel(body, y, name, groups, grid)
            continue
        placed, x, row = [], 0, 0
        for fill, label, n in groups:
            if n is UNSURE:
                tokens, caption = 1, f"{label} ×?"
            else:
                tokens = 1 if n > GROUP_AS_ONE else n
                caption = f"{label} ×{n}" if n > 1 else label
            w = tokens * (TOKEN + 3) + 4 + _text_width(caption) + 18
            if x + w > inner and x:
                x, row = 0, row + 1
            placed.append((12 + x, 30 + row * (TOKEN + 10), fill, tokens, caption))
            x += w
        h = 30 + (row + 1) * (TOKEN + 10) + 4
        body.append(f'<g transform="translate(10,{y})">')
        body.append(f'<rect width="{WIDTH - 20}" height="{h}" rx="6" fill="#fbf7ef" stroke="#d9d3c7"/>')
        body.append(f'<text x="10" y="20" class="zone">{escape(name)}</text>')
        for tx, ty, fill, tokens, caption in placed:
            for i in range(tokens):
                body.append(f'<rect x="{tx + i * (TOKEN + 3)}" y="{ty}" width="{TOKEN}" height="{TOKEN}" rx="4" '
                            f'fill="{fill}" stroke="#444"/>')
            body.append(f'<text x="{tx + tokens * (TOKEN + 3) + 4}" y="{ty + 16}" class="count">{escape(caption)}</text>')
        body.append("</g>")
        y += h + PANEL_GAP
    height = y
    out.append(f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
               f'lang="{escape(lang)}" role="img" aria-label="{escape(title, {chr(34): "&quot;"})}">')
    out.append(f"<title>{escape(title)}</title>")
    out.append(f'<style>text{{font-family:{font_stack(lang)};fill:#1d1d1f}}'
               ".title{font-size:16px;font-weight:700}.zone{font-size:13px;font-weight:600}"
               ".count{font-size:12px}.legend{font-size:12px}</style>")
    out.append(f'<text x="10" y="24" class="title">{escape(title)}</text>')
    out += body
    out.append("</svg>")
    return "\n".join(out) + "\n"
