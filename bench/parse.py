"""Benchmark: what `rulebook validate --no-sim` costs next to only parsing the YAML with libyaml.

Prints medians of several in-process runs of
  (a) yaml.load with libyaml's CSafeLoader on every content file (content/*/*.yaml),
  (b) our loader with positions (generator.load: the libyaml fast path), and the pure-Python one,
  (c) read_project: load + schema (pydantic),
  (d) validate --no-sim: read_project + the static checks (check.run(..., simulation=False)),
and the ratio (d)/(a). With --processes, also whole processes timed with hyperfine (if installed):
`rulebook validate --no-sim` against a Python process that only CSafeLoader-parses the same files;
with --by-turns N, the same two processes run by turns (steadier when other work shares the machine).
With --against TREE (another checkout of this project, e.g. `git archive d581b1b | tar -x -C /tmp/before`),
`validate --no-sim` in process (generator.cli.validate, as the command runs it), each tree on its own
content in its own process, the two trees by turns for --rounds rounds: the ratio of issue 13's
done-criterion, measured in one run.
Not a test: figures go to docs/performance.md.

    .venv/bin/python bench/parse.py [--runs N] [--content DIR] [--processes] [--by-turns N]
                                    [--against TREE [--rounds R]]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import yaml  # noqa: E402

from generator import check, load  # noqa: E402
from generator.project import read_project  # noqa: E402


def median_of(n: int, fn) -> tuple[float, float]:
    """Median wall time and median CPU time of n runs (CPU time says more on a busy machine)."""
    wall, cpu = [], []
    for _ in range(n):
        t, c = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
    return statistics.median(wall), statistics.median(cpu)


def row(label: str, t: tuple[float, float], base: tuple[float, float] | None = None) -> str:
    out = f"{label:42s} {t[0] * 1000:7.1f} ms wall {t[1] * 1000:7.1f} ms CPU"
    if base:
        out += f"   ({t[0] / base[0]:.2f}x / {t[1] / base[1]:.2f}x a)"
    return out


def pure_only(fn):
    """Run fn with the libyaml fast path switched off."""
    def run():
        saved, load._CParser = getattr(load, '_CParser', None), None
        try:
            return fn()
        finally:
            load._CParser = saved
    return run


def hyperfine(content: Path) -> None:
    exe = shutil.which("hyperfine")
    if not exe:
        print("hyperfine not found: no process figures")
        return
    py = sys.executable
    rulebook = str(Path(py).with_name("rulebook"))
    glob = str(content.relative_to(ROOT) if content.is_relative_to(ROOT) else content) + "/*/*.yaml"
    parse = (f"{py} -c 'import yaml,glob; [yaml.load(open(f,encoding=\"utf-8\").read(), Loader=yaml.CSafeLoader) "
             f"for f in glob.glob(\"{glob}\")]'")
    validate = f"{rulebook} validate --no-sim --content {content}"
    # Python compiles generator/*.py at every start when PYTHONDONTWRITEBYTECODE is set (as in
    # some sandboxes); an installed rulebook has its bytecode cached, so measure that way too.
    with tempfile.TemporaryDirectory() as tmp:
        for label, env in (("as the environment is", {}),
                           ("with a bytecode cache", {"PYTHONDONTWRITEBYTECODE": "", "PYTHONPYCACHEPREFIX": tmp})):
            out = Path(tmp) / "h.json"
            subprocess.run([exe, "-N", "-w", "2", "-r", "10", "--export-json", str(out), validate, parse],
                           cwd=ROOT, check=True, capture_output=True, env={**os.environ, **env})
            rows = json.loads(out.read_text())["results"]
            (v, vc), (p, pc) = ((statistics.median(r["times"]), r["user"] + r["system"]) for r in rows)
            print(f"# whole processes, {label} (hyperfine, 10 runs after 2 warm-ups: median wall, mean user+system CPU)")
            print(f"rulebook validate --no-sim:          {v * 1000:7.1f} ms wall {vc * 1000:7.1f} ms CPU")
            print(f"python + CSafeLoader parse only:     {p * 1000:7.1f} ms wall {pc * 1000:7.1f} ms CPU")
            print(f"ratio:                               {v / p:7.2f}x wall {vc / pc:7.2f}x CPU")


def interleaved(content: Path, n: int) -> None:
    """The two processes run by turns, n times each: on a shared machine the load then falls on
    both alike (hyperfine runs all of one command, then all of the other). CPU is user+system."""
    py = sys.executable
    validate = [str(Path(py).with_name("rulebook")), "validate", "--no-sim", "--content", str(content)]
    parse = [py, "-c", "import yaml,glob; [yaml.load(open(f,encoding='utf-8').read(), Loader=yaml.CSafeLoader) "
             f"for f in glob.glob({str(content) + '/*/*.yaml'!r})]"]
    times: dict[str, tuple[list, list]] = {"validate": ([], []), "parse": ([], [])}
    for i in range(n + 2):  # two warm-ups
        for name, cmd in (("validate", validate), ("parse", parse)):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            subprocess.run(cmd, cwd=ROOT, check=False, capture_output=True)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if i >= 2:
                times[name][0].append(wall)
                times[name][1].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    (v, vc), (p, pc) = ((statistics.median(w), statistics.median(c)) for w, c in times.values())
    print(f"# whole processes by turns, as the environment is (medians of {n} each after 2 warm-ups)")
    print(f"rulebook validate --no-sim:          {v * 1000:7.1f} ms wall {vc * 1000:7.1f} ms CPU")
    print(f"python + CSafeLoader parse only:     {p * 1000:7.1f} ms wall {pc * 1000:7.1f} ms CPU")
    print(f"ratio:                               {v / p:7.2f}x wall {vc / pc:7.2f}x CPU")


# One tree's `validate --no-sim` in process: its generator and its content, the CPU time of each of
# n runs after one warm-up (the first run imports and compiles what the later ones reuse).
_IN_TREE = """
import contextlib, io, json, os, sys, time
os.chdir(sys.argv[1]); sys.path.insert(0, sys.argv[1])
from pathlib import Path
from generator import cli
def once():
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        cli.validate(Path("content"), None, simulation=False)
once()
cpu = []
for _ in range(int(sys.argv[2])):
    t = time.process_time(); once(); cpu.append(time.process_time() - t)
print(json.dumps(cpu))
"""


def against(tree: Path, runs: int, rounds: int) -> None:
    """This tree and another by turns, each round one process per tree (so neither gets the quiet
    moments of the machine): medians of each round's runs, then the ratio of the medians of all."""
    trees = {"other": tree.resolve(), "this": ROOT}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    print(f"# validate --no-sim in process, {runs} runs per process after a warm-up, {rounds} rounds by turns")
    print(f"#   other: {trees['other']}\n#   this:  {ROOT}")
    for r in range(rounds):
        line = []
        for name, path in trees.items():
            out = subprocess.run([sys.executable, "-c", _IN_TREE, str(path), str(runs)], capture_output=True,
                                 text=True, check=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
            times = json.loads(out.stdout)
            cpu[name] += times
            line.append(f"{name} {statistics.median(times) * 1000:6.1f} ms")
        print(f"round {r + 1}: " + "   ".join(line))
    o, t = statistics.median(cpu["other"]), statistics.median(cpu["this"])
    print(f"median CPU of all runs: other {o * 1000:.1f} ms, this {t * 1000:.1f} ms: this/other = {t / o:.2f}x")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--content", type=Path, default=ROOT / "content")
    ap.add_argument("--processes", action="store_true", help="also time whole processes with hyperfine")
    ap.add_argument("--by-turns", type=int, default=0, metavar="N",
                    help="also time whole processes run by turns, N times each (steadier on a busy machine)")
    ap.add_argument("--against", type=Path, metavar="TREE",
                    help="also time validate --no-sim of another checkout and this one by turns")
    ap.add_argument("--rounds", type=int, default=5, help="rounds by turns with --against")
    args = ap.parse_args()
    if args.against:
        against(args.against, args.runs, args.rounds)
        return 0
    content = args.content.resolve()
    files = sorted(content.glob("*/*.yaml"))
    n = args.runs

    project, diags = read_project(content)
    assert project.games, diags

    plain = median_of(n, lambda: [yaml.load(f.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader) for f in files])
    ours = median_of(n, lambda: [load.load_file(f) for f in files])
    pure = median_of(max(1, n // 3), pure_only(lambda: [load.load_file(f) for f in files]))
    read = median_of(n, lambda: read_project(content))
    static = median_of(n, lambda: check.run(read_project(content)[0], simulation=False))
    checks = median_of(n, lambda: check.run(project, simulation=False))
    print(f"# in-process medians of {n} runs, {len(files)} files of {len(project.games)} games"
          f" (libyaml {'present' if getattr(load, '_CParser', None) else 'MISSING: pure-Python path only'})")
    print(row("(a) yaml.load, CSafeLoader:", plain))
    print(row("(b) load with positions (fast path):", ours, plain))
    print(row("    load with positions (pure Python):", pure, plain))
    print(row("(c) read_project (load + schema):", read, plain))
    print(row("    static checks alone:", checks, plain))
    print(row("(d) validate --no-sim (read + checks):", static, plain))
    print(f"ratio (d)/(a): {static[0] / plain[0]:.2f}x wall, {static[1] / plain[1]:.2f}x CPU")
    if args.processes:
        hyperfine(content)
    if args.by_turns:
        interleaved(content, args.by_turns)
    return 0


if __name__ == "__main__":
    sys.exit(main())
