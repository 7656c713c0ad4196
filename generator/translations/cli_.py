"""`rulebook translations …`: status, mark-current, export, import, add-language.

`register` adds the subcommand to the CLI's parser (argparse only: `--help` stays instant);
`run` imports what the chosen command needs."""

from __future__ import annotations

import sys
from pathlib import Path

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def register(sub, common) -> None:
    t = sub.add_parser("translations", parents=[common], help="translation status, files for translators, import")
    tsub = t.add_subparsers(dest="action", metavar="ACTION", required=True)

    s = tsub.add_parser("status", parents=[common], help="per game and language: translated, stale, missing")
    s.add_argument("games", nargs="*", metavar="GAME")
    s.add_argument("--lang", action="append", metavar="L", help="only this language (repeatable)")
    s.add_argument("--format", choices=["text", "json", "markdown"], default="text")
    s.add_argument("--fail-under", type=float, metavar="N", help="exit 1 when any row is under N %% translated")

    m = tsub.add_parser("mark-current", parents=[common],
                        help="record the present translations as following today's source texts")
    m.add_argument("games", nargs="*", metavar="GAME")
    m.add_argument("--lang", action="append", metavar="L", help="only this language (repeatable)")

    e = tsub.add_parser("export", parents=[common], help="write a PO (or XLIFF) file per game for translators")
    e.add_argument("--lang", required=True, metavar="L", help="the language to translate into")
    e.add_argument("--game", action="append", metavar="G", help="only this game (repeatable)")
    e.add_argument("--format", choices=["po", "xliff"], default="po")
    e.add_argument("--out", type=Path, default=Path("translations"), metavar="DIR",
                   help="folder to write into (default: translations/); files are DIR/<lang>/<game>.po")

    i = tsub.add_parser("import", parents=[common], help="write translated PO/XLIFF files back into the YAML")
    i.add_argument("files", nargs="+", type=Path, metavar="FILE")
    i.add_argument("--fuzzy", action="store_true", help="also import fuzzy (needs-review) entries; they stay stale")
    i.add_argument("--format", choices=["text", "json", "junit", "github"], default="text")

    a = tsub.add_parser("add-language", parents=[common], help="add a language to content/site.yaml")
    a.add_argument("tag", metavar="TAG", help="a BCP 47 tag, e.g. fr or pt-BR")
    a.add_argument("--name", help="the language's own name (default: from Babel, e.g. français)")


def run(args) -> int:
    return {"status": _status, "mark-current": _mark_current, "export": _export, "import": _import,
            "add-language": _add_language}[args.action](args)


def _project(args, games=None):
    """The project read and shaped (no checks run); None with the diagnostics printed when it cannot be."""
    from ..diagnostics import format_text, has_errors
    from ..project import read_project
    project, diags = read_project(args.content, games or None)
    if has_errors(diags) or project.site is None:
        print(format_text([d for d in diags if d.severity.value == "error"]), file=sys.stderr)
        print("rulebook: fix these errors first (`rulebook validate`)", file=sys.stderr)
        return None
    return project


def _langs_ok(project, langs) -> bool:
    bad = [lang for lang in langs or [] if lang not in project.languages]
    if bad:
        print(f"rulebook: unknown language {', '.join(bad)} (site languages: {', '.join(project.languages)})",
              file=sys.stderr)
    return not bad


def _status(args) -> int:
    from .status import FORMATS, rows
    project = _project(args, args.games)
    if project is None:
        return EXIT_ERRORS
    if not _langs_ok(project, args.lang):
        return EXIT_USAGE
    found = rows(project, args.games, args.lang)
    print(FORMATS[args.format](found))
    if args.fail_under is not None:
        under = [r for r in found if r.percent < args.fail_under]
        for r in under:
            print(f"rulebook: {r.game} {r.lang} is {r.percent:.1f} % translated, under {args.fail_under:g} %",
                  file=sys.stderr)
        if under:
            return EXIT_ERRORS
    return EXIT_OK


def _mark_current(args) -> int:
    from .state import FILE, mark_current
    project = _project(args, args.games)
    if project is None:
        return EXIT_ERRORS
    if not _langs_ok(project, args.lang):
        return EXIT_USAGE
    for game in project.games.values():
        n, changed = mark_current(game, project, args.lang)
        print(f"rulebook: {game.id}: {n} translation{'s' if n != 1 else ''} marked current"
              + (f"; {FILE} written" if changed else ""), file=sys.stderr)
    return EXIT_OK


def _export(args) -> int:
    from .export import export
    project = _project(args, args.game)
    if project is None:
        return EXIT_ERRORS
    if not _langs_ok(project, [args.lang]):
        return EXIT_USAGE
    for path, n in export(project, args.lang, args.format, args.out, args.game):
        print(f"rulebook: {path}: {n} texts", file=sys.stderr)
    return EXIT_OK


def _import(args) -> int:
    from ..cli import _report
    from ..diagnostics import has_errors
    from .importer import import_files
    diags, changed = import_files(args.content, args.files, fuzzy=args.fuzzy)
    _report(diags, args.format)
    if has_errors(diags):
        print("rulebook: import stopped; no file was changed" if not changed else
              "rulebook: translations imported, but validate reports errors", file=sys.stderr)
        return EXIT_ERRORS
    print(f"rulebook: {changed} translation{'s' if changed != 1 else ''} imported", file=sys.stderr)
    return EXIT_OK


def _add_language(args) -> int:
    from .languages import add_language
    ok, text = add_language(args.content, args.tag, args.name)
    print(f"rulebook: {text}", file=sys.stderr)
    return EXIT_OK if ok else EXIT_ERRORS
