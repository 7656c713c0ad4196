"""Glue for Sphinx: the configuration of one language's build and the page context the theme uses.

Configuration is passed as overrides (no conf.py is generated or executed). The extension
part (`setup`) adds the language switcher, hreflang alternates and the game navigation to
every page's context."""

from __future__ import annotations

import io
import re
from pathlib import Path

from .diagnostics import Diagnostic
from .i18n import babel_locale, translator, url_segment

THEME_DIR = Path(__file__).resolve().parent.parent / "themes"
PDF_LABELS = {"reference.pdf": "Player aid (PDF, A4)", "reference-letter.pdf": "Player aid (PDF, Letter)",
              "cards.pdf": "Card texts (PDF, A4)", "cards-letter.pdf": "Card texts (PDF, Letter)"}
GAME_PAGES = [("index", "Rulebook"), ("components", "Components"), ("cards", "Cards"), ("glossary", "Glossary")]


def config(tag: str, site, game_titles: dict[str, str], terms: dict[str, str] | None = None,
           pdfs: dict[str, list[str]] | None = None) -> dict:
    _ = translator(tag)
    conf = {
        "extensions": ["myst_parser", "generator.sphinx_"],
        "project": site.title.get(tag, ""),
        "language": babel_locale(tag),
        "root_doc": "index",
        "source_suffix": {".md": "markdown"},
        "exclude_patterns": ["_*"],
        "html_theme": "rulebook",
        "html_theme_path": [str(THEME_DIR)],
        "html_title": site.title.get(tag, ""),
        "html_short_title": site.title.get(tag, ""),
        "html_show_sourcelink": False,
        "html_copy_source": False,
        "html_show_sphinx": False,
        "html_show_copyright": False,
        "html_last_updated_fmt": None,
        "html_permalinks_icon": "¶",
        "html_domain_indices": False,
        "html_use_index": False,
        # Defensive even though content is escaped (render/markdown.py): no MyST extension that
        # reads HTML (html_admonition, html_image) or substitutes text; see SAFE_MYST_EXTENSIONS.
        "myst_enable_extensions": ["attrs_block"],
        "myst_heading_anchors": 0,
        "myst_ref_domains": ["std"],
        # rb-source: the "may be out of date" mark links to the same page of the source language
        "myst_url_schemes": {"http": None, "https": None, "mailto": None,
                             "rb-source": {"url": "../../{{path}}#{{fragment}}", "title": "", "classes": ["rb-stale"]}},  # links name labels; asking every domain (C++ parses each) cost a third of a build
        "suppress_warnings": ["myst.header"],
        "rb_tag": tag,
        "rb_languages": [(lang.tag, lang.name) for lang in site.languages],
        "rb_game_titles": game_titles,
        "rb_ui": {"skip": _("Skip to content"), "languages": _("Languages"),
                  "footer": _("Made with the rulebook generator from checked YAML data."),
                  "print": _("Print")},
        "rb_site_title": site.title.get(tag, ""),
        "rb_terms": terms or {},
        "rb_pdfs": pdfs or {},
    }
    return conf


# The MyST extensions a build may enable: none of them turns text into HTML or reads files.
SAFE_MYST_EXTENSIONS = {"attrs_block"}

# docutils settings of every page: no `raw` directive (HTML straight into the page) and no file
# insertion (`include`, `literalinclude`, `csv-table :file:`), whatever a page says.
DOCUTILS_SETTINGS = {"raw_enabled": False, "file_insertion_enabled": False}


def _harden(app):
    app.env.settings.update(DOCUTILS_SETTINGS)
    templates = getattr(app.builder, "templates", None)
    if getattr(templates, "environment", None) is not None:
        # The theme's templates, compiled once and kept beside the build's environment: a
        # rebuild of a few pages spent a tenth of a second compiling them again.
        import jinja2
        folder = Path(app.doctreedir).parent / "templates"
        folder.mkdir(parents=True, exist_ok=True)
        templates.environment.bytecode_cache = jinja2.FileSystemBytecodeCache(str(folder))
    unsafe = set(app.config.myst_enable_extensions) - SAFE_MYST_EXTENSIONS
    if unsafe:
        raise RuntimeError(f"MyST extensions {sorted(unsafe)} are not allowed")


def _no_raw(app, doctree):
    """Raw HTML of a page (a Markdown HTML block or inline tag) never reaches the output: the
    templates write none and content is escaped, so one is a bug; warn (RB900) and drop it."""
    from docutils import nodes
    from sphinx.util import logging as sphinx_logging
    for node in list(doctree.findall(nodes.raw)):
        sphinx_logging.getLogger(__name__).warning("raw HTML is not allowed in a page", location=node)
        node.parent.remove(node)


def setup(app):
    # Rebuild "": no change of these makes Sphinx rebuild every page. The generator knows
    # better: they come from site.yaml and the tool (a change means a clean build) or from one
    # game (a change means that game's pages are made again); see generator/cache.py.
    for name, default in (("rb_tag", "en"), ("rb_languages", []), ("rb_game_titles", {}), ("rb_ui", {}),
                          ("rb_site_title", ""), ("rb_terms", {}), ("rb_pdfs", {})):
        app.add_config_value(name, default, "")
    app.connect("html-page-context", _page_context)
    app.connect("builder-inited", _harden)
    app.connect("doctree-read", _no_raw)
    from .search_zh import SearchChineseBigram
    app.add_search_language(SearchChineseBigram)  # Chinese search without jieba's Simplified dictionary
    app.connect("build-finished", _prune_search_index)
    app.set_translator("html", _translator_class(), override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def _prune_search_index(app, exception):
    """An incremental build's index keeps words that no page holds any more, with no pages
    (Sphinx prunes the pages, not the words): drop them, so it equals a clean build's."""
    from sphinx.search import js_index
    path = Path(app.outdir) / "searchindex.js"
    if exception is not None or not path.is_file():
        return
    text = path.read_text(encoding="utf-8")
    data = js_index.loads(text)
    for table in ("terms", "titleterms"):
        if isinstance(data.get(table), dict):
            data[table] = {word: pages for word, pages in data[table].items() if pages != []}
    pruned = js_index.dumps(data)
    if pruned != text:
        path.write_text(pruned, encoding="utf-8")


def _translator_class():
    """Links to a glossary term carry its definition (data-def), shown on hover and focus by CSS;
    links to other sites (a source's page, a game's BoardGameGeek page) carry rel="noopener
    noreferrer": the page they open gets no handle on ours and is not told where the reader came from."""
    from docutils import nodes
    from sphinx.writers.html5 import HTML5Translator

    class RulebookTranslator(HTML5Translator):
        def starttag(self, node, tagname, suffix="\n", empty=False, **attributes):
            if tagname == "a" and isinstance(node, nodes.reference) and \
                    node.get("refuri", "").startswith(("http://", "https://")):
                attributes["rel"] = "noopener noreferrer"
            if tagname == "a" and isinstance(node, nodes.reference):
                fragment = node.get("refuri", "").partition("#")[2] or node.get("refid", "")
                definition = self.config.rb_terms.get(fragment)
                if definition and not self.builder.current_docname.endswith("/glossary"):
                    attributes["data-def"] = definition
                    attributes["class"] = (attributes.get("class", "") + " rb-term").strip()
                    if _is_mark(node.astext()):  # "?" or "[2]": its name for a screen reader is what it shows
                        attributes["aria-label"] = definition
                        attributes["class"] += " rb-mark"
            return super().starttag(node, tagname, suffix, empty, **attributes)

    return RulebookTranslator


def _is_mark(text: str) -> bool:
    """The link text of a gap mark ("?") or a source mark ("[2]")."""
    return text == "?" or (text.startswith("[") and text.endswith("]") and text[1:-1].isdigit())


def _page_context(app, pagename, templatename, context, doctree):
    """The theme's rb_* context. Sphinx's templates do not autoescape, and titles and language
    names come from content (site.yaml, a game's name): every text is HTML-escaped here (as
    Markup, so a template's own |e does not escape it twice)."""
    from markupsafe import escape
    cfg = app.config
    _ = translator(cfg.rb_tag)
    depth = pagename.count("/")
    up = "../" * (depth + 1)  # from this page to the site root (above the language folders)
    context["rb_lang_url"] = escape(url_segment(cfg.rb_tag))
    context["rb_ui"] = {k: escape(v) for k, v in cfg.rb_ui.items()}
    context["rb_site_title"] = escape(cfg.rb_site_title)
    context["rb_languages"] = [
        {"tag": escape(tag), "name": escape(name), "current": tag == cfg.rb_tag,
         "href": escape(f"{up}{url_segment(tag)}/{pagename}.html"),
         "url": escape(f"{up}{url_segment(tag)}/{pagename}.html")}
        for tag, name in cfg.rb_languages
    ]
    game = pagename.split("/")[0] if "/" in pagename else None
    if game and game in cfg.rb_game_titles:
        context["rb_game"] = {"title": escape(cfg.rb_game_titles[game]),
                              "links": [{"doc": f"{game}/{doc}", "label": escape(_(label))} for doc, label in GAME_PAGES],
                              "pdfs": [{"href": escape(f"{up}{url_segment(cfg.rb_tag)}/{game}/{name}"),
                                        "label": escape(_(PDF_LABELS[name]))}
                                       for name in cfg.rb_pdfs.get(game, [])]}
    else:
        context["rb_game"] = None


_WARNING = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+)?:? ?(?P<kind>WARNING|ERROR|CRITICAL): (?P<msg>.*)$")


def run(srcdir: Path, outdir: Path, doctrees: Path, conf: dict, fresh: bool = True) -> list[Diagnostic]:
    """One Sphinx HTML build. Warnings become RB900 diagnostics (the build is strict).

    With fresh=False, Sphinx keeps the environment in `doctrees` and reads and writes only the
    pages whose sources (or their images) are newer than what it built before."""
    from sphinx import locale
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    # Sphinx keeps its message catalogs in a process-wide table and only adds fallbacks to
    # it: without this, the second language of a build would speak the first one's strings.
    locale.translators.clear()
    _import_while_untranslated()

    status, warnings = io.StringIO(), io.StringIO()
    diags: list[Diagnostic] = []
    try:
        with docutils_namespace():
            app = Sphinx(str(srcdir), None, str(outdir), str(doctrees), "html", confoverrides=dict(conf),
                         status=status, warning=warnings, freshenv=fresh, keep_going=True)
            app.build(force_all=fresh)
    except Exception as e:  # Sphinx raised: report it as a build failure
        diags.append(Diagnostic("RB901", f"Sphinx failed: {type(e).__name__}: {e}", str(srcdir)))
    return diagnostics_from(warnings.getvalue(), diags)


def preload() -> None:
    """Import what a build needs, before forking workers that then share it."""
    import sphinx.application  # noqa: F401
    _import_while_untranslated()


def _import_while_untranslated() -> None:
    """Sphinx's modules call `_()` when they are imported; once a catalog is registered, that
    gives a plain string in the catalog's language, not a lazy one, for as long as the process
    lives (the Python domain's module index was named in the first language built, in every
    language's objects.inv). So import them all while no catalog is registered."""
    import importlib

    from sphinx import application
    for name in (*application.builtin_extensions, *application._first_party_extensions, "myst_parser",
                 "sphinx.search.en", "sphinx.search.es", "sphinx.builders.html"):
        try:
            importlib.import_module(name)
        except ImportError:  # an optional extension that is not installed
            pass


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def diagnostics_from(warnings: str, diags: list[Diagnostic] | None = None) -> list[Diagnostic]:
    """Sphinx's warning lines as RB900 diagnostics, without the terminal's colour codes."""
    diags = [] if diags is None else diags
    for line in _ANSI.sub("", warnings).splitlines():
        m = _WARNING.match(line.strip())
        if not m:
            continue
        diags.append(Diagnostic("RB900", m.group("msg"), m.group("file"), int(m.group("line") or 0), 0,
                                "this is a bug of the generator or its templates; please report it"))
    return diags
