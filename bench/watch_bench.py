"""How long an edit takes to show: `rulebook serve --watch` in a real browser, against a cold
`rulebook build` after the same edit.

For each run, by turns (the machine's noise hits all alike):
- **watch**: the edit is written into a copy of content/ watched by `rulebook serve --watch
  --no-pdf`, with Debian's Chromium showing en/ulm/index.html; the figure is from writing the
  file to the browser's `load` event of the page that reloaded by itself (the text checked);
- **cold**: the same edit in another copy, then a whole `rulebook build --no-pdf` process;
- with --baseline TREE, the cold build also by the generator of TREE (another commit's
  checkout, e.g. `git worktree add /tmp/before main`), same venv.
Two edits: Ulm's rulebook text in English only (bench/build_bench.py's edit), and one sentence
in all three languages. Each edit is undone by the next run, so every run rebuilds.

    .venv/bin/python bench/watch_bench.py [--runs 7] [--baseline TREE]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
RULES = "ulm/rules.yaml"
EDITS = {  # name: [(before, after), ...], and a text the en page shows after it
    "English text": ([("en: Make the 3 actions count", "en: Make the three actions count")], "the three actions count"),
    "text in 3 languages": ([("zh-TW: 推入前先想清楚", "zh-TW: 推入之前先想清楚"),
                             ("es: 'Piensa antes de empujar", "es: 'Piensa bien antes de empujar"),
                             ("en: 'Think before you push", "en: 'Think well before you push")], "Think well before"),
}


def toggle(content: Path, pairs: list[tuple[str, str]], forward: bool) -> None:
    path = content / RULES
    text = path.read_text(encoding="utf-8")
    for before, after in pairs:
        old, new = (before, after) if forward else (after, before)
        assert old in text, f"the bench's edit no longer applies: {old!r}"
        text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")


def rulebook(tree: Path, *args: str) -> list[str]:
    return [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(tree)!r}); from generator.cli import main; "
            f"sys.exit(main({list(args)!r}))"]


def timed(cmd: list[str]) -> tuple[float, float]:
    """Wall seconds, and CPU seconds (user + system, the build's forked workers included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def cpu_of(pid: int) -> float:
    """User + system seconds of a running process, all its threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    def __init__(self, content: Path, out: Path):
        self.proc = subprocess.Popen(
            rulebook(ROOT, "serve", "--watch", "--no-pdf", "--port", "0", "--content", str(content), "--out", str(out)),
            stderr=subprocess.PIPE, text=True)
        self.url, self.rebuilds, ready = None, [], threading.Event()

        def read():
            for line in self.proc.stderr:
                m = re.search(r"serving .* on (http://\S+/)", line)
                if m:
                    self.url = m.group(1)
                    ready.set()
                m = re.search(r"rebuilt .* in ([0-9.]+) s", line)
                if m:
                    self.rebuilds.append(float(m.group(1)))
            ready.set()

        threading.Thread(target=read, daemon=True).start()
        ready.wait(600)
        assert self.url, "serve --watch did not start"

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=60)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--baseline", type=Path, metavar="TREE", help="a checkout whose generator builds the cold baseline")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright

    load = os.getloadavg()[0]
    work = Path(tempfile.mkdtemp(prefix="rulebook-watch-bench-"))
    trees = {"cold rulebook build": ROOT} | ({"cold rulebook build, baseline": args.baseline} if args.baseline else {})
    places = {}
    for name, tree in {"watch": ROOT, **trees}.items():
        content = work / name.replace(" ", "-").replace(",", "") / "content"
        shutil.copytree(tree / "content", content)  # the content of that commit: it may not read today's
        places[name] = (tree, content, content.parent / "site")
        if name != "watch":
            subprocess.run(rulebook(tree, "build", "--no-pdf", "--content", str(content), "--out", str(content.parent / "site")),
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    results: dict[str, list[float]] = {}
    _, wcontent, wout = places["watch"]
    server = Server(wcontent, wout)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page()
            page.goto(f"{server.url}en/ulm/index.html")

            def shown(pairs, forward: bool, expect: str) -> tuple[float, float]:
                cpu = cpu_of(server.proc.pid)
                t = time.perf_counter()
                with page.expect_event("load", timeout=300_000):
                    toggle(wcontent, pairs, forward)
                took = time.perf_counter() - t
                has = expect in page.inner_text("main")
                assert has == forward, f"the reloaded page does not show the edit ({expect!r})"
                return took, cpu_of(server.proc.pid) - cpu

            for pairs, expect in EDITS.values():  # warm up: the server's first rebuild of each kind
                shown(pairs, True, expect)
                shown(pairs, False, expect)
            for run in range(args.runs):
                for edit, (pairs, expect) in EDITS.items():
                    forward = run % 2 == 0
                    wall, cpu = shown(pairs, forward, expect)
                    results.setdefault(f"watch: {edit}, page reloaded and shown", []).append(wall)
                    results.setdefault(f"watch: {edit}, the server's rebuild", []).append(server.rebuilds[-1])
                    results.setdefault(f"watch: {edit}, the server's CPU", []).append(cpu)
                    for name, (tree, content, out) in places.items():
                        if name == "watch":
                            continue
                        toggle(content, pairs, forward)
                        wall, cpu = timed(rulebook(tree, "build", "--no-pdf", "--content", str(content), "--out", str(out)))
                        results.setdefault(f"{name}: {edit}", []).append(wall)
                        results.setdefault(f"{name}: {edit}, CPU", []).append(cpu)
            browser.close()
    finally:
        server.stop()
        shutil.rmtree(work, ignore_errors=True)
    print(f"medians of {args.runs} runs by turns (load average {load:.1f} at the start, {os.getloadavg()[0]:.1f} at the end)")
    for name, times in results.items():
        print(f"  {name:62s} {statistics.median(times):6.2f} s   (min {min(times):.2f}, max {max(times):.2f})")


if __name__ == "__main__":
    main()
