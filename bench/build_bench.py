"""Build speed: `rulebook build` against plain `sphinx-build` of the same generated pages.

Prints the median of several runs of each, measured interleaved in one run of this script so
that the machine's noise hits both alike, and their ratio. Usage:
    .venv/bin/python bench/build_bench.py [--runs 5]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.cli import validate  # noqa: E402
from generator.i18n import babel_locale, url_segment  # noqa: E402
from generator.render import render_language  # noqa: E402

BIN = Path(sys.executable).parent


def timed(cmd: list[str], cwd: Path = ROOT) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    project, diags = validate(ROOT / "content", None)
    work = Path(tempfile.mkdtemp(prefix="rulebook-bench-"))
    sources = {}
    for lang in project.languages:
        src = work / "src" / url_segment(lang)
        render_language(project, lang, src)
        (src / "conf.py").write_text(
            f"extensions = ['myst_parser']\nlanguage = {babel_locale(lang)!r}\n"
            "myst_enable_extensions = ['attrs_block']\nhtml_theme = 'basic'\n", encoding="utf-8")
        sources[lang] = src
    plain = {lang: [str(BIN / "sphinx-build"), "-q", "-E", "-b", "html", str(src), str(work / "plain" / url_segment(lang))]
             for lang, src in sources.items()}
    ours = [str(BIN / "rulebook"), "build", "--no-pdf", "--out", str(work / "site")]
    results: dict[str, list[float]] = {"rulebook build (all languages)": []}
    for lang in sources:
        results[f"sphinx-build {lang}"] = []
    results["sphinx-build, languages one after another"] = []
    for _ in range(args.runs):
        results["rulebook build (all languages)"].append(timed(ours))
        total = 0.0
        for lang, cmd in plain.items():
            t = timed(cmd)
            results[f"sphinx-build {lang}"].append(t)
            total += t
        results["sphinx-build, languages one after another"].append(total)
    print(f"median of {args.runs} interleaved runs, {len(project.games)} game(s), {len(sources)} languages")
    for name, times in results.items():
        print(f"  {name:45s} {statistics.median(times):6.2f} s   (min {min(times):.2f}, max {max(times):.2f})")
    ours_m = statistics.median(results["rulebook build (all languages)"])
    plain_m = statistics.median(results["sphinx-build, languages one after another"])
    zh = statistics.median(results["sphinx-build zh-TW"]) if "sphinx-build zh-TW" in results else None
    es = statistics.median(results["sphinx-build es"]) if "sphinx-build es" in results else None
    print(f"  ratio rulebook build / plain sphinx-build: {ours_m / plain_m:.2f}")
    if zh and es:
        print(f"  ratio plain zh-TW / es: {zh / es:.2f}")


if __name__ == "__main__":
    main()
