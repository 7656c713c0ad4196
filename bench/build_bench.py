"""Build speed, measured against plain `sphinx-build` of the same generated pages.

Prints medians of several interleaved runs (the machine's noise hits all alike) and the ratios
the hardening-and-speed issue sets goals for:

- a clean `rulebook build --no-pdf` of every game and language (validation included) against
  plain `sphinx-build -E` of the very same MyST pages (`basic` theme, no extension), one
  language after another;
- a rebuild with nothing changed, and a rebuild after one game's text changed;
- a clean build of zh-TW against one of es (only the HTML: `build_site` for one language on an
  already validated project, so validation does not hide the difference).

    .venv/bin/python bench/build_bench.py [--runs 5]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from generator.build import build_site  # noqa: E402
from generator.cli import validate  # noqa: E402
from generator.i18n import babel_locale, url_segment  # noqa: E402
from generator.render import render_language  # noqa: E402

BIN = Path(sys.executable).parent
GAME_EDIT = ("ulm/rules.yaml", "en: Make the 3 actions count", "en: Make the three actions count")


def timed(cmd: list[str], cwd: Path = ROOT) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rulebook-bench-"))
    content = work / "content"
    shutil.copytree(ROOT / "content", content)
    project, _ = validate(content, None)
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
    site = work / "site" / "site"
    ours = [str(BIN / "rulebook"), "build", "--no-pdf", "--content", str(content), "--out", str(site)]
    edited = content / GAME_EDIT[0]
    texts = [edited.read_text(encoding="utf-8")]
    texts.append(texts[0].replace(GAME_EDIT[1], GAME_EDIT[2], 1))
    assert texts[1] != texts[0], "the bench's edit no longer applies to content/ulm"

    results: dict[str, list[float]] = {}

    def note(name: str, seconds: float) -> None:
        results.setdefault(name, []).append(seconds)

    for _ in range(args.runs):
        shutil.rmtree(site.parent, ignore_errors=True)
        note("rulebook build, clean (validation + 3 languages)", timed(ours))
        note("rulebook build, nothing changed", timed(ours))
        edited.write_text(texts[1], encoding="utf-8")
        note("rulebook build, one game's text changed", timed(ours))
        edited.write_text(texts[0], encoding="utf-8")
        total = 0.0
        for lang, cmd in plain.items():
            t = timed(cmd)
            note(f"plain sphinx-build {lang}", t)
            total += t
        note("plain sphinx-build, the languages one after another", total)
        for lang in ("zh-TW", "es"):
            out = work / f"one-{lang}" / "site"
            shutil.rmtree(out.parent, ignore_errors=True)
            t = time.perf_counter()
            assert build_site(project, out, langs=[lang], pdf=False) == []
            note(f"build_site {lang} only, clean (HTML, validated project)", time.perf_counter() - t)

    med = {name: statistics.median(times) for name, times in results.items()}
    print(f"median of {args.runs} interleaved runs, {len(project.games)} games, {len(sources)} languages")
    for name, times in results.items():
        print(f"  {name:58s} {med[name]:6.2f} s   (min {min(times):.2f}, max {max(times):.2f})")
    print("ratios (of medians):")
    print(f"  clean rulebook build / plain sphinx-build one after another: "
          f"{med['rulebook build, clean (validation + 3 languages)'] / med['plain sphinx-build, the languages one after another']:.2f}")
    print(f"  zh-TW / es (build_site, one language): "
          f"{med['build_site zh-TW only, clean (HTML, validated project)'] / med['build_site es only, clean (HTML, validated project)']:.2f}")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
