"""Scaffold: `rulebook new GAME` writes a new game folder that validates and builds at once.

The folder holds game.yaml (one complete example of every required part: a component, zones,
setup steps, a turn, an action, the end of the game and scoring), cards.yaml, glossary.yaml and
rules.yaml, every text in each language content/site.yaml declares, and comments saying what
belongs where (with a pointer to docs/authoring.md). The game is then added to `games:` in
site.yaml by a textual insertion at the position the loader reports, so the file's comments,
layout and line endings stay as they were; the file is never re-dumped.

A bad id (not kebab-case) or one that exists is refused with a diagnostic, and nothing is
written. Files are written into a hidden temporary folder first and renamed into place, so an
interrupted command leaves no half game behind.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import tempfile
from pathlib import Path

from .diagnostics import Diagnostic
from .load import load_file, load_text
from .project import _display_root, _rel, validate
from .model import Site

ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")
MAX_ID = 64  # as model.Id

# The scaffold's texts: real sentences that say what to write in their place. Languages the
# table lacks get the English sentence (the command says so); translate them like the rest.
TEXTS: dict[str, dict[str, str]] = {
    "summary": {
        "zh-TW": "請在這裡用幾句話介紹這款遊戲：它的主題，以及玩家想要達成什麼。",
        "es": "Sustituye este texto por unas frases sobre el juego: su tema y lo que buscan los jugadores.",
        "en": "Replace this with a few sentences about the game: its theme and what the players try to do.",
    },
    "mode": {"zh-TW": "標準規則", "es": "Reglas estándar", "en": "Standard rules"},
    "card": {"zh-TW": "卡牌", "es": "carta", "en": "card"},
    "card-note": {
        "zh-TW": "請把這個範例配件換成盒中真正的配件，並寫下正確的數量。",
        "es": "Sustituye este componente de ejemplo por los de la caja, con su número real.",
        "en": "Replace this example component with the ones in the box, with their real counts.",
    },
    "token": {"zh-TW": "代幣", "es": "ficha", "en": "token"},
    "deck": {"zh-TW": "牌堆", "es": "mazo", "en": "deck"},
    "hand": {"zh-TW": "手牌", "es": "mano", "en": "hand"},
    "supply": {"zh-TW": "公共供應區", "es": "reserva común", "en": "common supply"},
    "setup-deck": {
        "zh-TW": "把所有卡牌洗勻，面朝下疊成牌堆。",
        "es": "Baraja todas las cartas y forma un mazo boca abajo.",
        "en": "Shuffle all the cards and stack them face down as the deck.",
    },
    "setup-deal": {
        "zh-TW": "每位玩家從牌堆抽 {per_player} 張卡牌作為手牌。",
        "es": "Cada jugador roba {per_player} cartas del mazo como su mano.",
        "en": "Each player draws {per_player} cards from the deck as their hand.",
    },
    "setup-tokens": {
        "zh-TW": "把所有代幣放在桌子中央，作為公共供應區。",
        "es": "Pon todas las fichas en el centro de la mesa como reserva común.",
        "en": "Put all the tokens in the middle of the table as the common supply.",
    },
    "turn": {
        "zh-TW": "請在這裡寫下玩家回合中的一個步驟；每個步驟各寫一項。",
        "es": "Describe aquí un paso del turno de un jugador; cada paso va en su propio elemento.",
        "en": "Describe one step of a player's turn here; each step gets an item of its own.",
    },
    "end": {
        "zh-TW": "請在這裡寫下遊戲何時結束。",
        "es": "Describe aquí cuándo termina la partida.",
        "en": "Describe here when the game ends.",
    },
    "action-name": {"zh-TW": "範例行動", "es": "Acción de ejemplo", "en": "Example action"},
    "action": {
        "zh-TW": "支付 {cost} 個代幣，從牌堆抽一張卡牌。",
        "es": "Paga {cost} fichas para robar una carta del mazo.",
        "en": "Pay {cost} tokens to draw a card from the deck.",
    },
    "final": {
        "zh-TW": "請在這裡寫下遊戲結束時如何計分。",
        "es": "Describe aquí cómo se puntúa al final de la partida.",
        "en": "Describe here how points are scored at the end of the game.",
    },
    "tie": {
        "zh-TW": "請在這裡寫下平手時如何決定勝負。",
        "es": "Describe aquí cómo se resuelve un empate.",
        "en": "Describe here how a tie is broken.",
    },
    "cards-title": {"zh-TW": "卡牌", "es": "Cartas", "en": "Cards"},
    "cards-intro": {
        "zh-TW": "請為玩家需要閱讀的每一張卡牌各寫一項。",
        "es": "Escribe un elemento por cada carta cuyo texto leen los jugadores.",
        "en": "Write one item for every card whose text the players read.",
    },
    "card-name": {"zh-TW": "範例卡牌", "es": "Carta de ejemplo", "en": "Example card"},
    "card-text": {
        "zh-TW": "請在這裡寫下卡牌上的文字。",
        "es": "Escribe aquí el texto impreso en la carta.",
        "en": "Write the text printed on the card here.",
    },
    "term": {"zh-TW": "代幣", "es": "ficha", "en": "token"},
    "term-definition": {
        "zh-TW": "請在這裡解釋這個詞；每個頁面都會把它連到這個解釋。",
        "es": "Explica aquí este término; cada página lo enlaza con esta definición.",
        "en": "Explain this term here; every page links its uses to this definition.",
    },
    "rules-title": {"zh-TW": "更多規則", "es": "Más reglas", "en": "More rules"},
    "rules-intro": {
        "zh-TW": "請把不屬於回合、行動或計分的規則寫成這樣的章節。",
        "es": "Las reglas que no son del turno, de las acciones ni de la puntuación van en capítulos como este.",
        "en": "Rules that belong to no turn, action or scoring go into chapters like this one.",
    },
    "rule": {
        "zh-TW": "請在這裡寫下一條規則；每條規則各寫一項。",
        "es": "Escribe aquí una regla; cada regla va en su propio elemento.",
        "en": "Write one rule here; each rule gets an item of its own.",
    },
}
TEXTS["name"] = {"zh-TW": "{id}（新遊戲）", "es": "{id} (juego nuevo)", "en": "{id} (new game)"}  # the game's


def _sentence(table: dict[str, str], tag: str) -> str:
    """The sentence for a language tag: its own, the one of its Chinese script or of its primary
    language (es-419 → es, en-GB → en; zh-Hans never gets Traditional), else English."""
    if tag in table:
        return table[tag]
    low = tag.lower()
    if low.startswith("zh"):
        traditional = low in ("zh-hant", "zh-hk", "zh-mo") or low.startswith("zh-hant-")
        return table["zh-TW"] if traditional else table["en"]
    return table.get(low.split("-")[0], table["en"])


def _has_own_sentences(tag: str) -> bool:
    return tag.lower().split("-")[0] == "en" or _sentence(TEXTS["summary"], tag) != TEXTS["summary"]["en"]


def _q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)  # a JSON string is a YAML double-quoted scalar


# The files, as YAML with two kinds of blanks: `$id` (the game's id) and a line `key: @name`,
# which becomes a text over every language of the site, from TEXTS[name].
GAME = """\
# game.yaml: who the game is for, what is in the box, how it is set up, played and scored.
# Every value here is an example to replace. Guide: docs/authoring.md ("Adding a game", "Setup steps").
# Each text is written in every language of content/site.yaml; numbers live in values: and
# the texts refer to them as {name}. Check after every edit: rulebook validate $id
id: $id  # the folder's name: kebab-case, unique in the site
name: @name
designer: Replace With The Designer's Name
# artist: and publisher: are names as printed too; links: lists pages about the game, such as its
# BoardGameGeek page (docs/authoring.md, "Credits and links")
players: {min: 2, max: 4}  # the supported player counts
colours: 4  # how many player colours the box has
summary: @summary
# sources: where the facts come from; items cite them with source: <id>
#   - {id: src-rulebook, title: The printed rulebook, where: rulebook.pdf}
# gaps: facts the sources leave out; an item that lacks one names it with gap: <id>
modes:  # at least one; setup steps may be limited to some with modes: [<id>]
  - id: standard
    name: @mode
components:  # everything in the box; kinds: must add up to count; count: null needs a gap
  - id: card
    name: @card
    count: 20
    note: @card-note
  - id: token
    name: @token
    count: 30
zones:  # the places setup puts components; per_player: true gives each player one
  - id: deck
    name: @deck
  - id: hand
    name: @hand
    per_player: true
  - id: supply
    name: @supply
setup:  # executed for every player count and mode; see "Setup steps" in docs/authoring.md
  - id: setup-deck
    do: place
    component: card
    count: all  # all of the box
    to: deck
    text: @setup-deck
  - id: setup-deal
    do: deal
    component: card
    from: deck
    per_player: 3  # into each player's hand; the text says it as {per_player}
    to: hand
    text: @setup-deal
  - id: setup-tokens
    do: place
    component: token
    count: all
    to: supply
    text: @setup-tokens
rounds:  # count: (fixed) or max: (a bound) when the game has rounds
  turn:
    - id: turn-step
      text: @turn
  end:
    - id: end-game
      text: @end
actions:
  - id: action-example
    name: @action-name
    text: @action
    values: {cost: 2}  # the number the text shows as {cost}
scoring:
  final:
    - id: score-final
      text: @final
  tie_breaks:
    - id: tie-break
      text: @tie
"""

CARDS = """\
# cards.yaml: the cards and tiles whose texts players read, for the card reference and the
# printed inserts; each group names its component in game.yaml. Guide: docs/authoring.md
cards:
  - id: cards-main
    title: @cards-title
    component: card
    intro: @cards-intro
    cards:
      - id: card-example
        name: @card-name
        count: 20  # copies in the box
        text: @card-text
"""

GLOSSARY = """\
# glossary.yaml: the game's terms; every page links a term's uses to its definition.
# aliases: lists other forms (plurals) per language. Guide: docs/authoring.md
glossary:
  - id: term-token
    term: @term
    definition: @term-definition
"""

RULES = """\
# rules.yaml: further chapters of the rulebook, in reading order (an introduction and items).
# Guide: docs/authoring.md
rules:
  - id: rules-more
    title: @rules-title
    intro: @rules-intro
    items:
      - id: rule-example
        text: @rule
"""

HEADER = "# yaml-language-server: $schema=../../docs/schema/game.schema.json\n"
_BLANK = re.compile(r"^( *)([a-z_]+): @([a-z-]+)$")


def render(template: str, gid: str, langs: list[str]) -> str:
    out = [HEADER.rstrip("\n")]
    for line in template.replace("$id", gid).splitlines():
        m = _BLANK.match(line)
        if not m:
            out.append(line)
            continue
        indent, key, name = m.groups()
        table = TEXTS[name]
        out.append(f"{indent}{key}:")
        out += [f"{indent}  {tag}: {_q(_sentence(table, tag).replace('{id}', gid))}" for tag in langs]
    return "\n".join(out) + "\n"


FILES = {"game.yaml": GAME, "cards.yaml": CARDS, "glossary.yaml": GLOSSARY, "rules.yaml": RULES}


def _kebab(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:MAX_ID].strip("-")


def check_id(gid: str, content: Path, root: Path) -> Diagnostic | None:
    """Why `gid` cannot be a new game's id in `content`, or None."""
    if not ID.match(gid) or len(gid) > MAX_ID:
        better = _kebab(gid)
        hint = (f"ids are kebab-case (lower-case letters and digits, single hyphens, at most {MAX_ID} characters)"
                + (f": e.g. '{better}'" if better and ID.match(better) else ""))
        return Diagnostic("RB100", f"'{gid}' is not a valid game id", hint=hint)
    folder = content / gid
    if folder.exists():
        where = {"file": _rel(folder, root)}
        game = folder / "game.yaml"
        if game.is_file():
            _data, pos, _d = load_file(game.resolve(), _rel(game, root))
            m = pos.of(("id",))
            where = {"file": m.file, "line": m.line, "column": m.column} if m else {"file": _rel(game, root)}
        return Diagnostic("RB200", f"a game '{gid}' exists already", hint="choose another id, or edit that game", **where)
    return None


def add_to_site(text: str, pos, gid: str) -> str:
    """site.yaml's text with `gid` appended to its `games:` list, inserted where the loader says
    the list ends (flow `[a, b]` or block `- a` style), so comments and layout stay as they
    were. Raises ValueError for a layout it does not know."""
    lines = text.splitlines(keepends=True)
    games = pos.values.get(("games",))
    if games is None:
        raise ValueError("no games: list")
    n = 0
    while ("games", n) in pos.values:
        n += 1
    if n == 0:  # an empty flow list: `games: []`
        line = lines[games.line - 1]
        col = games.column - 1
        close = line.find("]", col)
        if line[col:col + 1] != "[" or close < 0 or line[col + 1:close].strip():
            raise ValueError("games: is neither a list with items nor []")
        lines[games.line - 1] = line[:col + 1] + gid + line[close:]
        return "".join(lines)
    last = pos.values[("games", n - 1)]
    line = lines[last.line - 1]
    col = last.column - 1
    if line[:col].strip() == "-":  # a block sequence: one more line like the last
        newline = "\r\n" if line.endswith("\r\n") else "\n"
        if not line.endswith(("\n", "\r")):
            lines[last.line - 1] = line + newline
        lines.insert(last.line, line[:col] + gid + newline)
        return "".join(lines)
    m = re.compile(r"'[^']*'|\"[^\"]*\"|[^\s,\]#]+").match(line, col)  # the last id as written
    if not m:
        raise ValueError("the last item of games: is not where the loader says")
    lines[last.line - 1] = line[:m.end()] + ", " + gid + line[m.end():]
    return "".join(lines)


def new_game(content: Path, gid: str) -> tuple[list[str], list[Diagnostic], list[str]]:
    """Create content/<gid>/ and list it in site.yaml. Returns (what was done, diagnostics,
    languages given English placeholder sentences)."""
    content = Path(content)
    root = _display_root(content)
    site_file = content / "site.yaml"
    shown = _rel(site_file, root)
    if not site_file.is_file():
        return [], [Diagnostic("RB004", "content/site.yaml is missing", shown, 0, 0,
                               "run the command in the folder that holds content/, or give --content DIR")], []
    bad = check_id(gid, content, root)
    if bad:
        return [], [bad], []
    raw = site_file.read_bytes()
    data, pos, diags = load_file(site_file.resolve(), shown)
    site = None
    if data is not None:
        site, d = validate(Site, data, pos)
        diags += d
    if site is None or diags:
        return [], diags or [Diagnostic("RB004", "content/site.yaml cannot be read", shown)], []
    langs = [lang.tag for lang in site.languages]
    english = [t for t in langs if not _has_own_sentences(t)]
    text = raw.decode("utf-8-sig")
    listed = gid in (site.games or [])
    new_site = None
    if site.games is not None and not listed:
        try:
            new_site = add_to_site(text, pos, gid)
            data2, _pos2, d2 = load_text(new_site, shown)
        except ValueError:
            new_site, data2, d2 = None, None, []
        # check the edit before writing anything: the list grew by this id, and nothing else moved
        if new_site is None or d2 or not isinstance(data2, dict) or data2.get("games") != [*site.games, gid] \
                or {k: v for k, v in data2.items() if k != "games"} != {k: v for k, v in data.items() if k != "games"}:
            m = pos.of(("games",))
            return [], [Diagnostic("RB004", f"cannot add '{gid}' to games: in site.yaml by inserting it after the "
                                   "last game", shown, m.line, m.column,
                                   f"write games: as a list of ids (`games: [a, b]` or one `- a` per line), or add "
                                   f"{gid} by hand; nothing was written")], []
    tmp = Path(tempfile.mkdtemp(prefix=f".{gid}.", dir=content))
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o777 & ~umask)  # a folder as mkdir makes it, not mkdtemp's private 0700
        for name, template in FILES.items():
            (tmp / name).write_text(render(template, gid, langs), encoding="utf-8")
        os.rename(tmp, content / gid)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    done = [f"created {_rel(content / gid, root)}/ ({', '.join(FILES)})"]
    if new_site is not None:
        bom = "\ufeff" if raw.startswith(b"\xef\xbb\xbf") else ""
        part = site_file.with_name(f".site.yaml.{os.getpid()}.tmp")
        part.write_bytes((bom + new_site).encode("utf-8"))
        shutil.copymode(site_file, part)
        os.replace(part, site_file)
        done.append(f"added {gid} to games: in {shown}")
    elif listed:
        done.append(f"{shown} lists {gid} already")
    else:
        done.append(f"{shown} has no games: list, so the games are shown sorted by folder, {gid} included")
    done += _record_translations(content, gid, root)
    return done, [], english


def _record_translations(content: Path, gid: str, root: Path) -> list[str]:
    """Its texts are written in every language at once: record them as current (translations.lock),
    so that changing one language's text later marks the others stale (docs/translations.md)."""
    from .project import read_project
    from .translations.state import FILE, mark_current
    project, _ = read_project(content, [gid])
    if gid not in project.games:
        return []
    mark_current(project.games[gid], project)
    return [f"recorded its translations as current in {_rel(content / gid / FILE, root)}"]
