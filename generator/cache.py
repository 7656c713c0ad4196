"""What the last successful build was made from, so that a rebuild does only what changed.

A build's inputs are fingerprinted in two parts (docs/builds.md):
- *global*: everything that can change every page — the generator's code, themes and message
  catalogs, the versions of the packages that render, Python's version, content files outside
  the game folders (site.yaml), the build's options and its date (SOURCE_DATE_EPOCH);
- *per game*: every file of each game folder.
The manifest of the last successful build (beside the site, in `.<site>.cache/`) records, per
language folder of the site, the global fingerprint and the game digests that folder was built
from, and a stamp of the site it wrote (every file's name, size and mtime). When they still
match, nothing is rebuilt, not even validated: the fingerprint reads bytes, it parses nothing,
so this module imports nothing heavy. When only games changed, the build keeps Sphinx's
environment and re-renders only those games' pages; anything else is a clean build of that
language. `--lang` and `--game` narrow what is rebuilt, never what the site holds: the other
languages and games stay as they were built, and the manifest says so, so a later build
without the options brings them up to date.

The manifest is deleted when a build starts and written when it has succeeded, so a build that
failed or was killed half-way leaves no manifest, and the next build starts clean.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

VERSION = 2
_TOOL = Path(__file__).resolve().parent.parent  # the checkout: generator/, themes/, locale/
_TOOL_PARTS = ("generator", "themes", "locale")


@dataclass
class Inputs:
    global_: str
    games: dict[str, str] = field(default_factory=dict)  # game folder name -> digest


def cache_dir(out: Path) -> Path:
    out = Path(out).absolute()
    return out.parent / f".{out.name}.cache"


def _hash_tree(h, root: Path, skip=()) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__" and Path(dirpath, d) not in skip)
        for name in sorted(filenames):
            p = Path(dirpath, name)
            if p.suffix in (".pyc",):
                continue
            h.update(os.fsencode(p.relative_to(root)) + b"\0")
            try:
                h.update(p.read_bytes())
            except OSError:
                h.update(b"<unreadable>")
            h.update(b"\0")


def _metadata_folders(suffixes=(".dist-info", ".egg-info")) -> list[Path]:
    """The installed distributions' metadata folders (`Sphinx-9.0.4.dist-info`), from listing the
    package folders on sys.path: a millisecond, where importlib.metadata costs a tenth of a second."""
    found = []
    for entry in sys.path:
        if not entry.endswith(("site-packages", "dist-packages")):
            continue  # the script's or the working folder: not where packages are installed
        try:
            found += [Path(entry) / n for n in os.listdir(entry) if n.endswith(suffixes)]
        except OSError:
            continue
    return found


def _versions() -> str:
    """The installed distributions, by their metadata folders' names: an upgrade of anything that
    renders means a clean build."""
    return ";".join(sorted(p.name for p in _metadata_folders()))


def engine_sources() -> list[Path]:
    """The source folders (or files) of engine modules that other distributions install (the
    `rulebook.engines` entry points, docs/engine.md): their code decides a game's simulated
    findings as the generator's own does, and an editable install keeps its version while its
    code changes. Found from the metadata folders' entry_points.txt files and each module's
    top-level spec, without importing the module; the shipped engines live in generator/."""
    import importlib.util

    from .engine.games import GROUP
    found: set[Path] = set()
    header = f"[{GROUP}]"
    for folder in _metadata_folders((".dist-info",)):
        try:
            text = (folder / "entry_points.txt").read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if header not in text:
            continue
        for line in text.split(header, 1)[1].split("\n[", 1)[0].splitlines():
            top = line.partition("=")[2].strip().partition(":")[0].strip().split(".")[0]
            if not top or top == "generator":
                continue
            try:
                spec = importlib.util.find_spec(top)
            except (ImportError, ValueError):
                continue
            if spec is not None and spec.submodule_search_locations:
                found.update(Path(p) for p in spec.submodule_search_locations)
            elif spec is not None and spec.origin:
                found.add(Path(spec.origin))
    return sorted(found)


def game_folder_names(content: Path) -> list[Path]:
    """The game folders (as project.game_folders, without importing the schema)."""
    if not content.is_dir():
        return []
    return sorted(p for p in content.iterdir() if p.is_dir() and not p.name.startswith((".", "_")))


def build_options(pdf: bool, allow_untranslated: bool = False) -> dict:
    """The options that change what a build writes into every page. `--lang` and `--game` are
    not among them: they choose which pages are brought up to date (see `Manifest`)."""
    return {"pdf": pdf, "allow_untranslated": allow_untranslated}


def fingerprint(content: Path, options: dict, epoch: int) -> Inputs:
    content = Path(content)
    folders = game_folder_names(content)
    h = hashlib.sha256()
    h.update(f"v{VERSION}|{sys.version}|{_versions()}|{json.dumps(options, sort_keys=True)}|{epoch}".encode())
    for part in _TOOL_PARTS:
        h.update(f"|{part}|".encode())
        _hash_tree(h, _TOOL / part)
    for source in engine_sources():  # a plugin's engine, edited in place, simulates anew
        h.update(f"|engine|{source}|".encode())
        if source.is_dir():
            _hash_tree(h, source)
        else:
            try:
                h.update(source.read_bytes())
            except OSError:
                h.update(b"<unreadable>")
    h.update(b"|content|")
    if content.is_dir():
        _hash_tree(h, content, skip=set(folders))
    games = {}
    for folder in folders:
        g = hashlib.sha256()
        _hash_tree(g, folder)
        games[folder.name] = g.hexdigest()
    return Inputs(h.hexdigest(), games)


def site_stamp(out: Path) -> str | None:
    """Every file of the site by name, size and mtime: a site changed by hand is rebuilt."""
    if not Path(out).is_dir():
        return None
    h = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(out):
        dirnames.sort()
        for name in sorted(filenames):
            p = Path(dirpath, name)
            st = p.lstat()
            h.update(f"{p.relative_to(out)}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()


@dataclass
class Built:
    """What one language folder of the site was built from."""

    global_: str
    games: dict[str, str] = field(default_factory=dict)  # game -> digest of the files its pages show


@dataclass
class Manifest:
    languages: dict[str, Built]  # language tag (lower case) -> what its folder was built from
    site: str
    diagnostics: list[dict] = field(default_factory=list)  # warnings of the build, shown again
    site_languages: list[str] = field(default_factory=list)  # every language of site.yaml (lower case)

    def plan(self, inputs: Inputs, tag: str, games: list[str] | None = None) -> set[str] | None:
        """The games whose pages in language `tag` must be made again to match `inputs`
        (of `games` only, when given), or None when the language needs a clean build."""
        built = self.languages.get(tag.lower())
        if built is None or built.global_ != inputs.global_ or set(built.games) != set(inputs.games):
            return None
        return {g for g, digest in inputs.games.items()
                if built.games.get(g) != digest and (not games or g in games)}


def _manifest_path(out: Path) -> Path:
    return cache_dir(out) / "manifest.json"


def read_manifest(out: Path) -> Manifest | None:
    try:
        raw = json.loads(_manifest_path(out).read_text(encoding="utf-8"))
        if raw.get("version") != VERSION:
            return None
        langs = {tag: Built(b["global"], dict(b["games"])) for tag, b in raw["languages"].items()}
        return Manifest(langs, raw["site"], list(raw.get("diagnostics", [])), list(raw["site_languages"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def write_manifest(out: Path, languages: dict[str, Built], diagnostics: list, site_languages: list[str]) -> None:
    path = _manifest_path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = {"version": VERSION, "site_languages": sorted(t.lower() for t in site_languages),
            "languages": {tag: {"global": b.global_, "games": b.games} for tag, b in sorted(languages.items())},
            "site": site_stamp(out), "diagnostics": [_plain(d) for d in diagnostics]}
    tmp = path.with_name(f"manifest.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
    os.replace(tmp, path)


def forget(out: Path) -> None:
    """A build is under way: until it succeeds, the cache describes no site."""
    try:
        _manifest_path(out).unlink()
    except FileNotFoundError:
        pass


def usable(out: Path) -> Manifest | None:
    """The manifest, when the site in `out` is still the one it describes; else None."""
    m = read_manifest(out)
    return m if m is not None and site_stamp(out) == m.site else None


def languages_of(out: Path) -> list[str]:
    """The language folders of the built site, as the manifest names them (lower case)."""
    m = read_manifest(out)
    return sorted(m.languages) if m else []


def up_to_date(out: Path, inputs: Inputs, langs: list[str] | None = None,
               games: list[str] | None = None) -> Manifest | None:
    """The manifest, when the pages asked for (the languages `langs` and games `games`; None:
    every language the site has and every game) are exactly what these inputs build; else
    None. Without `langs`, every language of the last build must have been built with these
    very global inputs (they include site.yaml, which lists the languages)."""
    m = usable(out)
    if m is None or not m.languages:
        return None
    tags = [t.lower() for t in langs] if langs else m.site_languages
    for tag in tags:
        if m.plan(inputs, tag, games) != set():
            return None
    return m


def _plain(d) -> dict:
    data = asdict(d)
    data["severity"] = d.severity.value
    return data


def _diagnostic(data: dict):
    """A Diagnostic back from its `_plain` form."""
    from .diagnostics import Diagnostic, Severity
    return Diagnostic(**{**data, "severity": Severity(data["severity"])})


def diagnostics_of(m: Manifest) -> list:
    return [_diagnostic(d) for d in m.diagnostics]


FALLBACK_EPOCH = 946684800  # 2000-01-01T00:00:00Z: content that is not a git checkout


def source_date_epoch(content: Path | None) -> int:
    """The build's date: $SOURCE_DATE_EPOCH, else the last commit that touched the content
    folder, else FALLBACK_EPOCH. Never the clock, so two builds of one commit are identical."""
    env = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if env.isdigit():
        return int(env)
    if content is not None:
        try:
            done = subprocess.run(["git", "log", "-1", "--format=%ct", "--", "."], cwd=str(content),
                                  capture_output=True, text=True, timeout=30)
            if done.returncode == 0 and done.stdout.strip().isdigit():
                return int(done.stdout.strip())
        except (OSError, subprocess.SubprocessError):
            pass
    return FALLBACK_EPOCH


def without_texts(data, languages: set[str]):
    """A game's data (as JSON values) with every text — a mapping of the site's language tags to
    strings — replaced by a mark."""
    if isinstance(data, dict):
        if data and set(data) <= languages and all(isinstance(v, str) for v in data.values()):
            return "<text>"
        return {k: without_texts(v, languages) for k, v in data.items()}
    if isinstance(data, list):
        return [without_texts(v, languages) for v in data]
    return data


class SimulationMemo:
    """The simulation's findings per game, kept beside the site: a rebuild after a change to one
    game plays only that game again. A game's entry is valid for the same global fingerprint
    (the engine is part of the generator's code) and the same game files; the simulation is
    seeded, so the same inputs give the same findings."""

    def __init__(self, out: Path, inputs: Inputs):
        self.path = cache_dir(out) / "simulation.json"
        self.inputs = inputs
        try:
            self.entries = json.loads(self.path.read_text(encoding="utf-8"))
            if not isinstance(self.entries, dict):
                self.entries = {}
        except (OSError, ValueError):
            self.entries = {}

    def _key(self, game: str) -> str:
        return f"{self.inputs.global_}/{self.inputs.games.get(game, '')}"

    def _engine_key(self, doc, languages) -> str | None:
        """What the simulation reads of a game: its model without the texts (every mapping of
        the site's language tags to strings). A text edit leaves it alone."""
        if doc is None:
            return None
        data = json.dumps(without_texts(doc.model.model_dump(mode="json"), set(languages)), sort_keys=True, ensure_ascii=False)
        return f"{self.inputs.global_}/{hashlib.sha256(data.encode()).hexdigest()}"

    def get(self, game: str, doc=None, languages=()):
        """(diagnostics, facts) of the game's last simulation with these inputs, or None. With
        the game's `doc`, also when only its texts changed since, if that simulation found
        nothing (a finding points at lines, which a text edit may have moved)."""
        entry = self.entries.get(game)
        if not isinstance(entry, dict):
            return None
        if entry.get("key") != self._key(game) and (
                entry.get("diagnostics") or entry.get("engine") is None or entry.get("engine") != self._engine_key(doc, languages)):
            return None
        try:
            from .check.simulate import Facts
            diags = [_diagnostic(d) for d in entry["diagnostics"]]
            facts = {(players, mode): Facts(f["games"], list(f["turns"]), Counter(f["ran_out"]), Counter(f["ran_dry"]))
                     for players, mode, f in entry["facts"]}
        except (KeyError, TypeError, ValueError):
            return None
        return diags, facts

    def put(self, game: str, diags: list, facts: dict, doc=None, languages=()) -> None:
        self.entries[game] = {
            "key": self._key(game), "engine": self._engine_key(doc, languages), "diagnostics": [_plain(d) for d in diags],
            "facts": [[players, mode, {"games": f.games, "turns": f.turns, "ran_out": dict(f.ran_out),
                                       "ran_dry": dict(f.ran_dry)}] for (players, mode), f in facts.items()]}

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(f"simulation.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(self.entries, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.path)
