"""Printable PDFs: player-aid cards (reference.pdf) and card translation inserts (cards.pdf).

Each PDF is an HTML document with print CSS, laid out here in millimetres: cards at their real
size with a bleed, placed in a grid on A4 or Letter sheets, crop marks outside the trim (their
length and offset settable), optional backs in duplex order with a settable offset. Playwright
drives Debian's Chromium: one browser for the whole build, JavaScript off, every request that
is not one of the page's own files refused, a hard time limit per PDF.

Fonts are TrueType faces from Debian (DejaVu Sans, AR PL UMing TW) used at weights they have:
Chromium embeds them as subset CID TrueType; CFF faces (Noto CJK) and synthetic bold would come
out as Type 3. Chinese text is therefore never bold.
"""

from __future__ import annotations

import asyncio
import math
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from .diagnostics import Diagnostic
from .i18n import translator, url_segment
from .model import Game
from .project import Project
from .quantities import numbers_of
from .text import fill, unpoint

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]
TEMPLATES = Path(__file__).resolve().parent.parent / "themes" / "print"
PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PT_MM = 25.4 / 72
FONT_SIZES = [9.0, 8.5, 8.0, 7.5, 7.0, 6.5, 6.0, 5.5]
PAPER_SUFFIX = {"a4": "", "letter": "-letter"}


@dataclass(frozen=True)
class PrintSettings:
    """How sheets are laid out; site.yaml's `print:` sets them, these are the defaults."""

    papers: tuple[str, ...] = ("a4", "letter")
    bleed_mm: float = 3.0
    crop_length_mm: float = 5.0
    crop_offset_mm: float = 2.0
    backs: bool = False
    back_offset_x_mm: float = 0.0
    back_offset_y_mm: float = 0.0
    aid_width_mm: float = 89.0
    aid_height_mm: float = 127.0
    timeout_s: float = 60.0


@dataclass
class Table:
    """A scoring table on a face: a caption and rows of (value, points)."""

    caption: str
    head: tuple[str, str]
    rows: list[tuple[str, str]]


@dataclass
class Face:
    """One card face: a title, a subtitle and paragraphs of (label, text), block headings
    (label "#", the heading as text) and scoring tables."""

    title: str
    subtitle: str = ""
    paragraphs: list = field(default_factory=list)
    font_pt: float = 8.0
    latin_em: float = 0.55  # the width of a Latin character, in ems, that fitting assumes


@dataclass
class Placed:
    x: float  # trim box, mm from the sheet's top left
    y: float
    w: float
    h: float
    face: Face | None


@dataclass
class Sheet:
    width: float
    height: float
    cards: list[Placed]
    marks: list[tuple[float, float, float, float]]  # x, y, width, height of each mark line (mm)
    back: bool = False


# ---- text fitting -------------------------------------------------------------------------

def _ems(text: str, latin: float = 0.55) -> float:
    """Width of a text in ems: wide (CJK) characters are 1 em, others about `latin`."""
    return sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else latin for ch in text)


def _height(face: Face, width_mm: float, size_pt: float) -> float:
    size = size_pt * PT_MM
    line = size * 1.3
    h = size * 1.6 * 1.25 + (line if face.subtitle else 0) + size  # title, subtitle, gap
    for entry in face.paragraphs:
        h += _entry_height(entry, width_mm, size, face.latin_em)
    return h


def _entry_height(entry, width_mm: float, size: float, latin: float = 0.55) -> float:
    line = size * 1.3
    if isinstance(entry, list):  # scoring tables side by side
        return max(line * 1.15 * (len(t.rows) + 1) + line * max(1, math.ceil(_ems(t.caption) * size / 38))
                   for t in entry) + size * 0.6
    label, text = entry
    if label == "#":  # a block heading
        lines = max(1, math.ceil(_ems(text, latin) * size * 1.1 / width_mm * 1.04))
        return lines * line * 1.1 + size * 0.5
    ems = _ems(f"{label} {text}" if label else text, latin)
    return max(1, math.ceil(ems * size / width_mm * 1.04)) * line + size * 0.45


def fit(face: Face, width_mm: float, height_mm: float) -> list[Face]:
    """The largest font size at which the face fits; split it into several faces if none does."""
    for size in FONT_SIZES:
        if _height(face, width_mm, size) <= height_mm:
            face.font_pt = size
            return [face]
    if len(face.paragraphs) <= 1:
        face.font_pt = FONT_SIZES[-1]
        return [face]
    half = len(face.paragraphs) // 2
    first = Face(face.title, face.subtitle, face.paragraphs[:half])
    rest = Face(face.title + " …", face.subtitle, face.paragraphs[half:])
    return fit(first, width_mm, height_mm) + fit(rest, width_mm, height_mm)


# ---- what goes on the cards --------------------------------------------------------------

def _t(text: dict | None, tag: str, default: str, owner=None, game: Game | None = None) -> str:
    """The text in `tag`, its placeholders filled; a pointer prints its words (or, with none,
    the title of what it names in `game`)."""
    if not text:
        return ""
    from .render import values_of
    s = text.get(tag) or text.get(default) or next(iter(text.values()))
    return fill(" ".join(unpoint(s, _titles(game, tag, default)).split()), values_of(owner))


def _titles(game: Game | None, tag: str, default: str):
    if game is None:
        return None
    from .links import targets
    known = targets(game)
    _ = translator(tag)

    def title(ident: str) -> str:
        t = known.get(ident)
        if t is None:
            return ident
        return _t(t.title, tag, default) if t.title else _(t.ui) if t.ui else ident

    return title


AID_MIN_PT = 6.5  # the smallest size an aid is set in before it takes one more card


def aid_sheets(game: Game, tag: str, default: str) -> list[Face]:
    """The player aid: per sheet (a mode, or modes with labelled lines), one face holding it all
    (`pack_faces` spreads it over cards)."""
    from .aids import resolve
    from .render.typography import after_colon, names_in
    numbers_of(game)  # the scopes of the texts' placeholders ({count(tower-tile)} …)
    _ = translator(tag)
    names: list = []  # the game's names in this language, read when a line needs them
    name = _t(game.name, tag, default)
    modes = {m.id: m for m in game.modes}
    sheets, _problems = resolve(game)
    out = []
    for sheet in sheets:
        subtitle = " · ".join([name] + [_t(modes[m].name, tag, default) for m in sheet.modes if m in modes])
        entries: list = []
        for block in sheet.blocks:
            title = _t(block.title, tag, default) if block.title else _(block.ui)
            entries.append(("#", title))
            n = 0
            for line in block.lines:
                only = ""
                if line.only:
                    only = _("{modes} only", modes=_("、" if tag.startswith("zh") else ", ").join(
                        _t(modes[m].name, tag, default) for m in line.only if m in modes)) + _(": ").rstrip()
                if line.table is not None:
                    t = line.table
                    ranked = bool(t.ranges) and getattr(t.ranges[0], "rank", None) is not None
                    rows = [(f"{r.min}" + ("+" if r.max is None else "" if r.max == r.min else f"–{r.max}"),
                             _t(r.rank, tag, default) if ranked else str(r.points))
                            for r in sorted(t.ranges, key=lambda r: r.min)]
                    table = Table(_joined(only, _t(t.name, tag, default)), (_("Value"), _("Rank") if ranked else _("Points")), rows)
                    if entries and isinstance(entries[-1], list) and len(entries[-1]) < 2:
                        entries[-1].append(table)  # two tables side by side
                    else:
                        entries.append([table])
                elif line.number is not None:
                    label, value = line.number
                    entries.append((str(value), _joined(only, _t(label, tag, default))))
                else:
                    item = line.item
                    n += 1
                    head = f"{n}." if block.numbered else "•"
                    named = _t(item.name, tag, default)
                    text = _t(item.text, tag, default, item, game)
                    if line.uses:
                        text = " ".join(_t(u.text, tag, default, item, game) for u in line.uses)
                    # no name where the block's title or the text's own first words already say it
                    said = not named or named == title or text.lower().startswith(named.lower())
                    label = _joined(head, only, "" if said else named + _(": ").rstrip())
                    if only and said:  # the text goes on after the mode's label: "Solo game only: take …"
                        names = names or [names_in(game, tag)]
                        text = after_colon(text, tag, names[0])
                    entries.append((label, text))
        out.append(Face(_("Player aid"), subtitle, entries, latin_em=0.53))
    return out


def _joined(*parts: str) -> str:
    """Parts of a label, a space between them, none after a full-width colon (Chinese)."""
    out = ""
    for p in parts:
        if p:
            out += ("" if not out or out.endswith("：") else " ") + p
    return out


def pack_faces(face: Face, width_mm: float, height_mm: float) -> list[Face]:
    """The face's entries on as few cards as the smallest size allows, at the largest size that
    needs no more; a card never starts with a block heading's last line or ends with a heading."""
    def greedy(size):
        faces, cur = [], Face(face.title, face.subtitle, [], size, face.latin_em)
        for entry in face.paragraphs:
            trial = Face(cur.title, cur.subtitle, cur.paragraphs + [entry], size, face.latin_em)
            if cur.paragraphs and _height(trial, width_mm, size) > height_mm:
                carry = []
                if not isinstance(cur.paragraphs[-1], list) and cur.paragraphs[-1][0] == "#":
                    carry = [cur.paragraphs.pop()]
                faces.append(cur)
                cur = Face(face.title + " …", face.subtitle, carry + [entry], size, face.latin_em)
            else:
                cur = trial
        faces.append(cur)
        return faces

    sizes = [s for s in FONT_SIZES if s >= AID_MIN_PT]
    fewest = len(greedy(sizes[-1]))
    for size in sizes:
        faces = greedy(size)
        if len(faces) <= fewest:
            return faces
    return greedy(sizes[-1])


def aid_faces(game: Game, tag: str, default: str, s: PrintSettings | None = None) -> list[Face]:
    """Every card face of the player aid, sheet after sheet."""
    s = s or PrintSettings()
    return [f for sheet in aid_sheets(game, tag, default) for f in pack_faces(sheet, s.aid_width_mm - 6.0,
                                                                               s.aid_height_mm - 6.0)]


def card_faces(game: Game, tag: str, default: str) -> list[Face]:
    """One insert per physical card (its count; one when the count is unknown)."""
    numbers_of(game)  # the scopes of the texts' placeholders
    faces = []
    kinds = {k.id: k for c in game.components for k in c.kinds}
    for group in game.cards:
        for card in group.cards:
            subtitle = _t(group.title, tag, default)
            if card.kind and card.kind in kinds:
                subtitle = _t(kinds[card.kind].name, tag, default)
            face = Face(_t(card.name, tag, default) or card.id, subtitle)
            if card.text:
                face.paragraphs.append(("", _t(card.text, tag, default, card, game)))
            for use in card.uses:
                face.paragraphs.append((_t(use.label, tag, default) + translator(tag)(": ").rstrip(), _t(use.text, tag, default, card, game)))
            faces += [face] * (card.count or 1)
    return faces


# ---- layout -------------------------------------------------------------------------------

def layout(faces: list[Face], card_w: float, card_h: float, paper: str, s: PrintSettings) -> list[Sheet]:
    """Cards in a centred grid with room for bleed and crop marks; backs after each front."""
    sheet_w, sheet_h = PAPERS[paper]
    pitch_w, pitch_h = card_w + 2 * s.bleed_mm, card_h + 2 * s.bleed_mm
    margin = s.crop_offset_mm + s.crop_length_mm + 1.0
    cols = max(1, int((sheet_w - 2 * margin) // pitch_w))
    rows = max(1, int((sheet_h - 2 * margin) // pitch_h))
    x0 = (sheet_w - cols * pitch_w) / 2 + s.bleed_mm
    y0 = (sheet_h - rows * pitch_h) / 2 + s.bleed_mm
    per_sheet = cols * rows
    sheets = []
    for start in range(0, len(faces), per_sheet):
        chunk = faces[start:start + per_sheet]
        front, back = [], []
        for i, face in enumerate(chunk):
            r, c = divmod(i, cols)
            x, y = x0 + c * pitch_w, y0 + r * pitch_h
            front.append(Placed(x, y, card_w, card_h, face))
            mirrored = x0 + (cols - 1 - c) * pitch_w  # long-edge duplex: columns swap sides
            back.append(Placed(mirrored + s.back_offset_x_mm, y + s.back_offset_y_mm, card_w, card_h, None))
        used_rows = math.ceil(len(chunk) / cols)
        used_cols = min(cols, len(chunk))
        marks = _crop_marks(x0, y0, pitch_w, pitch_h, card_w, card_h, used_cols, used_rows, s)
        sheets.append(Sheet(sheet_w, sheet_h, front, marks))
        if s.backs:
            sheets.append(Sheet(sheet_w, sheet_h, back, [], back=True))
    return sheets


def _crop_marks(x0, y0, pitch_w, pitch_h, w, h, cols, rows, s: PrintSettings):
    """Hairlines on every trim line, outside the grid, `offset` away from the nearest bleed."""
    thick = 0.2
    xs = sorted({round(x0 + c * pitch_w, 3) for c in range(cols)} | {round(x0 + c * pitch_w + w, 3) for c in range(cols)})
    ys = sorted({round(y0 + r * pitch_h, 3) for r in range(rows)} | {round(y0 + r * pitch_h + h, 3) for r in range(rows)})
    top = y0 - s.bleed_mm - s.crop_offset_mm
    bottom = y0 + rows * pitch_h - s.bleed_mm + s.crop_offset_mm
    left = x0 - s.bleed_mm - s.crop_offset_mm
    right = x0 + cols * pitch_w - s.bleed_mm + s.crop_offset_mm
    marks = []
    for x in xs:
        marks.append((x - thick / 2, top - s.crop_length_mm, thick, s.crop_length_mm))
        marks.append((x - thick / 2, bottom, thick, s.crop_length_mm))
    for y in ys:
        marks.append((left - s.crop_length_mm, y - thick / 2, s.crop_length_mm, thick))
        marks.append((right, y - thick / 2, s.crop_length_mm, thick))
    return marks


# ---- HTML and printing --------------------------------------------------------------------

def _env() -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                              undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def sheet_html(sheets: list[Sheet], tag: str, title: str, back_title: str, s: PrintSettings) -> str:
    return _env().get_template("sheets.html.j2").render(
        sheets=sheets, lang=tag, title=title, back_title=back_title, bleed=s.bleed_mm,
        cjk=tag.lower().startswith("zh"))


@dataclass
class PdfJob:
    html: Path
    pdf: Path
    paper: str


def jobs_for(project: Project, site_root: Path, work: Path, langs: list[str], s: PrintSettings,
             games: set[str] | None = None) -> list[PdfJob]:
    """Write the HTML of every PDF (of `games`, when given) into `work` and list what to print where."""
    jobs = []
    default = project.site.default_language
    shutil.copy(TEMPLATES / "print.css", work / "print.css")
    for doc in project.games.values():
        if games is not None and doc.id not in games:
            continue
        game = doc.model
        card_w, card_h = game_card_size(game)
        for tag in langs:
            _ = translator(tag)
            seg = url_segment(tag)
            name = _t(game.name, tag, default)
            aw, ah = s.aid_width_mm, s.aid_height_mm
            # each sheet of the aid (a mode) starts on a page of its own
            aid_groups = [pack_faces(sheet, aw - 6.0, ah - 6.0) for sheet in aid_sheets(game, tag, default)]
            cards = [f for face in card_faces(game, tag, default) for f in fit(face, (card_w or 0) - 6.0, (card_h or 0) - 6.0)]
            sets = [("reference", aid_groups, aw, ah, _("Player aid")),
                    ("cards", [cards] if card_w and card_h and cards else [], card_w, card_h, _("Card texts"))]
            for kind, groups, w, h, label in sets:
                if not groups:
                    continue
                for paper in s.papers:
                    html = work / f"{seg}-{game.id}-{kind}-{paper}.html"
                    laid = [sheet for faces in groups for sheet in layout(faces, w, h, paper, s)]
                    html.write_text(sheet_html(laid, tag, f"{name} · {label}", f"{name} · {label}", s), encoding="utf-8")
                    pdf = site_root / seg / game.id / f"{kind}{PAPER_SUFFIX[paper]}.pdf"
                    jobs.append(PdfJob(html, pdf, paper))
    return jobs


def planned(project: Project, s: PrintSettings) -> dict[str, list[str]]:
    """File names of the PDFs each game gets, known before anything is printed (pages link them)."""
    out = {}
    for gid, doc in project.games.items():
        names = []
        kinds = ["reference"] + (["cards"] if all(game_card_size(doc.model)) and doc.model.cards else [])
        for kind in kinds:
            names += [f"{kind}{PAPER_SUFFIX[p]}.pdf" for p in s.papers]
        out[gid] = names
    return out


def game_card_size(game: Game) -> tuple[float | None, float | None]:
    p = getattr(game, "print", None)
    if p is None or p.card is None:
        return None, None
    return p.card.width_mm, p.card.height_mm


async def _print_all(jobs: list[PdfJob], work: Path, s: PrintSettings,
                     refused: list[str] | None = None) -> list[Diagnostic]:
    """Print every job with one browser. Requests outside `work` are refused (and listed)."""
    from playwright.async_api import async_playwright

    diags: list[Diagnostic] = []
    refused = refused if refused is not None else []
    allowed = work.resolve().as_uri()
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = await browser.new_context(java_script_enabled=False, offline=True)

            async def gate(route):
                url = route.request.url
                if url.startswith(allowed + "/"):
                    await route.continue_()
                else:
                    refused.append(url)
                    await route.abort()

            await context.route("**/*", gate)
            for job in jobs:
                page = await context.new_page()
                try:
                    job.pdf.parent.mkdir(parents=True, exist_ok=True)
                    w, h = PAPERS[job.paper]

                    async def one():
                        await page.goto(job.html.resolve().as_uri(), wait_until="load")
                        await page.pdf(path=str(job.pdf), width=f"{w}mm", height=f"{h}mm",
                                       print_background=True, prefer_css_page_size=True)

                    await asyncio.wait_for(one(), timeout=s.timeout_s)
                except asyncio.TimeoutError:
                    diags.append(Diagnostic("RB902", f"printing {job.pdf.name} took over {s.timeout_s:.0f} s",
                                            str(job.pdf), hint="a page this slow is a bug; please report it"))
                finally:
                    await page.close()
        finally:
            await browser.close()
    return diags


def build_pdfs(project: Project, site_root: Path, langs: list[str], s: PrintSettings | None = None,
               epoch: int | None = None, games: set[str] | None = None) -> list[Diagnostic]:
    """Print every PDF (of `games` only, when given); with `epoch`, each is then made
    reproducible (see `reproducible`)."""
    s = s or settings_for(project)
    import importlib.util
    if importlib.util.find_spec("playwright") is None:
        return [Diagnostic("RB902", "the Python package 'playwright' is not installed, so no PDF can be printed",
                           hint="pip install playwright (it comes with `pip install rulebook`; no browser "
                                "download is needed: Debian's chromium prints), or build with --no-pdf")]
    if not Path(CHROMIUM).exists():
        return [Diagnostic("RB902", f"{CHROMIUM} is missing, so no PDF can be printed",
                           hint="install Debian's chromium and fonts-arphic-uming (make site does), "
                                "or build with --no-pdf")]
    work = Path(tempfile.mkdtemp(prefix="rulebook-print-"))
    try:
        jobs = jobs_for(project, site_root, work, langs, s, games)
        try:
            diags = asyncio.run(_print_all(jobs, work, s))
        except Exception as e:  # the browser could not start or crashed
            return [Diagnostic("RB902", f"printing failed: {type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}",
                               hint="check that /usr/bin/chromium starts, or build with --no-pdf")]
        if epoch is not None:
            for job in jobs:
                if job.pdf.is_file():
                    try:
                        reproducible(job.pdf, epoch)
                    except Exception as e:  # pypdf could not read what Chromium wrote
                        diags.append(Diagnostic("RB902", f"could not make {job.pdf.name} reproducible: "
                                                f"{type(e).__name__}: {e}", str(job.pdf)))
        return diags
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _pdf_date(epoch: int) -> str:
    import time
    return time.strftime("D:%Y%m%d%H%M%SZ", time.gmtime(epoch))


def reproducible(path: Path, epoch: int) -> None:
    """Rewrite a PDF Chromium printed so that equal pages give equal bytes: /CreationDate and
    /ModDate from `epoch`, the trailer /ID from a hash of the file itself (Chromium stamps the
    clock and a random ID). Pages, fonts and their embedding are copied untouched."""
    import hashlib
    import io

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, ByteStringObject, DictionaryObject, NameObject, TextStringObject

    writer = PdfWriter(clone_from=PdfReader(str(path)))
    date = TextStringObject(_pdf_date(epoch))
    if writer._info is None:
        writer.add_metadata({})
    info = writer._info
    assert isinstance(info, DictionaryObject)
    info[NameObject("/CreationDate")] = date
    info[NameObject("/ModDate")] = date

    def written(ident: bytes) -> bytes:
        writer._ID = ArrayObject([ByteStringObject(ident), ByteStringObject(ident)])
        buf = io.BytesIO()
        writer.write(buf)
        return buf.getvalue()

    ident = hashlib.sha256(written(bytes(16))).digest()[:16]  # the content hash, ID zeroed
    path.write_bytes(written(ident))


def settings_for(project: Project) -> PrintSettings:
    p = getattr(project.site, "print", None)
    if p is None:
        return PrintSettings()
    return PrintSettings(papers=tuple(p.papers), bleed_mm=p.bleed_mm, crop_length_mm=p.crop_length_mm,
                         crop_offset_mm=p.crop_offset_mm, backs=p.backs, back_offset_x_mm=p.back_offset_x_mm,
                         back_offset_y_mm=p.back_offset_y_mm, aid_width_mm=p.aid_width_mm,
                         aid_height_mm=p.aid_height_mm)
