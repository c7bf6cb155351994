"""Packaging: the core install needs only pure-Python packages, and a front end whose extra is
missing says so in one line naming the pip command.

The core (engine, rulebook, analysis, records, teaching, render and the terminal front ends)
depends on PyYAML, rich and fsrs only. PyYAML's wheels carry an optional C speed-up; built
from its sdist it is pure Python, which is what a pure-Python platform (a browser build)
uses. The notebooks and game night are the extras ``notebook`` and ``night``.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pepper_tutor
from pepper_tutor.apps.commands import NIGHT_PACKAGES

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]

CORE = {"pyyaml", "rich", "fsrs"}  # each pure Python (PyYAML from its sdist)
CORE_PACKAGES = ["engine", "rulebook", "analysis", "records", "teaching", "render"]
TERMINAL_FRONT_ENDS = ["apps.cli", "apps.commands", "apps.tutor", "apps.table"]
# What only the extras bring (import names), and what none of the core may load.
EXTRA_MODULES = ("starlette", "uvicorn", "jinja2", "markupsafe", "segno", "ifaddr",
                 "ipywidgets", "IPython", "jupyter", "jupyterlab", "jupyter_core",
                 "jupyter_client", "ipykernel", "tornado", "zmq", "anyio", "dask",
                 "distributed")


def _name(requirement: str) -> str:
    """``"pyyaml>=6"`` -> ``"pyyaml"``; ``"pepper-tutor[notebook,night]"`` -> itself."""
    return re.split(r"[<>=!~;\s]", requirement, maxsplit=1)[0].lower()


def test_the_core_requirements_are_exactly_the_pure_ones() -> None:
    assert {_name(r) for r in PROJECT["dependencies"]} == CORE


def test_the_notebooks_and_game_night_are_extras() -> None:
    extras = {k: {_name(r) for r in v} for k, v in PROJECT["optional-dependencies"].items()}
    assert extras["notebook"] == {"ipywidgets", "jupyterlab"}
    assert extras["night"] == set(NIGHT_PACKAGES)  # the names `pepper-tutor night` looks for
    assert "pepper-tutor[notebook,night]" in extras["dev"]  # make test installs both
    assert extras["cluster"] == {"dask[distributed]"}  # batch work on a Dask cluster
    assert "pepper-tutor[cluster]" in extras["dev"]  # ... which make test runs too


# Runs in a fresh interpreter with the extras' packages hidden, as in a core-only install.
HIDE = """
import sys
HIDDEN = set(sys.argv[1].split(","))

class Hide:
    def __init__(self, finder):
        self.finder = finder

    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in HIDDEN:
            return None
        return self.finder.find_spec(name, path, target)

sys.meta_path[:] = [Hide(f) if hasattr(f, "find_spec") else f for f in sys.meta_path]
"""


def _run_hidden(code: str, hidden: tuple[str, ...] = EXTRA_MODULES
                ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", HIDE + code, ",".join(hidden)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)


def test_the_core_imports_without_any_extra_and_loads_none() -> None:
    code = f"""
import importlib, json, pkgutil
import pepper_tutor
names = []
for package in {CORE_PACKAGES!r}:
    module = importlib.import_module("pepper_tutor." + package)
    names.append(module.__name__)
    for info in pkgutil.walk_packages(module.__path__, module.__name__ + "."):
        if not info.name.endswith("__main__"):
            importlib.import_module(info.name)
            names.append(info.name)
for name in {TERMINAL_FRONT_ENDS!r}:
    importlib.import_module("pepper_tutor." + name)
print(json.dumps([names, sorted(sys.modules)]))
"""
    result = _run_hidden(code)
    assert result.returncode == 0, result.stderr
    imported, loaded = json.loads(result.stdout.strip().splitlines()[-1])
    assert {"pepper_tutor.engine.state", "pepper_tutor.render.terminal",
            "pepper_tutor.analysis.solver"} <= set(imported)
    assert len(imported) > 40
    assert not [m for m in loaded if m.partition(".")[0] in EXTRA_MODULES]


def test_the_core_imported_normally_loads_no_extra() -> None:
    # the same, with the extras installed (as in the dev environment): nothing pulls them in
    code = ("import sys, json\nimport pepper_tutor.render.terminal, pepper_tutor.apps.tutor\n"
            "import pepper_tutor.teaching, pepper_tutor.analysis.players\n"
            "import pepper_tutor.records.annotate, pepper_tutor.rulebook.verdicts\n"
            "print(json.dumps(sorted(sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, check=True, timeout=300).stdout
    loaded = json.loads(out.strip().splitlines()[-1])
    assert not [m for m in loaded if m.partition(".")[0] in
                ("starlette", "jinja2", "ipywidgets", "jupyter", "jupyterlab", "IPython")]


def test_night_without_its_extra_says_so_in_one_line_and_exits_2() -> None:
    result = _run_hidden("from pepper_tutor.apps.cli import main\n"
                         "sys.exit(main(['night', '--name', 'never-started']))",
                         hidden=("starlette", "uvicorn"))
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr  # one line, no traceback
    assert "starlette, uvicorn" in result.stderr
    assert "pip install 'pepper-tutor[night]'" in result.stderr


def test_the_notebook_without_ipywidgets_raises_import_error_naming_the_pip_command() -> None:
    result = _run_hidden("try:\n    from pepper_tutor import notebook\n"
                         "except ImportError as e:\n    print(type(e).__name__, e)\n",
                         hidden=("ipywidgets",))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("ImportError the notebook widgets need ipywidgets")
    assert "pip install 'pepper-tutor[notebook]'" in result.stdout
    assert result.stdout.count("\n") == 1


def test_the_licence_and_the_changelog_name_the_package_and_its_version() -> None:
    assert PROJECT["license"] == "MIT"
    licence = (ROOT / "LICENSE").read_text("utf-8")
    assert licence.startswith("MIT License") and "the pepper-tutor authors" in licence
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert f"## [{PROJECT['version']}]" in changelog
    assert PROJECT["version"] == pepper_tutor.__version__
