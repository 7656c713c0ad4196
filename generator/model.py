"""Model: the typed schema of a game's data and of content/site.yaml.

Every field carries its description; the JSON Schema (`rulebook schema`) and the reference in
docs/authoring.md are generated from these classes, so the documentation cannot drift.
Validation here is about shape only; cross-references, counts and translations are checked
in `generator.check`, which needs the whole game at once.
"""

import re
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, field_validator, model_validator

Id = Annotated[str, Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$", max_length=64,
                          description="kebab-case id, unique within the game")]
LangTag = Annotated[str, Field(pattern=r"^[a-z]{2,3}(-[A-Z][a-z]{3})?(-[A-Z]{2})?$",
                               description="BCP 47 language tag, e.g. zh-TW, es, en")]
Text = Annotated[dict[LangTag, str], Field(min_length=1,  # a text in no language has nothing to show
                                             description="one text per site language: {zh-TW: …, es: …, en: …}")]
Count = Annotated[int, Field(ge=0, le=100_000)]
PlayerCount = Annotated[int, Field(ge=1, le=12)]
ByPlayers = Annotated[dict[PlayerCount, Count], Field(description="a value for every supported player count")]
Expr = Annotated[str, Field(pattern=r"^[a-z_(0-9][a-z0-9_ ()+*/.-]*$", max_length=200,
                            description="a computed number: names, whole numbers, + - * / // and parentheses, and "
                            "data by id: count(id), per_colour(id), kinds(id), described(id), amount(step-id), "
                            "value(item-id.name); "
                            "e.g. 'total - count' or 'spaces * per_space * players'")]
Unknown = Annotated[Literal["unknown"], Field(description="the sources do not give this number: the step must name a gap; "
                                             "pages show '?'")]
# a table's keys are player counts: the JSON Schema says so too (object keys are strings there)
_COUNT_KEYS = {"propertyNames": {"pattern": "^([1-9]|1[0-2])$"}}
ByCount = Annotated[dict[PlayerCount, int | Expr], Field(description="a value for every supported player count",
                                                         json_schema_extra=_COUNT_KEYS)]
Amount = Annotated[Count | Expr | ByCount, Field(description="a whole number, an expression, or a table by player count")]
Values = Annotated[dict[Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]*$")], int | Expr | ByCount],
                   Field(description="numbers the texts refer to as {name}: each a whole number, an expression over "
                         "other names and the data (e.g. 'count(tower-tile) - returned'), or a table by player count; "
                         "each number lives here once", json_schema_extra={"additionalProperties": False})]


# A web address content may give (a source's page, a link on the game's page). Content comes from
# strangers, so only what is plainly an http(s) address passes: no javascript:, data: or other
# scheme; a host of letters, digits, dots and hyphens (no user@ part to disguise it, no IP-literal
# brackets); then only the characters RFC 3986 lets an address hold, with % only as %XX, and no
# quote, space, angle bracket, backslash or bracket, so an address can leave neither its Markdown
# link nor its HTML attribute, and the page's href is exactly the address written.
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
URL_PATTERN = (rf"^https?://{_LABEL}(?:\.{_LABEL})*\.?(?::[0-9]{{1,5}})?"
               r"(?:[/?#](?:[A-Za-z0-9._~!$&()*+,;=:@/?#-]|%[0-9A-Fa-f]{2})*)?$")
_URL = re.compile(URL_PATTERN)
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*):")
URL_MAX = 2000


def safe_url(value: str) -> bool:
    """Whether `value` is a web address the schema accepts (pages link only to such addresses)."""
    return len(value) <= URL_MAX and _URL.match(value) is not None


class Refused(ValueError):
    """A value a validator of the schema refuses, with the hint its diagnostic (RB100) gives."""

    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


_URL_HINT = "write the page's address as the browser shows it, e.g. https://boardgamegeek.com/boardgame/191876/ulm"


def _safe_url(value: str) -> str:
    if not safe_url(value):
        m = _SCHEME.match(value.strip())
        scheme = m.group(1).lower() if m else ""
        if scheme and scheme not in ("http", "https"):
            raise Refused(f"'{scheme}:' addresses are not allowed: a link goes to an http:// or https:// page", _URL_HINT)
        raise Refused("not a plain web address: http:// or https://, a host name, then only the characters an address "
                      "may hold (no spaces, quotes, angle brackets or backslashes; other characters as %XX)", _URL_HINT)
    return value


Url = Annotated[str, Field(max_length=URL_MAX, json_schema_extra={"pattern": URL_PATTERN, "format": "uri"},
                           description="a web address: http:// or https:// only"),
                AfterValidator(_safe_url)]


def is_url(where: str) -> bool:
    """Whether a source's `where` names a web page (it has a scheme) rather than a file."""
    return _SCHEME.match(where.strip()) is not None and not re.match(r"^[A-Za-z]:[\\/]", where)  # C:\ is a file


class Strict(BaseModel):
    # defer_build: a model's validator is made when first used, so only Game's and Site's are made
    # (each nested model's schema once, inside them), not one more for each of the 25 classes
    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True, defer_build=True)


class Source(Strict):
    """Where facts came from; items cite a source by id."""

    id: Id
    title: str = Field(description="what the source is, e.g. the seed's name or a page title")
    where: str = Field(max_length=URL_MAX, description="file name of a seed, or the address of a public page "
                       "(http:// or https:// only; the pages link to it)")
    language: LangTag | None = None

    @field_validator("where")
    @classmethod
    def _where_is_a_file_or_a_safe_address(cls, value: str) -> str:
        return _safe_url(value) if is_url(value) else value


class Link(Strict):
    """A page about the game for readers, e.g. its BoardGameGeek page: shown with the credits at the
    top of the rulebook. Not a source: facts come from sources:, which items cite."""

    id: Id
    title: Text = Field(description="what the page is, said for the reader, e.g. 'BoardGameGeek page'")
    url: Url
    source: Id | list[Id] | None = Field(None, description="the source (or sources) that give this address")


class Gap(Strict):
    """A fact the sources leave out. Shown on the pages wherever an item names it."""

    id: Id
    text: Text = Field(description="what is not known, said for the reader")


class Item(Strict):
    """A piece of rules text: a setup step, a turn step, an action, a quarter, a rule."""

    id: Id
    name: Text | None = Field(None, description="a short title")
    text: Text | None = Field(None, description="the rule itself; may use {placeholders} from values")
    values: Values = Field(default_factory=dict)
    modes: list[Id] | None = Field(None, description="only in these modes (default: all)")
    source: Id | list[Id] | None = Field(None, description="the source (or sources) of this item's facts")
    gap: Id | None = Field(None, description="a fact this item lacks; the gap's text is shown with it")
    examples: list[Text] = Field(default_factory=list, description="worked examples, shown set apart")


class Kind(Strict):
    """One kind of a component (e.g. one colour of action tile)."""

    id: Id
    name: Text
    count: Count | None = Field(None, description="how many of this kind; null when the sources do not say (name a gap)")
    colour: str | None = Field(None, pattern=r"^#[0-9a-fA-F]{6}$",
                               description="the colour of this kind as printed, e.g. '#8b5a2b', for setup pictures")
    gap: Id | None = None


class Component(Strict):
    """A thing in the box: a playing piece, or with `role: reference` a rulebook or reference sheet."""

    id: Id
    name: Text
    count: Count | None = Field(description="how many are in the box; null only with a gap")
    per_colour: Count | None = Field(None, description="how many in each player colour; times the game's colours must equal count")
    unlimited: bool = Field(False, description="the rules call the supply unlimited: running out is not an error")
    kinds: list[Kind] = Field(default_factory=list, description="a breakdown that must add up to count")
    role: Literal["piece", "reference"] = Field(
        "piece", description="'reference' for what is read, not played with (a rulebook, a reference sheet): "
        "listed in the box with its count, but not among what play uses or what stays in the box, never "
        "moved by setup (RB308) and never drawn in the setup pictures")
    note: Text | None = None
    source: Id | None = None
    gap: Id | None = None


class Zone(Strict):
    """A place components are put: the table, a bag, a display, each player's supply."""

    id: Id
    name: Text
    per_player: bool = Field(False, description="each player has one")
    on_empty: Literal["reshuffle", "end-game", "skip"] | None = Field(
        None, description="what the rules say when a draw finds this zone empty: 'reshuffle' the zone "
        "named by refill_from into it, 'end-game', or 'skip' the draw; null when the rules are silent "
        "(the simulation then reports a draw from it when empty)")
    refill_from: Id | None = Field(None, description="with on_empty: reshuffle, the zone shuffled in to refill it")
    gap: Id | None = Field(None, description="a fact the sources leave out about this zone, e.g. what happens when "
                           "it runs empty; with on_empty null, the simulation then counts empty draws instead of reporting them")
    track_min: int | None = Field(None, description="for a track: the lowest value a marker can show")
    track_max: int | None = Field(None, description="for a track: the highest value a marker can show")
    grid: list[Annotated[int, Field(ge=1, le=20)]] | None = Field(
        None, min_length=2, max_length=2, description="[rows, columns]: the setup picture draws the zone's pieces "
        "as this grid (Ulm's 3×3 cathedral area) instead of a row of groups")
    source: Id | None = None


class SetupStep(Item):
    """One declarative setup step. The engine executes it for every player count and mode."""

    do: Literal["place", "shuffle", "choose-random", "deal", "draw", "return", "note"] = "note"
    component: Id | None = None
    kind: Id | None = Field(None, description="only this kind of the component")
    kinds: Annotated[dict[Id, Amount], Field(json_schema_extra={"additionalProperties": False})] | None = Field(None, description="how many of each kind (a number, an expression, or a table "
                                           "by player count, e.g. to take some from each stack)")
    count: Literal["all", "rest"] | Unknown | Count | Expr | None = Field(
        None, description="how many; 'all' of the box, 'rest' of what is left in from, 'unknown' (with a gap), "
        "or an expression such as 'spaces * per_space * players'")
    per_player: Unknown | Count | Expr | Annotated[dict[PlayerCount, Unknown | Count | Expr],
                                                   Field(json_schema_extra=_COUNT_KEYS)] | None = Field(
        None, description="how many each player gets: one number for every player count, or a table by player count "
        "(each player gets N, where N depends on the player count)")
    by_players: Annotated[dict[PlayerCount, Literal["all"] | Unknown | Count | Expr],
                          Field(json_schema_extra=_COUNT_KEYS)] | None = Field(
        None, description="how many in all (not each), by player count; to a per-player zone use per_player")
    from_: Id = Field("box", alias="from", description="zone taken from")
    to: Id | None = Field(None, description="zone put into")


class ScoreRange(Strict):
    """One row of a score table: a range of values and the points, or the named rank, it gives."""

    model_config = ConfigDict(json_schema_extra={"oneOf": [{"required": ["points"]}, {"required": ["rank"]}]})

    min: int = Field(description="the lowest value of the row (inclusive)")
    max: int | None = Field(None, description="inclusive; null means no upper bound")
    # typed without None: an explicit `points: null` is refused, as the JSON Schema refuses it
    points: int = Field(None, description="the points the row gives (a table gives points or ranks)")
    rank: Text = Field(None, description="the rank the row gives, named in every language, e.g. a solo "
                              "game's title (a table gives points or ranks)")

    @model_validator(mode="after")
    def _points_or_rank(self):
        if (self.points is None) == (self.rank is None):
            raise ValueError("a row gives points: or rank:, exactly one of them")
        return self


class ScoreTable(Strict):
    """A scoring table by ranges; the ranges must cover the domain exactly once."""

    model_config = ConfigDict(json_schema_extra={"anyOf": [
        {"properties": {"ranges": {"items": {"required": ["points"]}}}},
        {"properties": {"ranges": {"items": {"required": ["rank"]}}}}]})

    id: Id
    name: Text
    text: Text | None = Field(None, description="what the table is for, shown above it")
    modes: list[Id] | None = Field(None, description="only in these modes (default: all)")
    domain_min: int = Field(0, description="the lowest value the table covers")
    domain_max: int | None = Field(None, description="the highest value the table covers; null: no upper bound")
    ranges: list[ScoreRange] = Field(description="rows in any order; together they cover the domain exactly once")
    source: Id | list[Id] | None = Field(None, description="the source (or sources) of the table")

    @model_validator(mode="after")
    def _one_sort_of_row(self):
        if len({r.points is None for r in self.ranges}) > 1:
            raise ValueError("every row of a table gives points:, or every row gives rank:")
        return self


# The findings an author may acknowledge: seed slips kept on purpose (counts, tables) and number
# texts a reviewer has checked. Schema, reference and simulation findings cannot be acknowledged.
ACKNOWLEDGEABLE = ("RB300", "RB301", "RB302", "RB303", "RB404", "RB500", "RB501")


class Acknowledgement(Strict):
    """A finding kept on purpose: validate reports it as acknowledged, not as an error. It matches one
    finding by code, place and key; one that matches nothing is itself an error (RB202)."""

    code: Literal[ACKNOWLEDGEABLE] = Field(description="the diagnostic code, e.g. RB500")
    at: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*(\.[A-Za-z0-9_-]+)*$", max_length=200,
                    description="where, by id: the id of the item, table or component, then the keys below it, "
                    "e.g. 'solo-ranks', 'setup-room-cards.by_players.4' or 'card-favor.text.zh-TW' (the `at` of the JSON output)")
    key: Annotated[str, Field(max_length=200)] | list[Annotated[str, Field(max_length=200)]] = Field(
        "", description="what tells the finding from others at that place (the `key` of the JSON output), or a list of "
        "them: the uncovered values '81-85' of RB500, the numbers '+2 -1' of RB404 (those the text states that the "
        "others do not, and those it lacks)")
    reason: Text = Field(description="why the data keeps it; pages show it where the finding is")


class Scoring(Strict):
    during: list[Item] = Field(default_factory=list, description="points scored during the game")
    final: list[Item] = Field(default_factory=list, description="final scoring, in order")
    tie_breaks: list[Item] = Field(default_factory=list)
    tables: list[ScoreTable] = Field(default_factory=list)


class Rounds(Strict):
    count: Count | None = Field(None, description="how many rounds the game lasts, when fixed")
    max: Count | None = Field(None, description="the most rounds a game can last, when the count is not fixed; "
                              "the simulation reports a game that does not end within it")
    start: list[Item] = Field(default_factory=list, description="what happens at the start of a round")
    turn: list[Item] = Field(default_factory=list, description="the steps of a player's turn, or the phases of a round")
    steps: Literal["turn", "phases"] = Field("turn", description="what `turn` lists: the steps of a player's turn, or the "
                                              "phases of a round in which every player acts (the pages title it so)")
    end: list[Item] = Field(default_factory=list, description="what ends the game")


class Section(Strict):
    """A chapter of the rulebook: an introduction and its items."""

    id: Id
    title: Text
    intro: Text | None = None
    items: list[Item] = Field(default_factory=list)


class CardUse(Strict):
    id: Id
    label: Text = Field(description="how this use is called, e.g. 'Play to the discard pile'")
    text: Text


class Card(Item):
    """A card, tile or token whose text players read."""

    count: Count | None = Field(1, description="copies in the box; null when the sources do not say (name a gap)")
    kind: Id | None = Field(None, description="the kind of the group's component")
    uses: list[CardUse] = Field(default_factory=list)


class CardGroup(Strict):
    id: Id
    title: Text
    component: Id = Field(description="the component these cards are")
    intro: Text | None = None
    gap: Id | None = Field(None, description="a fact the sources leave out about the whole group")
    cards: list[Card]


class GlossaryTerm(Strict):
    id: Id
    term: Text
    definition: Text
    aliases: dict[LangTag, list[str]] = Field(default_factory=dict, description="other forms that link to the term")


class Players(Strict):
    """The supported player counts, min to max."""

    min: PlayerCount = Field(description="fewest players")
    max: PlayerCount = Field(description="most players")


class Mode(Strict):
    id: Id
    name: Text
    text: Text | None = None
    players: Players | None = Field(None, description="the player counts this mode is for (default: the game's)")


class CardSize(Strict):
    """The size of the game's cards, for the card-text inserts."""

    width_mm: float = Field(gt=10, lt=400)
    height_mm: float = Field(gt=10, lt=400)
    basis: Literal["card", "sleeve"] = Field("card", description="'sleeve' when the sources give only the sleeve size "
                                             "(inserts are then made to fit the sleeve)")
    source: Id | list[Id] | None = None
    note: Text | None = None


class GamePrint(Strict):
    card: CardSize | None = Field(None, description="the size of the game's cards; no card-text PDF without it")
    gap: Id | None = Field(None, description="what the sources leave out about sizes")


class AidNumber(Strict):
    """A key number on a player aid: a label written for the aid, the number read from an item's
    values (never typed again)."""

    id: Id
    value: str = Field(pattern=r"^[a-z0-9]+(-[a-z0-9]+)*\.[a-z][a-z0-9_]*$", max_length=130,
                       description="the item and the name of one of its values, e.g. 'eat-food.eat'")
    label: Text = Field(description="what the number is, e.g. 'cubes an amoeba eats'")


class AidSection(Strict):
    """One block of a player aid: a title and what it shows, by id (never restated)."""

    id: Id
    title: Text | None = Field(None, description="the block's title (default: the title or name of the first thing shown)")
    show: list[Id] = Field(min_length=1, description="in order: ids of items (setup, round, action, rule, scoring or card "
                           "items), rules sections (their items that apply to the sheet's modes), card groups (each card's "
                           "uses, or its text), card uses or scoring tables")
    numbered: bool = Field(False, description="number the lines (a turn's or a round's steps)")


class Aid(Strict):
    """A player-aid sheet for one mode, or for several with every mode-specific line labelled."""

    id: Id
    modes: list[Id] = Field(min_length=1, description="the modes this sheet is for; lines limited to some of them get a label")
    sections: list[AidSection] = Field(min_length=1)
    numbers: list[AidNumber] = Field(default_factory=list, description="key numbers, shown as a block of their own")


class Game(Strict):
    """A game: one folder under content/, its YAML files merged by top-level key."""

    model_config = ConfigDict(extra="forbid", strict=True, title="Rulebook game",
                              json_schema_extra={"$id": "https://rulebook.invalid/schema/game.json"})

    id: Id
    name: Text
    designer: str = Field(description="the designer's name as printed")
    artist: str | None = Field(None, description="the artist's name (or names) as printed, e.g. 'Keith Curtis, "
                               "Ollin Timm'; names are not translated")
    year: int | None = Field(None, description="year of publication")
    publisher: str | None = Field(None, description="the publisher's name as printed")
    players: Players = Field(description="the supported player counts")
    play_time: str | None = Field(None, description="e.g. '45-75'")
    colours: Count = Field(description="how many player colours the box has")
    summary: Text = Field(description="what the game is about, in a few sentences")
    source_language: LangTag | None = Field(None, description="the language the texts are written in first; the "
                                            "others translate it (default: the site's default_language)")
    sources: list[Source] = Field(default_factory=list, description="where the facts come from")
    links: list[Link] = Field(default_factory=list, description="pages about the game for readers (e.g. its "
                              "BoardGameGeek page), shown with the credits")
    gaps: list[Gap] = Field(default_factory=list, description="facts the sources leave out")
    modes: list[Mode] = Field(min_length=1, description="game modes or variants; setup steps may be limited to some")
    components: list[Component] = Field(description="everything in the box, with counts")
    zones: list[Zone] = Field(default_factory=list, description="where setup puts components")
    setup: list[SetupStep] = Field(description="setup steps in order; executed for every player count and mode")
    rounds: Rounds = Field(description="the structure of a round and the end of the game")
    actions: list[Item] = Field(default_factory=list, description="the actions a player can take")
    rules: list[Section] = Field(default_factory=list, description="further chapters, in reading order")
    scoring: Scoring = Field(description="scoring during and at the end of the game, tie-breaks, tables")
    cards: list[CardGroup] = Field(default_factory=list, description="cards and tiles for the card reference")
    glossary: list[GlossaryTerm] = Field(default_factory=list, description="terms linked from every page")
    print: GamePrint | None = Field(None, description="sizes for the printed PDFs")
    aids: list[Aid] = Field(default_factory=list, description="the player-aid sheets (reference.pdf); default: one "
                            "sheet per mode with the round, the actions and the scoring")
    acknowledge: list[Acknowledgement] = Field(default_factory=list, description="findings of `rulebook validate` "
                                               "kept on purpose, each with its reason (docs/diagnostics.md)")


class Language(Strict):
    tag: LangTag
    name: str = Field(description="the language's own name, e.g. 繁體中文")


class SitePrint(Strict):
    """How the PDFs are laid out (all lengths in millimetres)."""

    papers: list[Literal["a4", "letter"]] = Field(default_factory=lambda: ["a4", "letter"], min_length=1)
    bleed_mm: float = Field(3.0, ge=0, le=10)
    crop_length_mm: float = Field(5.0, ge=1, le=20, description="length of each crop mark")
    crop_offset_mm: float = Field(2.0, ge=0, le=10, description="gap between the bleed edge and a crop mark")
    backs: bool = Field(False, description="add a back after every sheet, in duplex (long-edge) order")
    back_offset_x_mm: float = Field(0.0, ge=-10, le=10, description="shift of the backs, for printers that misalign")
    back_offset_y_mm: float = Field(0.0, ge=-10, le=10)
    aid_width_mm: float = Field(89.0, gt=20, le=200, description="player-aid card width")
    aid_height_mm: float = Field(127.0, gt=20, le=280, description="player-aid card height")


class Site(Strict):
    """content/site.yaml"""

    title: Text
    languages: list[Language] = Field(min_length=1)
    default_language: LangTag
    games: list[Id] | None = Field(None, description="order of the games; default: folder names sorted")
    print: SitePrint = Field(default_factory=SitePrint, description="layout of the printed PDFs")


MODELS: dict[str, type[Strict]] = {"game": Game, "site": Site}

# Every key any model knows, for "did you mean" hints.
def _all_field_names() -> set[str]:
    names: set[str] = set()
    seen: set[type] = set()

    def walk(model: type[BaseModel]) -> None:
        if model in seen:
            return
        seen.add(model)
        for name, f in model.model_fields.items():
            names.add(f.alias or name)
            for sub in _models_in(f.annotation):
                walk(sub)

    for m in MODELS.values():
        walk(m)
    return names


def _models_in(tp) -> list[type[BaseModel]]:
    out = []
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return [tp]
    for a in getattr(tp, "__args__", ()) or ():
        out += _models_in(a)
    meta = getattr(tp, "__metadata__", None)
    if meta is not None and hasattr(tp, "__origin__"):
        out += _models_in(tp.__origin__)
    return out


FIELD_NAMES = _all_field_names()

__all__ = ["Game", "Site", "MODELS", "FIELD_NAMES"]
