"""Glue for Sphinx: the configuration of one language's build and the page context the theme uses.

Configuration is passed as overrides (no conf.py is generated or executed). The extension
part (`setup`) adds the language switcher, hreflang alternates and the game navigation to
every page's context."""

from __future__ import annotations

import io
import logging
import re
from pathlib import Path

from .diagnostics import Diagnostic
from .i18n import babel_locale, translator, url_segment

THEME_DIR = Path(__file__).resolve().parent.parent / "themes"
PDF_LABELS = {"reference.pdf": "Player aid (PDF, A4)", "reference-letter.pdf": "Player aid (PDF, Letter)",
              "cards.pdf": "Card texts (PDF, A4)", "cards-letter.pdf": "Card texts (PDF, Letter)"}
GAME_PAGES = [("index", "Rulebook"), ("components", "Components"), ("cards", "Cards"), ("glossary", "Glossary")]


def config(tag: str, site, game_titles: dict[str, str], search_dict: Path | None,
           terms: dict[str, str] | None = None, pdfs: dict[str, list[str]] | None = None) -> dict:
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
        "myst_enable_extensions": ["attrs_block"],
        "myst_heading_anchors": 0,
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
    if search_dict is not None:
        conf["html_search_options"] = {"dict": str(search_dict)}
    return conf


def setup(app):
    for name, default in (("rb_tag", "en"), ("rb_languages", []), ("rb_game_titles", {}), ("rb_ui", {}),
                          ("rb_site_title", ""), ("rb_terms", {}), ("rb_pdfs", {})):
        app.add_config_value(name, default, "html")
    app.connect("html-page-context", _page_context)
    app.connect("builder-inited", _search_fix)
    app.set_translator("html", _translator_class(), override=True)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


def _translator_class():
    """Links to a glossary term carry its definition (data-def), shown on hover and focus by CSS."""
    from docutils import nodes
    from sphinx.writers.html5 import HTML5Translator

    class RulebookTranslator(HTML5Translator):
        def starttag(self, node, tagname, suffix="\n", empty=False, **attributes):
            if tagname == "a" and isinstance(node, nodes.reference):
                fragment = node.get("refuri", "").partition("#")[2]
                definition = self.config.rb_terms.get(fragment)
                if definition and not self.builder.current_docname.endswith("/glossary"):
                    attributes["data-def"] = definition
                    attributes["class"] = (attributes.get("class", "") + " rb-term").strip()
            return super().starttag(node, tagname, suffix, empty, **attributes)

    return RulebookTranslator


def _search_fix(app):
    if (app.config.language or "").startswith("zh"):
        app.add_js_file("rulebook-zh-search.js")


def _page_context(app, pagename, templatename, context, doctree):
    cfg = app.config
    _ = translator(cfg.rb_tag)
    depth = pagename.count("/")
    up = "../" * (depth + 1)  # from this page to the site root (above the language folders)
    context["rb_lang_url"] = url_segment(cfg.rb_tag)
    context["rb_ui"] = cfg.rb_ui
    context["rb_site_title"] = cfg.rb_site_title
    context["rb_languages"] = [
        {"tag": tag, "name": name, "current": tag == cfg.rb_tag,
         "href": f"{up}{url_segment(tag)}/{pagename}.html",
         "url": f"{up}{url_segment(tag)}/{pagename}.html"}
        for tag, name in cfg.rb_languages
    ]
    game = pagename.split("/")[0] if "/" in pagename else None
    if game and game in cfg.rb_game_titles:
        context["rb_game"] = {"title": cfg.rb_game_titles[game],
                              "links": [{"doc": f"{game}/{doc}", "label": _(label)} for doc, label in GAME_PAGES],
                              "pdfs": [{"href": f"{up}{url_segment(cfg.rb_tag)}/{game}/{name}", "label": _(PDF_LABELS[name])}
                                       for name in cfg.rb_pdfs.get(game, [])]}
    else:
        context["rb_game"] = None


_WARNING = re.compile(r"^(?P<file>[^\n]*?):(?P<line>\d+)?:? ?(?P<kind>WARNING|ERROR|CRITICAL): (?P<msg>.*)$")


def run(srcdir: Path, outdir: Path, doctrees: Path, conf: dict) -> list[Diagnostic]:
    """One Sphinx HTML build. Warnings become RB900 diagnostics (the build is strict)."""
    from sphinx import locale
    from sphinx.application import Sphinx
    from sphinx.util.docutils import docutils_namespace

    # Sphinx keeps its message catalogs in a process-wide table and only adds fallbacks to
    # it: without this, the second language of a build would speak the first one's strings.
    locale.translators.clear()

    try:  # jieba sets its own logger to DEBUG when imported: import it first, then quieten it
        import jieba  # noqa: F401
    except ImportError:
        pass
    logging.getLogger("jieba").setLevel(logging.WARNING)
    status, warnings = io.StringIO(), io.StringIO()
    diags: list[Diagnostic] = []
    try:
        with docutils_namespace():
            app = Sphinx(str(srcdir), None, str(outdir), str(doctrees), "html", confoverrides=dict(conf),
                         status=status, warning=warnings, freshenv=True, keep_going=True)
            app.build(force_all=True)
    except Exception as e:  # Sphinx raised: report it as a build failure
        diags.append(Diagnostic("RB901", f"Sphinx failed: {type(e).__name__}: {e}", str(srcdir)))
    for line in warnings.getvalue().splitlines():
        m = _WARNING.match(line.strip())
        if not m:
            continue
        diags.append(Diagnostic("RB900", m.group("msg"), m.group("file"), int(m.group("line") or 0), 0,
                                "this is a bug of the generator or its templates; please report it"))
    return diags
