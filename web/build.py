"""Build the "Play and learn" page: pepper-tutor in Pyodide, every byte served from the site.

    python web/build.py [--out build/web]

1. The Pyodide runtime from npm's ``pyodide`` package, pinned (:data:`PYODIDE`) and checked
   against its registry checksum; only the files a page needs, its lock file's package map
   emptied (it points at a CDN, and the page loads no package from it).
2. The wheels the core needs, pinned in ``web/wheels.txt``: pure ``py3-none-any`` wheels from
   PyPI, PyYAML's pure wheel built from its sdist (``PYYAML_FORCE_LIBYAML=0``), and the
   project's own wheel, built from this tree.
3. The standard library's modules a session uses compiled ahead of time, by Pyodide itself
   under node (``web/compile_stdlib.mjs``): Pyodide ships them as source.
4. The page itself (``web/static/``), and ``manifest.json``: every file the page fetches with
   its size and a content hash, so the service worker keeps what has not changed.

Downloads are cached in ``.cache/web/`` (gitignored): after the first build no network is
needed. The docs build (``docs/hooks/web.py``) copies the result into ``site/try/``.
Exit 2 with a message when a tool is missing or a download does not match its pin.
"""

from __future__ import annotations

import argparse
import base64
import gzip
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
# The game guide viewer, from the package: the same files the one-file guides inline.
GUIDE_VIEWER = tuple(ROOT / "pepper_tutor" / "data" / "guide" / name
                     for name in ("viewer.js", "viewer.css"))
CACHE = ROOT / ".cache" / "web"

# npm's pyodide: the runtime only (no package wheels), Python 3.14 inside.
PYODIDE = "314.0.8"
PYODIDE_INTEGRITY = ("sha512-74Wq1kXOC+CCEzAfxuRAO701nAcCMLjf8NrwvWpu8S41dVMXwXmLQ05dYB+F4e46Ad"
                     "nGo0oq7YHSVUpHsoarLQ==")
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
PYYAML = "6.0.3"  # built from its sdist: PyPI has no browser wheel


class BuildError(Exception):
    """A step that cannot go on, in words for the person running the build."""


def _run(cmd: list[str], what: str, env: dict[str, str] | None = None) -> None:
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    except FileNotFoundError:
        raise BuildError(f"{what}: {cmd[0]} is not installed") from None
    if done.returncode != 0:
        raise BuildError(f"{what} failed ({' '.join(cmd)}):\n{done.stderr[-2000:]}")


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def runtime(out: Path) -> Path:
    """The pinned Pyodide runtime in ``out/pyodide-VERSION/``."""
    tarball = CACHE / f"pyodide-{PYODIDE}.tgz"
    if not tarball.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError("npm is not installed: it fetches the Pyodide runtime "
                             "(apt-get install -y npm, or nodejs from nodejs.org)")
        _run([npm, "pack", f"pyodide@{PYODIDE}", "--pack-destination", str(CACHE),
              "--silent"], f"npm pack pyodide@{PYODIDE}")
    if _integrity(tarball) != PYODIDE_INTEGRITY:
        raise BuildError(f"{tarball} does not match the pinned checksum of pyodide@{PYODIDE}; "
                         "delete it and build again")
    target = out / f"pyodide-{PYODIDE}"
    target.mkdir(parents=True, exist_ok=True)
    with tarfile.open(tarball) as tar:
        for name in RUNTIME_FILES:
            member = tar.extractfile(f"package/{name}")
            if member is None:
                raise BuildError(f"pyodide@{PYODIDE} has no {name}")
            data = member.read()
            if name == "pyodide-lock.json":
                lock = json.loads(data)
                lock["packages"] = {}  # CDN addresses only; the page installs its own wheels
                data = json.dumps(lock).encode()
            (target / name).write_bytes(data)
    return target


def _pins() -> list[str]:
    lines = (WEB / "wheels.txt").read_text(encoding="utf-8").splitlines()
    return [ln.split("#")[0].strip() for ln in lines if ln.split("#")[0].strip()]


def wheels(out: Path) -> list[Path]:
    """The pinned pure wheels, PyYAML's pure wheel and the project's, in ``out/wheels/``."""
    pip = [sys.executable, "-m", "pip"]
    store = CACHE / "wheels"
    store.mkdir(parents=True, exist_ok=True)
    pins = _pins()
    have = {p.name.lower() for p in store.glob("*.whl")}

    def cached(pin: str) -> bool:
        name, version = pin.split("==")
        stem = f"{name.replace('-', '_').lower()}-{version}-"
        return any(h.startswith(stem) for h in have)

    missing = [p for p in pins if not cached(p)]
    if missing:
        _run([*pip, "download", "-q", "--no-deps", "--only-binary=:all:", "--platform", "any",
              "--python-version", "3.14", "-d", str(store), *missing],
             "downloading the pure wheels")
    if not any(h.startswith(f"pyyaml-{PYYAML}-py3-none-any") for h in have):
        env = dict(os.environ, PYYAML_FORCE_LIBYAML="0")
        _run([*pip, "wheel", "-q", "--no-deps", "--no-binary", "pyyaml", "-w", str(store),
              f"pyyaml=={PYYAML}"], "building the pure PyYAML wheel", env)
        if not (store / f"pyyaml-{PYYAML}-py3-none-any.whl").exists():
            raise BuildError("PyYAML did not build as a pure wheel (py3-none-any)")
    target = out / "wheels"
    if target.exists():
        shutil.rmtree(target)
    target.mkdir(parents=True)
    chosen = []
    for pin in [*pins, f"pyyaml=={PYYAML}"]:
        name, version = pin.split("==")
        stem = f"{name.replace('-', '_').lower()}-{version}-"
        found = [p for p in store.glob("*.whl") if p.name.lower().startswith(stem)]
        if not found or not found[0].name.endswith("-py3-none-any.whl"):
            raise BuildError(f"no pure wheel for {pin} in {store}")
        chosen.append(shutil.copy2(found[0], target / found[0].name))
    with tempfile.TemporaryDirectory() as tmp:
        _run([*pip, "wheel", "-q", "--no-deps", "-w", tmp, str(ROOT)],
             "building the pepper-tutor wheel")
        built = next(Path(tmp).glob("pepper_tutor-*.whl"))
        with zipfile.ZipFile(built) as whl:
            native = [n for n in whl.namelist() if n.endswith((".so", ".pyd"))]
        if native:
            raise BuildError(f"the pepper-tutor wheel holds compiled files {native}: the "
                             "browser runs the pure-Python search")
        chosen.append(_without_held_puzzles(built, target / built.name))
    return [Path(p) for p in chosen]


PUZZLE_BANK = "pepper_tutor/data/puzzles.json"


def _without_held_puzzles(built: Path, target: Path) -> Path:
    """The project's wheel for the page: the puzzle bank without the puzzles held back
    (``held``, kept in the file for the next mining run, never shown), which were a fifth
    of the bank, or refuted when played out (``refuted``, never shown either); its RECORD
    line rewritten to match."""
    with zipfile.ZipFile(built) as whl:
        items = [(info, whl.read(info)) for info in whl.infolist()]
    bank = json.loads(next(data for info, data in items if info.filename == PUZZLE_BANK))
    bank["held"] = []
    bank["refuted"] = []
    slim = json.dumps(bank, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    digest = base64.urlsafe_b64encode(hashlib.sha256(slim).digest()).rstrip(b"=").decode()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as out:
        for info, data in items:
            if info.filename == PUZZLE_BANK:
                data = slim
            elif info.filename.endswith(".dist-info/RECORD"):
                lines = [f"{PUZZLE_BANK},sha256={digest},{len(slim)}"
                         if line.startswith(f"{PUZZLE_BANK},") else line
                         for line in data.decode("utf-8").splitlines()]
                data = ("\n".join(lines) + "\n").encode("utf-8")
            out.writestr(info, data)
    return target


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def compiled_stdlib(runtime_dir: Path, wheel_dir: Path) -> bool:
    """Replace the runtime's standard library (source only) with one whose modules a
    session uses are compiled (``web/compile_stdlib.mjs``, run by node in Pyodide itself):
    a start then compiles none of them. Cached by the runtime's version and the script; the
    stock library stays where node is missing (slower starts, the same page)."""
    script = WEB / "compile_stdlib.mjs"
    key = hashlib.sha256(script.read_bytes()).hexdigest()[:12]
    cached = CACHE / f"python_stdlib-{PYODIDE}-{key}.zip"
    if not cached.exists():
        node = shutil.which("node")
        if node is None:
            print("web/build.py: node is not installed: the standard library stays source "
                  "(each start compiles it)", file=sys.stderr)
            return False
        _run([node, str(script), str(runtime_dir), str(wheel_dir), str(cached)],
             "compiling the standard library")
    shutil.copy2(cached, runtime_dir / "python_stdlib.zip")
    return True


def precomposed(out: Path) -> Path:
    """The package's own lessons and hand records composed ahead of time (the browser's
    pure-Python PyYAML would take seconds over them at every start)."""
    sys.path.insert(0, str(ROOT))
    from pepper_tutor.files.yamlpos import precompose

    sources = sorted((ROOT / "lessons").glob("*.yaml")) + sorted(
        (ROOT / "pepper_tutor" / "data" / "hands").glob("*.yaml"))
    target = out / "precomposed.bin"
    target.write_bytes(precompose(sources))
    return target


def first_visit_mb(files: list[Path]) -> str:
    """The gzipped size of ``files`` in whole megabytes, as the pages say it ("10")."""
    size = sum(len(gzip.compress(p.read_bytes(), 6)) for p in files if p.is_file())
    return str(max(1, round(size / 1e6)))


def page(out: Path, runtime_dir: Path, wheel_files: list[Path],
         composed: Path) -> dict[str, object]:
    """The page's own files, and the manifest the worker and the service worker read."""
    for item in (WEB / "static").iterdir():
        if item.is_file():
            shutil.copy2(item, out / item.name)
    for item in GUIDE_VIEWER:  # the game guide page (guide.html) shows hands with them
        shutil.copy2(item, out / item.name)
    for name in ("worker.js", "sw.js"):  # both name the runtime's versioned folder
        text = (out / name).read_text(encoding="utf-8")
        (out / name).write_text(text.replace("__PYODIDE__", runtime_dir.name), encoding="utf-8")
    # The one figure every page gives for the first visit's download, measured here: the
    # files a first visit fetches and keeps, gzipped as a static host serves them.
    kept = [*runtime_dir.iterdir(), *wheel_files, composed,
            *(out / p.name for p in (WEB / "static").iterdir() if p.is_file())]
    download_mb = first_visit_mb(kept)
    for name in ("index.html", "guide.html"):
        if (out / name).exists():
            text = (out / name).read_text(encoding="utf-8")
            (out / name).write_text(text.replace("__DOWNLOAD_MB__", download_mb),
                                    encoding="utf-8")
    files = {f"{runtime_dir.name}/{p.name}": p.stat().st_size for p in runtime_dir.iterdir()}
    manifest: dict[str, object] = {
        "pyodide": f"{runtime_dir.name}/",
        "wheels": [{"url": f"wheels/{p.name}?v={_digest(p)}", "name": p.name,
                    "size": p.stat().st_size} for p in wheel_files],
        "runtime": files,
        "precomposed": f"{composed.name}?v={_digest(composed)}",
        "shell": sorted([p.name for p in (WEB / "static").iterdir() if p.is_file()]
                        + [p.name for p in GUIDE_VIEWER]),
        "download_mb": download_mb,
    }
    manifest["build"] = hashlib.sha256(json.dumps(manifest, sort_keys=True).encode()
                                       ).hexdigest()[:16]
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def build(out: Path) -> dict[str, object]:
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("pyodide-*"):  # an earlier build's runtime folder
        shutil.rmtree(old)
    runtime_dir = runtime(out)
    wheel_files = wheels(out)
    compiled_stdlib(runtime_dir, out / "wheels")
    # Named by its contents: the service worker keeps a runtime folder for good, so a
    # different build of it gets a new address.
    digest = hashlib.sha256(b"".join(_digest(p).encode() for p in sorted(runtime_dir.iterdir())))
    named = runtime_dir.rename(out / f"pyodide-{PYODIDE}-{digest.hexdigest()[:8]}")
    return page(out, named, wheel_files, precomposed(out))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "web")
    args = parser.parse_args(argv)
    try:
        manifest = build(args.out)
    except BuildError as err:
        print(f"web/build.py: {err}", file=sys.stderr)
        return 2
    size = sum(p.stat().st_size for p in args.out.rglob("*") if p.is_file())
    print(f"the Play and learn page is built in {args.out} ({size / 1e6:.1f} MB, "
          f"{len(manifest['wheels'])} wheels, build {manifest['build']})")  # type: ignore[arg-type]
    return 0


if __name__ == "__main__":
    sys.exit(main())
