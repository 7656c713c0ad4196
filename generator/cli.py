"""The `rulebook` command. Heavy modules (Sphinx, Playwright) are imported only by the
commands that need them, so `rulebook --help` and `rulebook validate` start fast."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def _global_options(default) -> argparse.ArgumentParser:
    """The options every command takes, before or after its name (`rulebook --content DIR
    validate` = `rulebook validate --content DIR`). A subcommand's copy defaults to SUPPRESS,
    so that it sets the option only when given after the name and never overwrites one given
    before it with its default."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--content", type=Path, default=default, metavar="DIR",
                        help="the content folder (default: content/)")
    return common


def _parser() -> argparse.ArgumentParser:
    common = _global_options(argparse.SUPPRESS)
    p = argparse.ArgumentParser(prog="rulebook", description="Turn board-game rules in YAML into checked, "
                                "multilingual, printable references.", parents=[_global_options(Path("content"))])
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    v = sub.add_parser("validate", parents=[common], help="check content/ like a compiler")
    v.add_argument("games", nargs="*", metavar="GAME", help="games to check (default: all)")
    v.add_argument("--format", choices=["text", "json", "junit", "github"], default="text")
    v.add_argument("--allow-untranslated", action="store_true",
                   help="report missing translations as warnings (pages show a marked fallback)")
    v.add_argument("--seeds", type=_count, default=None, metavar="N",
                   help="simulated games per player count and mode (default: %d)" % _DEFAULT_SEEDS)
    v.add_argument("--seed", type=int, default=None, metavar="S", help="replay only the simulated game with seed S")
    v.add_argument("--no-sim", action="store_true", help="static checks only: do not simulate games")
    v.add_argument("--strict", action="store_true", help="warnings (a stale translation, RB406) count as errors")

    b = sub.add_parser("build", parents=[common], help="validate, then build the static site")
    b.add_argument("--lang", action="append", metavar="L", help="only this language (repeatable)")
    b.add_argument("--game", action="append", metavar="G", help="only this game (repeatable)")
    b.add_argument("--out", type=Path, default=Path("site"), metavar="DIR", help="output folder (default: site/)")
    b.add_argument("--format", choices=["text", "json", "junit", "github"], default="text")
    b.add_argument("--no-pdf", action="store_true",
                   help="skip the printable PDFs (they need Debian's chromium and fonts-arphic-uming)")
    b.add_argument("--allow-untranslated", action="store_true",
                   help="build even where a text lacks a language; the page shows the default language, marked")
    b.add_argument("--pseudo", action="store_true", help="build only a pseudo-localized language (en-XA; or "
                   "--lang en-XA): every text accented, bracketed and 40%% longer, to show untranslated strings and tight layouts")

    s = sub.add_parser("serve", parents=[common], help="build, then serve the site on 127.0.0.1")
    s.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: 127.0.0.1)")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--out", type=Path, default=Path("site"), metavar="DIR")
    s.add_argument("--no-build", action="store_true", help="serve what is already built")
    s.add_argument("--watch", action="store_true",
                   help="rebuild on every change of content/ and reload the open pages (errors show over the page)")
    s.add_argument("--no-pdf", action="store_true", help="skip the printable PDFs")
    s.add_argument("--allow-untranslated", action="store_true", help="as for build")

    n = sub.add_parser("new", parents=[common], help="start a new game: its folder, files and place in site.yaml")
    n.add_argument("game", metavar="GAME", help="the new game's id, in kebab-case (e.g. no-thanks)")
    n.add_argument("--format", choices=["text", "json", "junit", "github"], default="text")

    from .translations.cli_ import register
    register(sub, common)

    sc = sub.add_parser("schema", parents=[common], help="print the JSON Schema of a game file (or of site.yaml)")
    sc.add_argument("--site", action="store_true", help="the schema of content/site.yaml instead")
    return p


_DEFAULT_SEEDS = 8  # = generator.check.simulate.DEFAULT_SEEDS (a test checks); not imported, so --help stays light
_PSEUDO = "en-XA"  # = generator.i18n.PSEUDO (a test checks); not imported, so an unchanged rebuild stays light


def _count(text: str) -> int:
    n = int(text)
    if n < 0:
        raise argparse.ArgumentTypeError("must be 0 or more")
    return n


def _report(diags, fmt: str) -> None:
    from .diagnostics import FORMATTERS
    out = FORMATTERS[fmt](diags)
    if out:
        print(out, file=sys.stdout if fmt != "text" else sys.stderr)
    elif fmt == "junit":
        print(out)
    sys.stdout.flush()  # here, not at exit: a reader that went away is handled in main()


def validate(content: Path, games: list[str] | None, allow_untranslated: bool = False,
             simulation: bool = True, seeds: int | None = None, seed: int | None = None, memo=None,
             load_all: bool = False):
    """Load, check and simulate; returns (project, diagnostics). `memo`: see check.run.
    With `load_all`, every game is loaded (a narrowed build renders the shared pages from all
    of them) and only `games` are checked and simulated."""
    from .gcpause import collector_paused
    if not simulation:  # nothing but the project and its findings is made: one pause for all (gcpause.py)
        with collector_paused():
            return _validate(content, games, allow_untranslated, simulation, seeds, seed, memo, load_all)
    return _validate(content, games, allow_untranslated, simulation, seeds, seed, memo, load_all)


def _validate(content: Path, games: list[str] | None, allow_untranslated: bool, simulation: bool,
              seeds: int | None, seed: int | None, memo, load_all: bool):
    from dataclasses import replace

    from . import check
    from .diagnostics import Severity
    from .project import read_project
    if load_all and games:  # every game read: the others for the home pages and search
        from .project import game_folders
        project, diags = read_project(content, None)
        missing = [g for g in games if g not in {f.name for f in game_folders(content)}]
        if missing:
            diags += [d for d in read_project(content, missing)[1] if d.code == "RB005"]
        checked = replace(project, games={g: doc for g, doc in project.games.items() if g in games})
    else:
        project, diags = read_project(content, games or None)
        checked = project
    diags += check.run(checked, simulation, seeds, seed, memo)  # seeds None: the default
    if allow_untranslated:
        diags = [replace(d, severity=Severity.WARNING) if d.code == "RB400" else d for d in diags]
    return project, diags


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command is None:
        _parser().print_help()
        return EXIT_USAGE
    try:
        code = _dispatch(args)
        if argv is None and args.command == "validate":
            # the command line's run, about to end: what it read stays out of the collection that
            # Python runs as it exits, which would scan the whole project only to free memory the
            # process gives back anyway (30 ms of `validate --no-sim`, docs/performance.md).
            # Not when called with arguments, as the tests and other programs do: there the
            # process goes on, and frozen objects would never be collected.
            import gc
            gc.freeze()
        return code
    except KeyboardInterrupt:
        print("rulebook: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (`rulebook validate --format json | head`): stop quietly
        import os
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # so that flushing at exit does not fail again
        return 141  # as a shell reports a process ended by SIGPIPE
    except Exception as e:  # a bug of ours, never the user's content: say so without a traceback
        print(f"rulebook: internal error: {type(e).__name__}: {e} (please report this; run with "
              f"RULEBOOK_DEBUG=1 for details)", file=sys.stderr)
        import os
        if os.environ.get("RULEBOOK_DEBUG"):
            raise
        return EXIT_ERRORS


def _dispatch(args) -> int:
    from dataclasses import replace

    from .diagnostics import Severity, has_errors
    if args.command == "schema":
        import json
        from .schema import game_schema, site_schema
        print(json.dumps(site_schema() if args.site else game_schema(), ensure_ascii=False, indent=2))
        return EXIT_OK
    if args.command == "new":
        return _new(args)
    if args.command == "validate":
        project, diags = validate(args.content, args.games, args.allow_untranslated,
                                  simulation=not args.no_sim, seeds=args.seeds, seed=args.seed)
        if not args.no_sim:
            diags += _setup_only(project)
        if args.strict:
            diags = [replace(d, severity=Severity.ERROR) if d.severity is Severity.WARNING else d for d in diags]
        _report(diags, args.format)
        if not has_errors(diags) and args.format == "text":
            n = len(project.games)
            acked = sum(1 for d in diags if d.severity.value == "acknowledged")
            print(f"rulebook: {n} game{'s' if n != 1 else ''} of {_folder(args.content)} checked, no errors"
                  + (f" ({acked} finding{'s' if acked != 1 else ''} acknowledged)" if acked else ""), file=sys.stderr)
        return EXIT_ERRORS if has_errors(diags) else EXIT_OK
    if args.command == "translations":
        from .translations.cli_ import run
        return run(args)
    if args.command in ("build", "serve"):
        if args.command == "serve" and args.watch:
            from .serve import watch
            return watch(args.content, args.out, args.host, args.port, not args.no_pdf, args.allow_untranslated)
        if args.command == "serve" and args.no_build:
            return _serve(args)
        return _build(args)
    return EXIT_USAGE


def _setup_only(project) -> list:
    """The notes (RB607) on games simulated as far as setup only: shown by every output format."""
    from .check.simulate import setup_only
    return setup_only(project)


def _new(args) -> int:
    from .scaffold import new_game
    done, diags, english = new_game(args.content, args.game)
    if diags:
        _report(diags, args.format)
        return EXIT_ERRORS
    for line in done:
        print(f"rulebook: {line}", file=sys.stderr)
    if english:
        print(f"rulebook: the scaffold has no sentences in {', '.join(english)}: those texts are in English; "
              "translate them", file=sys.stderr)
    where = "" if Path(args.content) == Path("content") else f" --content {args.content}"
    print(f"rulebook: next: rulebook validate {args.game}{where}, then replace every example value and text "
          f"(docs/authoring.md)", file=sys.stderr)
    return EXIT_OK


def _folder(path: Path) -> str:
    """A folder as the summary lines name it: `content/`, `../other/content/`."""
    return f"{str(path).rstrip('/')}/"


def checked_build(content: Path, out: Path, *, pdf: bool = True, allow: bool = False, langs: list[str] | None = None,
                  games: list[str] | None = None, pseudo: bool = False, report=lambda diags: None,
                  log=lambda text: None) -> tuple[str, list]:
    """Validate, then build; what `rulebook build` and `serve --watch` both do. Returns
    ("same", the stored warnings) when out/ was built from exactly these inputs (nothing is
    read, checked or written: generator/cache.py); ("errors", diagnostics) when validation found
    errors (nothing written); ("usage", warnings) for an unknown --lang; ("failed", diagnostics)
    when the build failed (out/ unchanged); ("built", diagnostics). `report(diags)` hears the
    validation's warnings before the build starts, then the build's own diagnostics; `log(text)`
    what the build does. `games` and `langs` narrow what is brought up to date; every other game
    and language of the site keeps its pages."""
    from . import cache
    from .diagnostics import has_errors
    epoch = cache.source_date_epoch(content)
    inputs = cache.fingerprint(content, cache.build_options(pdf, allow), epoch)
    done = cache.up_to_date(out, inputs, langs, games)
    if done is not None:
        return "same", cache.diagnostics_of(done)
    if games:
        games = _narrowed(out, inputs, langs, games)
    memo = cache.SimulationMemo(out, inputs)  # games whose files did not change are not played again
    project, diags = validate(content, games, allow, memo=memo, load_all=True)
    if pseudo:
        from .translations.pseudo import add_pseudo
        add_pseudo(project)
    if has_errors(diags):
        return "errors", diags
    diags += _setup_only(project)
    if diags:
        report(diags)
    bad = [lang for lang in langs or [] if lang.lower() not in {t.lower() for t in project.languages}]
    if bad:
        log(f"unknown language {', '.join(bad)} (site languages: {', '.join(project.languages)})")
        return "usage", diags
    memo.save()  # only now: a build stopped by errors writes nothing at all
    from .build import build_site
    build_diags = build_site(project, out, langs=langs, pdf=pdf, inputs=inputs, epoch=epoch, games=games,
                             warnings=diags, log=log)
    if build_diags:
        report(build_diags)
    return ("failed" if has_errors(build_diags) else "built"), diags + build_diags


def _build(args) -> int:
    """`rulebook build` (and `serve` without --watch): checked_build, told as a compiler would."""
    fmt = getattr(args, "format", "text")
    langs = getattr(args, "lang", None)
    pseudo = getattr(args, "pseudo", False) or _PSEUDO.lower() in {x.lower() for x in langs or []}

    def say(text: str) -> None:
        print(f"rulebook: {text}", file=sys.stderr)

    status, diags = checked_build(args.content, args.out, pdf=not getattr(args, "no_pdf", False),
                                  allow=getattr(args, "allow_untranslated", False),
                                  langs=[_PSEUDO] if pseudo else langs, games=getattr(args, "game", None),
                                  pseudo=pseudo, report=lambda found: _report(found, fmt), log=say)
    if status == "same":
        if diags or fmt != "text":
            _report(diags, fmt)
        say(f"nothing changed; {_folder(args.out)} is up to date")
    elif status == "errors":
        _report(diags, fmt)
        say("build stopped before writing anything")
        return EXIT_ERRORS
    elif status == "usage":
        return EXIT_USAGE
    elif status == "failed":
        say(f"build failed; {_folder(args.out)} is unchanged")
        return EXIT_ERRORS
    else:
        say(f"site written to {_folder(args.out)} from {_folder(args.content)}")
    return _serve(args) if args.command == "serve" else EXIT_OK


def _narrowed(out: Path, inputs, langs: list[str] | None, games: list[str]) -> list[str] | None:
    """`--game`: the games to check and rebuild, or None (all of them) when some language of
    the site has no earlier build of these inputs to keep the other games' pages from."""
    from . import cache
    m = cache.usable(out)
    tags = [t.lower() for t in langs] if langs else (m.site_languages if m else [])
    if m is not None and all(m.plan(inputs, tag, games) is not None for tag in tags):
        return games
    print(f"rulebook: --game {' '.join(games)}: {_folder(out)} has no build of these inputs to keep the other "
          f"games from, so every game is checked and built", file=sys.stderr)
    return None


def _serve(args) -> int:
    from .serve import serve
    return serve(args.out, args.host, args.port)


if __name__ == "__main__":
    sys.exit(main())
