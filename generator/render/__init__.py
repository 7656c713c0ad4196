"""Render: a checked project to MyST pages, one source folder per language.

Pages are jinja2 templates (themes/templates/*.md.j2) fed with the model and with what the
setup simulation computed. Every content string passes through `TermLinker.render` or `md`,
which escape it; templates add the only markup there is.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from pathlib import Path

import jinja2

from ..engine.setup import BOX, SetupResult, all_setups, applies, player_counts
from ..collate import collated
from ..i18n import translator
from ..model import Game, is_url
from ..project import GameDoc, Project
from ..quantities import numbers_of, scope_for
from ..text import POINTER, fill, unpoint
from ..translations.render_ import stale_marks, status_page
from .typography import after_colon, cjk_marks, names_in
from .markdown import TermLinker, link, md

TEMPLATES = Path(__file__).resolve().parent.parent.parent / "themes" / "templates"
CJK_LANGS = {"zh", "ja"}  # languages written without spaces between words
PAGES = {"index": "rulebook.md.j2", "components": "components.md.j2", "cards": "cards.md.j2",
         "glossary": "glossary.md.j2"}


def term_label(game_id: str, term_id: str) -> str:
    return f"{game_id}-term-{term_id}"


def item_label(game_id: str, item_id: str) -> str:
    return f"{game_id}-{item_id}"


@dataclass
class Lang:
    """What a template needs to speak one language."""

    tag: str
    default: str
    linker: TermLinker
    game: Game | None = None
    stale: dict = field(default_factory=dict)  # (source, translation) -> source page: translations.pages
    source: str = ""  # the game's source language
    stale_note: str = ""
    _targets: dict | None = None
    _names: set | None = None

    def text(self, text: dict | None, owner=None, link: bool = True, skip: str | None = None,
             after_label: bool = False) -> str:
        """`after_label`: the text goes on after a label's colon ("Tower variant only: …"), where
        Spanish and English write its first word in lower case (typography.py)."""
        if not text:
            return ""
        if self.tag not in text:  # only with --allow-untranslated: show the fallback, marked
            fallback = self.default if self.default in text else next(iter(text))
            return f"*\\[{md(fallback)}\\]* " + md(fill(unpoint(text[fallback], self.title_of), values_of(owner)))
        s = " ".join(fill(text[self.tag], values_of(owner)).split())
        if after_label:
            s = after_colon(s, self.tag, self.names)
        if not link:
            return md(unpoint(s, self.title_of))
        out, last = [], 0
        for m in POINTER.finditer(s):  # a pointer is a link to what it names, checked by RB710
            out.append(self._linked(s[last:m.start()], skip))
            target = self.targets.get(m.group(2))
            words = md(m.group(1) or self.title_of(m.group(2)))
            out.append(f"[{words}](#{target.label})" if target else words)
            last = m.end()
        out.append(self._linked(s[last:], skip))
        return "".join(out) + self._stale_mark(text)

    def _stale_mark(self, text: dict) -> str:
        where = self.stale.get((text.get(self.source), text[self.tag])) if self.stale else None
        return f" *[{md(self.stale_note)}](rb-source:{where})*" if where else ""

    def title_mark(self, text: dict | None) -> str:
        """The "may be out of date" mark of a stale heading's text, for the line under it ("" if current)."""
        where = self.stale.get((text.get(self.source), text.get(self.tag))) if text and self.stale else None
        return f"*[{md(self.stale_note)}](rb-source:{where})*" if where else ""

    def _linked(self, piece: str, skip: str | None) -> str:
        if not piece.strip():
            return " " if piece else ""
        lead = " " if piece[0].isspace() else ""
        trail = " " if piece[-1].isspace() else ""
        return lead + self.linker.render(piece, skip=skip) + trail

    @property
    def names(self) -> set:
        """The words this language's texts of the game treat as names (kept capitalised after a label)."""
        if self._names is None:
            self._names = names_in(self.game, self.tag) if self.game is not None else set()
        return self._names

    @property
    def targets(self) -> dict:
        if self._targets is None:
            from ..links import targets
            self._targets = targets(self.game) if self.game is not None else {}
        return self._targets

    def title_of(self, ident: str) -> str:
        """What a pointer with no words of its own says: the title of what it names."""
        t = self.targets.get(ident)
        if t is None:
            return ident
        if t.title:
            return self.plain(t.title)
        return translator(self.tag)(t.ui) if t.ui else ident

    def plain(self, text: dict | None, owner=None) -> str:
        if not text:
            return ""
        s = text.get(self.tag) or text.get(self.default) or next(iter(text.values()))
        return fill(unpoint(s, self.title_of), values_of(owner))


def values_of(owner):
    """What the placeholders of owner's texts may name: a quantities.Scope (its values, its own
    numbers and the game's data) once the game's numbers are made, else its plain values."""
    if owner is None:
        return {}
    scope = scope_for(owner)
    if scope is not None:
        return scope
    values = dict(getattr(owner, "values", {}) or {})
    for f in ("count", "per_player"):
        v = getattr(owner, f, None)
        if isinstance(v, int) and not isinstance(v, bool):
            values.setdefault(f, v)
    return values


# One per process, so templates are compiled once: `serve --watch` renders again and again. The
# loader still sees a changed template file (jinja2 checks its time on every use).
@functools.cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=False,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             trim_blocks=True, lstrip_blocks=True)
    env.filters["md"] = md
    env.filters["link"] = link  # {{ words|link(url) }}: escaped words, linked to a checked web address
    env.globals["is_url"] = is_url
    return env


def linker_for(game: Game, tag: str) -> TermLinker:
    terms = []
    for term in game.glossary:
        label = term_label(game.id, term.id)
        if tag in term.term:
            terms.append((term.term[tag], label))
        for alias in term.aliases.get(tag, []):
            terms.append((alias, label))
    return TermLinker(terms)


def component_table(game: Game, setups: dict[tuple[int, str], SetupResult], mode: str) -> list[dict]:
    """Rows of the 'used for N players' table: what setup takes out of the box, per count. A
    rulebook (`role: reference`) has no row: it is neither used in play nor left in the box."""
    rows = []
    counts = player_counts(game, mode)
    # A note step that names a component and a gap: the sources do not say how many are used.
    unknown = {st.component for st in game.setup
               if st.do == "note" and st.component and st.gap and applies(st, mode)}
    for comp in game.components:
        if comp.role == "reference":
            continue
        used = []
        if comp.id in unknown:
            gap = next(st.gap for st in game.setup if st.do == "note" and st.component == comp.id and st.gap)
            rows.append({"component": comp, "used": ["?"] * len(counts), "left": ["?"] * len(counts), "gap": gap})
            continue
        gap = None
        for p in counts:
            r = setups[(p, mode)]
            unsure, why = r.unsure_gap(comp.id)
            if unsure:  # a step moved a number the sources do not give: no guess on the page
                used.append("?")
                gap = gap or why
            elif comp.count is None or comp.unlimited:
                out = sum(r.total(z, comp.id) for z in r.zones if z != BOX)
                used.append(out if out else None)
            else:
                used.append(comp.count - r.in_box(comp.id))
        rows.append({"component": comp, "used": used, "gap": gap,
                     "left": [u if u == "?" else None if u is None or comp.count is None or comp.unlimited
                              else comp.count - u for u in used]})
    return rows


def unsure_gaps(game: Game, tables: dict, setups: dict) -> list[str]:
    """The gaps that make a number on the components page unknown (tables or pictures), in the
    order of gaps:, for the page's list that the '?' cells link to."""
    named = {row["gap"] for rows in tables.values() for row in rows if row.get("gap")}
    named |= {g for r in setups.values() for g in r.unsure.values() if g}
    return [x.id for x in game.gaps if x.id in named]


def render_language(project: Project, tag: str, srcdir: Path, setups: dict | None = None,
                    only: set[str] | None = None) -> list[str]:
    """Write every page of one language into srcdir (of the games in `only`, when given, and
    the home page); returns the page names (without .md)."""
    env = _environment()
    _ = translator(tag)
    site = project.site
    default = site.default_language
    written = []
    games = ordered_games(project)
    base = Lang(tag, default, TermLinker([]))
    srcdir.mkdir(parents=True, exist_ok=True)
    (srcdir / "index.md").write_text(env.get_template("site_index.md.j2").render(
        L=base, _=_, site=site, games=[g.model for g in games]), encoding="utf-8")
    written.append("index")
    written.append(status_page(env, project, tag, srcdir, _))
    for doc in games:
        if only is not None and doc.id not in only:
            continue
        g = doc.model
        numbers_of(g)  # the scopes of its texts' placeholders
        lang = Lang(tag, default, linker_for(g, tag), g, **stale_marks(doc, project, tag, _))
        gsetups = (setups or {}).get(g.id) or all_setups(g)
        folder = srcdir / g.id
        folder.mkdir(parents=True, exist_ok=True)
        ctx = dict(L=lang, _=_, game=g, md=md, counts={m.id: player_counts(g, m.id) for m in g.modes}, modes=g.modes,
                   item_label=lambda i, gid=g.id: item_label(gid, i),
                   term_label=lambda i, gid=g.id: term_label(gid, i),
                   gaps={x.id: x for x in g.gaps}, sources={s.id: s for s in g.sources},
                   modes_by_id={m.id: m for m in g.modes},
                   modes_plain=lambda ids, lang=lang, g=g: [md(lang.plain(next((m.name for m in g.modes if m.id == i), {"": i})))
                                                             for i in ids],
                   primary=g.sources[0].id if g.sources else None,
                   source_no={src.id: n for n, src in enumerate(g.sources, 1)},
                   card_total=lambda group, g=g: cards_in_box(g, group),
                   components_by_id={c.id: c for c in g.components},
                   tables={m.id: component_table(g, gsetups, m.id) for m in g.modes},
                   gap_label=lambda i, gid=g.id: f"{gid}-count-gap-{i}",
                   kinds_by_id={k.id: k for c in g.components for k in c.kinds},
                   acknowledged=acknowledged_by_item(g))
        ctx["unsure_gaps"] = unsure_gaps(g, ctx["tables"], gsetups)
        ctx["sp"] = "" if tag.split("-")[0] in CJK_LANGS else " "  # between a label and its text
        ctx["glossary_sorted"] = collated(g.glossary, tag, lambda t: lang.plain(t.term))
        ctx["pictures"] = setup_pictures(g, gsetups, lang, _, folder)
        ctx["played"] = played_rows(g, project.facts.get(g.id, {}), lang)
        cjk = tag.split("-")[0] in CJK_LANGS
        for page, template in PAGES.items():
            text = env.get_template(template).render(**ctx)
            (folder / f"{page}.md").write_text(cjk_marks(text) if cjk else text, encoding="utf-8")
            written.append(f"{g.id}/{page}")
    return written


def cards_in_box(game: Game, group) -> int | None:
    """How many physical cards (or tiles) of the box a card group stands for: the sum of its
    cards' copies; else its component's count, when no other group shares the component; else
    what the component's kinds say of the kinds its cards are (the unknown kinds together are
    the count less the known ones); otherwise unknown (None, shown as "?")."""
    if all(c.count is not None for c in group.cards):
        return sum(c.count for c in group.cards)
    comp = next((c for c in game.components if c.id == group.component), None)
    if comp is None or comp.count is None:
        return None
    if sum(1 for other in game.cards if other.component == group.component) == 1:
        return comp.count
    kinds = {k.id: k.count for k in comp.kinds}
    used = {c.kind for c in group.cards}
    if not used or not used <= set(kinds):
        return None
    unknown = {k for k, n in kinds.items() if n is None}
    known = sum(kinds[k] for k in used if kinds[k] is not None)
    if not unknown & used:
        return known
    if unknown <= used:
        return known + comp.count - sum(n for n in kinds.values() if n is not None)
    return None
def acknowledged_by_item(game: Game) -> dict[str, list]:
    """The acknowledgements of facts (counts, tables; not reviewed translations) by the id their
    `at` starts with: the page shows each reason where the item is, as it shows a gap."""
    out: dict[str, list] = {}
    for a in game.acknowledge:
        if a.code != "RB404":
            out.setdefault(a.at.split(".")[0], []).append(a)
    return out


def setup_pictures(game: Game, setups: dict, lang: "Lang", _, folder: Path) -> dict[str, list[dict]]:
    """Write one SVG of the table after setup per mode and player count; returns, per mode,
    the file names and their (already escaped) captions."""
    from .diagrams import setup_svg
    out: dict[str, list[dict]] = {}
    labels = {"each_player": _("each player")}
    name = lang.plain(game.name)
    for mode in game.modes:
        for n in player_counts(game, mode.id):
            players = _("{n} player", n=n) if n == 1 else _("{n} players", n=n)
            title = f"{name} · {lang.plain(mode.name)} · {players}"
            file = f"setup-{mode.id}-{n}p.svg"
            (folder / file).write_text(setup_svg(game, setups[(n, mode.id)], lang.plain, title, labels, lang.tag), encoding="utf-8")
            out.setdefault(mode.id, []).append({"file": file, "alt": md(title), "players": n})
    return out


def played_rows(game: Game, facts: dict, lang: "Lang") -> dict[str, list[dict]]:
    """Per mode, one row per player count of what the simulated games showed (only for games
    the engine plays through: a game simulated only as far as its setup has no turns); what ran
    short or dry is listed in the language's collation, like the glossary."""
    names = {c.id: lang.plain(c.name) for c in game.components}
    zones = {z.id: lang.plain(z.name) for z in game.zones}
    out: dict[str, list[dict]] = {}
    for (players, mode), f in sorted(facts.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        if not f.turns or max(f.turns) == 0:
            continue
        out.setdefault(mode, []).append({
            "players": players, "games": f.games,
            "turns": (round(sum(f.turns) / len(f.turns)), min(f.turns), max(f.turns)),
            "short": collated([(names.get(c, c), round(100 * n / f.games)) for c, n in f.ran_out.items()],
                              lang.tag, lambda pair: pair[0]),
            "dry": collated([(zones.get(z, z), round(100 * n / f.games)) for z, n in f.ran_dry.items()],
                            lang.tag, lambda pair: pair[0]),
        })
    return out


def ordered_games(project: Project) -> list[GameDoc]:
    order = project.site.games or sorted(project.games)
    rest = sorted(set(project.games) - set(order))
    return [project.games[g] for g in list(order) + rest if g in project.games]


def glossary_definitions(project: Project, tag: str) -> dict[str, str]:
    """Label of every glossary term -> its definition as plain text, for hover and focus; and
    of every gap and source -> what the "?" and numbered marks that link to it show."""
    out = {}
    _ = translator(tag)
    sep = " " if _(": ").endswith(" ") else ""  # none after a full-width colon
    for doc in project.games.values():
        lang = Lang(tag, project.site.default_language, TermLinker([]), doc.model)
        for term in doc.model.glossary:
            out[term_label(doc.id, term.id)] = lang.plain(term.definition)
        for gap in doc.model.gaps:
            out[item_label(doc.id, gap.id)] = _("Open question:") + sep + lang.plain(gap.text)
        for n, src in enumerate(doc.model.sources, 1):
            out[item_label(doc.id, src.id)] = _("Source {n}:", n=n) + sep + " ".join(src.title.split())
    return out


__all__ = ["render_language", "component_table", "glossary_definitions"]
