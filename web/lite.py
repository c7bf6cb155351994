"""Build the notebooks' JupyterLite site: the very notebooks, run in the browser, offline.

    python web/lite.py [--out build/lite]

The JupyterLite tools (``jupyterlite-core``, ``jupyterlite-pyodide-kernel`` and its lock add-on,
pinned in ``web/lite/tools.txt``) need Python 3.12 or newer, which the project's own venv may
not be: this script finds one (:func:`find_python`), names it, and installs the tools in a venv
of their own under ``.cache/lite/venv`` (gitignored). Then:

1. the same pinned Pyodide runtime from npm as the Play and learn page, its standard library
   compiled the same way (``web/build.py``), in ``static/pyodide/`` with the lock file's package
   map emptied (it points at a CDN);
2. the same pure wheels and the project's own (``web/build.py``), from which the lock add-on
   writes the kernel's own lock with every package served by the site; the versions it takes
   are pinned in ``web/lite/constraints.txt``; the server-only packages (game night's) left out;
3. ``notebooks/*.ipynb`` as the site's files, and ``web/lite/jupyter-lite.json`` (settings).

Exit 2 with a message when a tool is missing or a step fails. The docs build
(``docs/hooks/web.py``) copies the result into ``site/lite/``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]
WEB = ROOT / "web"
LITE = WEB / "lite"
CACHE = ROOT / ".cache" / "lite"
NEEDED = (3, 12)  # the lock add-on's own requirement
# Where the Python of these machines lives besides PATH; PEPPER_LITE_PYTHON names one outright.
PYENV_ROOTS = (Path.home() / ".pyenv" / "versions", Path("/opt/pyenv/versions"))


def _web_build() -> ModuleType:
    """``web/build.py``, which is a script, not a package: its runtime and wheel steps."""
    spec = importlib.util.spec_from_file_location("pepper_web_build", WEB / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


web_build = _web_build()
BuildError = web_build.BuildError


def _version(python: Path) -> tuple[int, int] | None:
    try:
        done = subprocess.run([str(python), "-c", "import sys; print(*sys.version_info[:2])"],
                              capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = done.stdout.split()
    return (int(parts[0]), int(parts[1])) if done.returncode == 0 and len(parts) == 2 else None


def _candidates() -> list[Path]:
    named = os.environ.get("PEPPER_LITE_PYTHON")
    if named:
        return [Path(named)]
    found: list[Path] = []
    for minor in range(20, NEEDED[1] - 1, -1):
        on_path = shutil.which(f"python3.{minor}")
        if on_path:
            found.append(Path(on_path))
    for base in PYENV_ROOTS:
        if base.is_dir():
            versions = [p for p in base.iterdir() if re.fullmatch(r"3\.\d+\.\d+", p.name)]
            versions.sort(key=lambda p: tuple(int(x) for x in p.name.split(".")), reverse=True)
            found += [p / "bin" / "python3" for p in versions]
    python3 = shutil.which("python3")
    if python3:
        found.append(Path(python3))
    return found


def find_python() -> Path:
    """The newest Python 3.12+ at hand: ``$PEPPER_LITE_PYTHON``, ``python3.N`` on PATH, then
    pyenv's versions; a :class:`BuildError` that says where it looked when there is none."""
    for python in _candidates():
        version = _version(python)
        if version is not None and version >= NEEDED:
            return python
    looked = os.environ.get("PEPPER_LITE_PYTHON") or (
        "python3.12+ on PATH, " + ", ".join(str(b) for b in PYENV_ROOTS) + ", python3")
    raise BuildError(
        f"the JupyterLite tools need Python {NEEDED[0]}.{NEEDED[1]} or newer, and none was "
        f"found (looked at: {looked}). Install one (for example `pyenv install 3.12`) or "
        "name it with PEPPER_LITE_PYTHON=/path/to/python3.12")


def tools(python: Path) -> Path:
    """``.cache/lite/venv`` with the pinned JupyterLite tools; made again when the pins or
    the Python change. Returns its ``jupyter`` command."""
    venv = CACHE / "venv"
    pins = (LITE / "tools.txt").read_text(encoding="utf-8")
    stamp = venv / ".pepper-tools"
    want = f"{python.resolve()}\n{pins}"
    if stamp.exists() and stamp.read_text(encoding="utf-8") == want:
        return venv / "bin" / "jupyter"
    if venv.exists():
        shutil.rmtree(venv)
    web_build._run([str(python), "-m", "venv", str(venv)], f"making a venv with {python}")
    web_build._run([str(venv / "bin" / "python"), "-m", "pip", "install", "-q", "-r",
                    str(LITE / "tools.txt")], "installing the JupyterLite tools")
    stamp.write_text(want, encoding="utf-8")
    return venv / "bin" / "jupyter"


def stage(src: Path) -> None:
    """The lite folder ``jupyter lite build`` reads: runtime, wheels, notebooks, settings."""
    for old in ("static", "wheels", "files"):
        if (src / old).exists():
            shutil.rmtree(src / old)
    # web/build.py makes the runtime in a folder of its own; JupyterLite wants static/pyodide/.
    made = web_build.runtime(src / "static")
    wheel_files = web_build.wheels(src)
    web_build.compiled_stdlib(made, src / "wheels")
    made.rename(src / "static" / "pyodide")
    (src / "files").mkdir()
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        shutil.copy2(nb, src / "files" / nb.name)
    for name in ("jupyter_lite_config.json", "jupyter-lite.json", "constraints.txt"):
        shutil.copy2(LITE / name, src / name)
    if not wheel_files:
        raise BuildError("no wheels to put in the lite site")


def build(out: Path) -> Path:
    python = find_python()
    print(f"web/lite.py: the JupyterLite tools run on {python}", file=sys.stderr)
    jupyter = tools(python)
    src = CACHE / "src"  # kept: the lock add-on caches its downloads in src/.cache/
    src.mkdir(parents=True, exist_ok=True)
    stage(src)
    if out.exists():
        shutil.rmtree(out)
    # The build's task record would skip the steps that patch the settings into a new output
    # folder as already done; the lock add-on's download cache (src/.cache/) is what is kept.
    for record in src.glob(".jupyterlite.doit.db*"):
        record.unlink()
    # The lock add-on's uv would try to download a CPython of the kernel's version to solve
    # with; it solves for pure wheels, so the local Python does.
    env = dict(os.environ, UV_PYTHON_DOWNLOADS="never")
    done = subprocess.run([str(jupyter), "lite", "build", "--lite-dir", str(src),
                           "--output-dir", str(out.resolve())],
                          cwd=src, env=env, capture_output=True, text=True, check=False)
    if done.returncode != 0 or not (out / "jupyter-lite.json").exists():
        raise BuildError(f"jupyter lite build failed:\n{(done.stdout + done.stderr)[-3000:]}")
    _check_offline(out)
    return out


def _check_offline(out: Path) -> None:
    """The runtime and every package the kernel may install are served by the site itself
    (without the settings the kernel's own defaults point at a CDN)."""
    config = json.loads((out / "jupyter-lite.json").read_text(encoding="utf-8"))
    settings = config["jupyter-config-data"]["litePluginSettings"][
        "@jupyterlite/pyodide-kernel-extension:kernel"]
    runtime = settings.get("pyodideUrl", "")
    if "://" in runtime or not (out / runtime).is_file():
        raise BuildError(f"the kernel would load Pyodide from {runtime or 'a CDN'}")
    lock_url = settings["loadPyodideOptions"]["lockFileURL"]
    lock = json.loads((out / lock_url).read_text(encoding="utf-8"))
    remote = [p["file_name"] for p in lock["packages"].values()
              if "://" in p["file_name"]]
    if remote:
        raise BuildError(f"the kernel's lock points off the site: {remote[:5]}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "lite")
    parser.add_argument("--which-python", action="store_true",
                        help="only say which Python the tools would run on")
    args = parser.parse_args(argv)
    try:
        if args.which_python:
            print(find_python())
            return 0
        out = build(args.out)
    except BuildError as err:
        print(f"web/lite.py: {err}", file=sys.stderr)
        return 2
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"the notebooks' JupyterLite site is built in {out} ({size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
