"""The command line: exit codes, output formats, and no heavy imports for --help and validate."""

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET

from conftest import FIXTURES, ROOT, edit

RULEBOOK = [sys.executable, "-m", "generator.cli"]


def cli(*args, cwd=ROOT):
    return subprocess.run(RULEBOOK + list(args), cwd=cwd, capture_output=True, text=True, timeout=120)


def test_validate_clean_content_exits_0(good_content):
    r = cli("validate", "--content", str(good_content))
    assert r.returncode == 0, r.stderr
    assert "no errors" in r.stderr


def test_validate_reports_like_a_compiler_and_exits_1(good_content):
    edit(good_content / "tiny/game.yaml", "per_colour: 2", "per_colour: 3")
    r = cli("validate", "--content", str(good_content))
    assert r.returncode == 1
    line = r.stderr.strip().splitlines()[0]
    assert line.endswith("(hint: correct per_colour, count or the game's colours)")
    assert "tiny/game.yaml:25:17: error RB301: 'pawn': 3 per colour × 3 colours = 9, not 6" in line
    assert "Traceback" not in r.stderr


def test_content_before_the_command_is_the_folder_checked(good_content):
    """`rulebook --content DIR validate` once checked ./content and said "no errors" for a
    folder full of them: the option counts before the command as after it."""
    edit(good_content / "tiny/game.yaml", "per_colour: 2", "per_colour: 3")
    before = cli("--content", str(good_content), "validate", "--no-sim")
    after = cli("validate", "--no-sim", "--content", str(good_content))
    assert before.returncode == after.returncode == 1
    assert "RB301" in before.stderr and before.stderr == after.stderr
    edit(good_content / "tiny/game.yaml", "per_colour: 3", "per_colour: 2")
    ok = cli("--content", str(good_content), "validate", "--no-sim")
    assert ok.returncode == 0
    assert f"1 game of {good_content}/ checked, no errors" in ok.stderr  # says which folder


def test_a_missing_content_folder_is_named_as_given(tmp_path):
    """RB004 once said "content/site.yaml is missing" whatever folder --content named."""
    r = cli("--content", str(tmp_path / "nowhere"), "validate", "--no-sim")
    assert r.returncode == 1
    assert f"{tmp_path / 'nowhere' / 'site.yaml'} is missing: there is no folder {tmp_path / 'nowhere'}" in r.stderr
    assert "content/site.yaml" not in r.stderr and "Traceback" not in r.stderr


def test_diagnostic_paths_open_from_the_working_folder(good_content, tmp_path):
    """With --content outside the working folder, files were named relative to the content's
    parent ("content/tiny/game.yaml"), so a CI annotation or an editor opened the wrong file."""
    edit(good_content / "tiny/game.yaml", "per_colour: 2", "per_colour: 3")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    r = cli("validate", "--no-sim", "--content", str(good_content), "--format", "json", cwd=elsewhere)
    rows = json.loads(r.stdout)
    assert rows and all((elsewhere / row["file"]).resolve() == (good_content / "tiny/game.yaml").resolve() for row in rows)


def test_usage_errors_exit_2():
    assert cli("validate", "--format", "yaml").returncode == 2
    assert cli("frobnicate").returncode == 2
    assert cli().returncode == 2


def test_json_format(good_content):
    edit(good_content / "tiny/game.yaml", "per_colour: 2", "per_colour: 3")
    r = cli("validate", "--content", str(good_content), "--format", "json")
    rows = json.loads(r.stdout)
    assert [(x["code"], x["line"], x["column"], x["slug"]) for x in rows] == [("RB301", 25, 17, "per-colour-count")]


def test_junit_format_is_xml_with_a_failure(good_content):
    edit(good_content / "tiny/game.yaml", "per_colour: 2", "per_colour: 3")
    r = cli("validate", "--content", str(good_content), "--format", "junit")
    suite = ET.fromstring(r.stdout)
    assert suite.get("failures") == "1"
    assert suite.find("testcase/failure").get("type") == "RB301"


def test_github_format_escapes_content(good_content):
    # a newline and '::' in content must not start a second workflow command
    edit(good_content / "tiny/game.yaml", "per_colour: 2", "per_colour: 3")
    r = cli("validate", "--content", str(good_content), "--format", "github")
    out = r.stdout.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("::error file=")
    assert ",line=25,col=17," in out[0]
    from generator.diagnostics import Diagnostic, format_github
    s = format_github([Diagnostic("RB100", "bad\n::error::pwned", "a,b:c.yaml", 1, 2)])
    assert s.count("\n") == 0 and "%0A::error" in s and "file=a%2Cb%3Ac.yaml" in s


def test_help_and_validate_do_not_import_sphinx_or_playwright(good_content):
    code = (
        "import sys; from generator import cli\n"
        "try:\n    cli.main(['--help'])\nexcept SystemExit:\n    pass\n"
        f"cli.main(['validate', '--content', {str(good_content)!r}])\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('sphinx', 'playwright', 'myst_parser', 'jinja2')]\n"
        "print('HEAVY', bad)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "HEAVY []" in r.stdout, r.stdout + r.stderr


def test_schema_is_json_schema_and_matches_the_committed_copy():
    r = cli("schema")
    schema = json.loads(r.stdout)
    assert schema["$schema"].endswith("2020-12/schema")
    assert "components" in schema["properties"] and "required" not in schema
    assert (ROOT / "docs/schema/game.schema.json").read_text() == r.stdout, "run `make docs`"
    assert (ROOT / "docs/schema/site.schema.json").read_text() == cli("schema", "--site").stdout


def test_build_with_errors_writes_nothing(good_content, tmp_path):
    edit(good_content / "tiny/game.yaml", "per_colour: 2", "per_colour: 3")
    out = tmp_path / "site"
    r = cli("build", "--content", str(good_content), "--out", str(out))
    assert r.returncode == 1 and "RB301" in r.stderr
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site")] == []


def test_allow_untranslated_builds_with_a_marked_fallback(good_content, tmp_path):
    edit(good_content / "tiny/game.yaml", "name: {zh-TW: 小遊戲, es: Juego pequeño, en: Tiny game}",
         "name: {zh-TW: 小遊戲, es: Juego pequeño}")
    assert cli("validate", "--content", str(good_content)).returncode == 1
    r = cli("validate", "--content", str(good_content), "--allow-untranslated")
    assert r.returncode == 0 and "warning RB400" in r.stderr
    out = tmp_path / "site"
    r = cli("build", "--content", str(good_content), "--out", str(out), "--lang", "en", "--allow-untranslated")
    assert r.returncode == 0, r.stderr
    html = (out / "en/tiny/index.html").read_text(encoding="utf-8")
    assert "<em>[zh-TW]</em> 小遊戲" in html


def test_serve_answers_on_localhost(good_content, tmp_path):
    import socket
    import time
    import urllib.request
    out = tmp_path / "site"
    assert cli("build", "--content", str(good_content), "--out", str(out), "--lang", "en").returncode == 0
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen(RULEBOOK + ["serve", "--no-build", "--out", str(out), "--port", str(port)], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(50):
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/en/tiny/index.html", timeout=2).read()
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("the server did not answer")
        assert b"Tiny game" in body
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_help_states_the_default_number_of_simulated_games():
    from generator import cli
    from generator.check.simulate import DEFAULT_SEEDS
    assert cli._DEFAULT_SEEDS == DEFAULT_SEEDS


def test_a_reader_that_goes_away_is_no_internal_error(good_content):
    """`rulebook validate --format junit | head -1`: the pipe closes before the report is out."""
    proc = subprocess.Popen([sys.executable, "-m", "generator.cli", "validate", "--content", str(good_content),
                             "--format", "junit", "--no-sim"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    proc.stdout.close()  # nobody reads
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141
    assert "internal error" not in err and "Traceback" not in err and "Exception ignored" not in err, err


def test_the_validate_command_freezes_what_it_read_before_exiting_and_main_called_with_arguments_never_does():
    """The command's process skips the exit-time collection over the project it read; a program
    (or a test) calling main([...]) goes on running, and must find the collector as it was."""
    import gc

    from generator.cli import main
    good = str(FIXTURES / "good")
    code = ("import gc, sys; from generator.cli import main; sys.argv = ['rulebook', 'validate', '--no-sim', "
            f"'--content', {good!r}]; rc = main(); print(rc, gc.get_freeze_count() > 0)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["0", "True"]
    before = gc.get_freeze_count()
    assert main(["validate", "--no-sim", "--content", good]) == 0
    assert gc.get_freeze_count() == before
