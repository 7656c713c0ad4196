"""Benchmark: the translation commands on the shipped games, as a user runs them.

Prints the median wall and CPU time of --runs runs of each, as whole processes (`rulebook …`,
Python's start-up included), and in-process (the work alone). The machine may be shared: CPU time
(user + system, of the child processes for the former) is the figure a busy machine moves least.
- `rulebook translations status` for every game (goal: under 0.5 s);
- `rulebook translations export --lang L` of every game, then `rulebook translations import` of
  all the files into a copy of content/ with one changed translation per game (goal: under 2 s
  for the two together).
Figures go to docs/performance.md.

    .venv/bin/python bench/translations.py [--runs R] [--lang es]
"""

from __future__ import annotations

import argparse
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
RULEBOOK = Path(sys.executable).parent / "rulebook"


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


class _Timed:
    """Wall and CPU seconds of a call: `_Timed(fn)` runs it; `+` adds two."""

    def __init__(self, fn=None, wall: float = 0.0, cpu: float = 0.0):
        if fn is not None:
            w, c = time.perf_counter(), _cpu()
            fn()
            wall, cpu = time.perf_counter() - w, _cpu() - c
        self.wall, self.cpu = wall, cpu

    def __add__(self, other: "_Timed") -> "_Timed":
        return _Timed(wall=self.wall + other.wall, cpu=self.cpu + other.cpu)


def _timed(fn) -> _Timed:
    return _Timed(fn)


def _fmt(runs: list[_Timed]) -> str:
    return f"{median(r.wall for r in runs):.3f} s wall, {median(r.cpu for r in runs):.3f} s CPU"


def _run(*args: str) -> None:
    subprocess.run([str(RULEBOOK), *args], check=True, capture_output=True)


def _translate_one_per_game(folder: Path) -> None:
    """As a translator would: change the first translated entry of each file."""
    import polib
    for po in folder.glob("*.po"):
        cat = polib.pofile(str(po))
        entry = next(e for e in cat if e.msgstr and not e.fuzzy and "{" not in e.msgid)
        entry.msgstr = entry.msgstr + " "  # a trailing space: a changed value, the same numbers
        cat.save()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--lang", default="es")
    a = ap.parse_args()
    from generator.project import read_project
    from generator.translations.export import export
    from generator.translations.importer import import_files
    from generator.translations.status import rows

    status_proc = [_timed(lambda: _run("translations", "status", "--content", str(ROOT / "content")))
                   for _ in range(a.runs)]

    def status_in() -> None:
        project, _ = read_project(ROOT / "content")
        rows(project)
    status_inproc = [_timed(status_in) for _ in range(a.runs)]

    loop_proc, loop_in = [], []
    for _ in range(a.runs):
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            shutil.copytree(ROOT / "content", tmp / "content")
            out = tmp / "tr"
            t_export = _timed(lambda: _run("translations", "export", "--lang", a.lang, "--content",
                                           str(tmp / "content"), "--out", str(out)))
            _translate_one_per_game(out / a.lang)
            files = sorted(str(p) for p in (out / a.lang).glob("*.po"))
            t_import = _timed(lambda: _run("translations", "import", *files, "--content", str(tmp / "content")))
            loop_proc.append(t_export + t_import)
        with tempfile.TemporaryDirectory() as tmp:
            tmp = Path(tmp)
            shutil.copytree(ROOT / "content", tmp / "content")

            def export_in() -> None:
                project, _ = read_project(tmp / "content")
                export(project, a.lang, "po", tmp / "tr", None)
            t_export = _timed(export_in)
            _translate_one_per_game(tmp / "tr" / a.lang)
            t_import = _timed(lambda: import_files(tmp / "content", sorted((tmp / "tr" / a.lang).glob("*.po"))))
            loop_in.append(t_export + t_import)

    print(f"translations status, every game ({a.runs} runs, median; goal 0.5 s):\n"
          f"  as a process: {_fmt(status_proc)}\n  in-process:   {_fmt(status_inproc)}")
    print(f"export + import, every game, --lang {a.lang} ({a.runs} runs, median; goal 2 s):\n"
          f"  as processes: {_fmt(loop_proc)}\n  in-process:   {_fmt(loop_in)}")


if __name__ == "__main__":
    main()
