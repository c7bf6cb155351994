"""The built searches: the native one in C, the mypyc one, and which the solver runs.

:mod:`pepper_tutor.analysis.search` is pure Python and always works (in the browser too);
it is the oracle every build is checked against. Where a C compiler is at hand, ``make``
(or ``python -m pepper_tutor.analysis.native build``) also builds, beside this module:

- ``_search_native*.so``: the search written for the machine in C (``_search_native.c``:
  bit boards, a C transposition table, the same bounds and move order), compiled with the
  machine's ``cc`` and Python's own headers, nothing downloaded;
- ``_search_compiled*.so``: the pure search compiled with mypyc, the compiler that ships
  with mypy (the same code, about twice as fast as pure Python).

:func:`search_module` picks the first of native, compiled and pure that is up to date: each
build carries a digest of the files it was built from (the C source and the Python it reads;
the search and the modules whose types mypyc compiles in) and is used only while that digest
matches the files on disk, so an edit is never shadowed by a stale build: until the next
build a slower search runs. Set ``PEPPER_TUTOR_PURE_SEARCH=1`` to run the pure search
whatever is built. ``python -m pepper_tutor.analysis.native status`` says which runs.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shlex
import shutil
import sys
import sysconfig
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import ModuleType

__all__ = ["COMPILED_NAME", "NATIVE_NAME", "PURE_ENV", "SAMPLER_NAME", "build",
           "compiled_module", "is_compiled", "native_digest", "native_module", "sampler_digest",
           "sampler_module", "search_module", "source_digest", "which"]

COMPILED_NAME = "_search_compiled"
NATIVE_NAME = "_search_native"
SAMPLER_NAME = "_sampling_native"
PURE_ENV = "PEPPER_TUTOR_PURE_SEARCH"

_HERE = Path(__file__).resolve().parent
_PACKAGE = _HERE.parent  # pepper_tutor/
_POSITION = _HERE / "position.py"
_RANKING = _PACKAGE / "engine" / "ranking.py"
# The search, and the modules whose types mypyc compiles into it.
_SOURCES = (_HERE / "search.py", _POSITION, _RANKING)
# The C search, the position it reads and the ranking tables it loads when imported.
_NATIVE_SOURCES = (_HERE / f"{NATIVE_NAME}.c", _POSITION, _RANKING)
# The C sampling loop and the Python it mirrors, bit for bit: an edit to the dealing, the
# calling model or the loop makes the build stale, and the Python path runs.
_SAMPLER_SOURCES = (_HERE / f"{SAMPLER_NAME}.c", _HERE / "dealing.py", _HERE / "calling.py",
                    _HERE / "advice" / "sampling.py", _HERE / "advice" / "native_sampling.py")


def _digest(paths: tuple[Path, ...]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


def source_digest() -> str:
    """SHA-256 over the sources the mypyc build is made from."""
    return _digest(_SOURCES)


def native_digest() -> str:
    """SHA-256 over the sources the native build is made from."""
    return _digest(_NATIVE_SOURCES)


def sampler_digest() -> str:
    """SHA-256 over the sources the native sampling is made from."""
    return _digest(_SAMPLER_SOURCES)


def _built(name: str, digest: Callable[[], str]) -> ModuleType | None:
    """The build ``name`` when it is here and made from the sources on disk. The digest is
    taken only when there is a build (an installed wheel carries no C source)."""
    try:
        module = importlib.import_module(f"{__package__}.{name}")
    except ImportError:  # not built here, or built for another Python
        return None
    try:
        return module if getattr(module, "SOURCE_DIGEST", None) == digest() else None
    except OSError:  # the sources are not here to compare with: never trust the build
        return None


@cache
def native_module() -> ModuleType | None:
    """The native search in C, when it is built from the sources on disk."""
    return _built(NATIVE_NAME, native_digest)


@cache
def sampler_module() -> ModuleType | None:
    """The native deal sampling in C, when it is built from the sources on disk."""
    return _built(SAMPLER_NAME, sampler_digest)


@cache
def compiled_module() -> ModuleType | None:
    """The mypyc build of the search, when it is built from the sources on disk."""
    return _built(COMPILED_NAME, source_digest)


@cache
def search_module() -> ModuleType:
    """The search the solver runs: native, else compiled, else pure (see the module)."""
    if os.environ.get(PURE_ENV, "") in ("", "0"):
        for built in (native_module, compiled_module):
            module = built()
            if module is not None:
                return module
    from . import search

    return search


def which() -> str:
    """``"native"``, ``"compiled"`` or ``"pure"``: the search the solver runs."""
    name = search_module().__name__.rsplit(".", 1)[-1]
    return {NATIVE_NAME: "native", COMPILED_NAME: "compiled"}.get(name, "pure")


def is_compiled() -> bool:
    """Whether the solver runs a built search (native or compiled), not the pure one."""
    return which() != "pure"


def _compiler() -> list[str] | None:
    """The C compiler: ``$CC``, else the one Python was built with, else ``cc``; None if
    none is on PATH."""
    for text in (os.environ.get("CC", ""), sysconfig.get_config_var("CC") or "", "cc"):
        words = shlex.split(text)
        if words and shutil.which(words[0]):
            return words
    return None


# How the native search is compiled: tuned for this machine first (the build is never
# shipped elsewhere; BMI2's pext and pdep where the CPU has them), then plain C, whose
# loops do the same work (tests/test_native.py checks the plain build as well).
TUNED = ("-O3", "-march=native")
PLAIN = ("-O2",)


# Every build keeps floating point as written: no multiply-add fused (GCC fuses them at -O3
# with -march=native where the CPU has FMA), so the sampling's floats are Python's own.
STRICT_FLOAT = ("-ffp-contract=off",)


def compile_native(folder: Path, flags: tuple[str, ...], name: str = NATIVE_NAME
                   ) -> tuple[Path | None, str]:
    """Compile ``name``.c (the native search, or the native sampling) with ``flags`` into
    ``folder``: the built file, or None and why not (one line)."""
    import subprocess

    cc = _compiler()
    if cc is None:
        return None, "no C compiler (cc)"
    include = sysconfig.get_paths()["include"]
    if not Path(include, "Python.h").exists():
        return None, f"Python's headers are missing ({include}/Python.h)"
    target = folder / f"{name}{sysconfig.get_config_var('EXT_SUFFIX') or '.so'}"
    digest = sampler_digest() if name == SAMPLER_NAME else native_digest()
    link = ["-bundle", "-undefined", "dynamic_lookup"] if sys.platform == "darwin" \
        else ["-shared"]
    run = subprocess.run([*cc, *flags, *STRICT_FLOAT, "-fPIC", *link, f"-I{include}",
                          f'-DSOURCE_DIGEST="{digest}"', str(_HERE / f"{name}.c"),
                          "-o", str(target), *(["-lm"] if name == SAMPLER_NAME else [])],
                         capture_output=True, text=True)
    if run.returncode != 0:
        said = (run.stderr or run.stdout).strip().splitlines()[-1:]
        return None, f"the C compiler failed: {said[0] if said else 'no output'}"
    return target, ""


def _build_native(tmp: Path, name: str = NATIVE_NAME) -> str:
    """Compile ``name``.c into the package; '' if it worked, else why not."""
    from ..files.writing import WriteError, write_bytes

    why = ""
    for flags in (TUNED, PLAIN):
        built, why = compile_native(tmp, flags, name)
        if built is not None:
            for old in _HERE.glob(f"{name}*.so"):
                if old.name != built.name:  # a build for another Python: no longer wanted
                    old.unlink()
            try:
                write_bytes(_HERE / built.name, built.read_bytes())
            except WriteError as err:  # e.g. perf's build-id cache hard-linked the old one
                return str(err)
            return ""
        if _compiler() is None or "headers" in why:
            break
    return why


def _build_compiled(tmp: Path) -> str:
    """Compile the search with mypyc into the package; '' if it worked, else why not.

    The package's Python files are copied to a temporary folder, with the search under
    its compiled name and its digest appended, and compiled there, so nothing but the
    finished ``.so`` files reaches the package."""
    import subprocess

    try:
        import mypyc  # noqa: F401  (ships with mypy, a development dependency)
    except ImportError:
        return "mypyc is not installed (pip install mypy)"
    from ..files.writing import write_bytes

    # The scratch files (the copied sources, the search under its compiled name, mypy.ini) are
    # written straight into the build's temporary folder, not through the one writer: no one
    # else reads that folder, it is removed whole when the build ends, and a half-written
    # scratch file can only fail this build. What reaches the package goes through the writer.
    root = tmp / "mypyc"
    shutil.copytree(_PACKAGE, root / _PACKAGE.name, ignore=_python_files_only)
    target = root / _PACKAGE.name / "analysis" / f"{COMPILED_NAME}.py"
    source = (_HERE / "search.py").read_text(encoding="utf-8")
    target.write_text(f"{source}\n\n# Written by pepper_tutor.analysis.native.build.\n"
                      f"SOURCE_DIGEST = {source_digest()!r}\n", encoding="utf-8")
    # Only the search is compiled; the modules it imports are read for their types,
    # and their own imports (notebook widgets...) need not be resolvable.
    (root / "mypy.ini").write_text("[mypy]\nignore_missing_imports = True\n"
                                   "follow_imports = silent\n", encoding="utf-8")
    env = {**os.environ, "MYPY_FORCE_COLOR": "0"}
    run = subprocess.run([sys.executable, "-m", "mypyc", str(target.relative_to(root))],
                         cwd=root, env=env, capture_output=True, text=True)
    built = sorted(target.parent.glob(f"{COMPILED_NAME}*.so"))
    if run.returncode != 0 or not built:
        tail = (run.stderr or run.stdout).strip().splitlines()[-1:]
        return f"mypyc failed: {tail[0] if tail else 'no output'}"
    names = {path.name for path in built}
    for old in _HERE.glob(f"{COMPILED_NAME}*.so"):
        if old.name not in names:  # a build for another Python: no longer wanted
            old.unlink()
    for path in built:  # replaced whole: a running program keeps the module it loaded
        write_bytes(_HERE / path.name, path.read_bytes())
    return ""


def build() -> bool:
    """Build the native search, then the mypyc one, and say in one line what was built.

    Returns whether the native search was built. Neither is ever needed: without a C
    compiler the line says so and the pure-Python search runs."""
    import tempfile

    if _compiler() is None:
        print("native and compiled searches not built: no C compiler (cc); the pure-Python "
              "search is used")
        return False
    with tempfile.TemporaryDirectory(prefix="pepper-native-") as tmp:
        native_failed = _build_native(Path(tmp))
        sampler_failed = _build_native(Path(tmp), SAMPLER_NAME)
        compiled_failed = _build_compiled(Path(tmp))
    native = "native C search built" if not native_failed else \
        f"native C search not built ({native_failed})"
    native += "; native C sampling built" if not sampler_failed else \
        f"; native C sampling not built ({sampler_failed}: the Python sampling is used)"
    compiled = "compiled (mypyc) search built" if not compiled_failed else \
        f"compiled (mypyc) search not built ({compiled_failed})"
    fallback = "" if not native_failed else \
        "; the compiled search is used" if not compiled_failed else \
        "; the pure-Python search is used"
    print(f"{native}; {compiled}{fallback}")
    return not native_failed


def _python_files_only(folder: str, names: list[str]) -> list[str]:
    """What :func:`shutil.copytree` leaves out: all but folders and Python sources."""
    return [n for n in names if n == "__pycache__"
            or not (n.endswith(".py") or os.path.isdir(os.path.join(folder, n)))]


def _state(module: ModuleType | None, name: str) -> str:
    if module is not None:
        return "built, up to date"
    if any(_HERE.glob(f"{name}*.so")):
        return "built from other sources (stale, not used): make rebuilds it"
    return "not built"


def status() -> str:
    """Which search runs, and the state of each build."""
    runs = {"native": "the native C search", "compiled": "the compiled (mypyc) search",
            "pure": "the pure-Python search"}[which()]
    forced = f" ({PURE_ENV} is set)" if os.environ.get(PURE_ENV, "") not in ("", "0") else ""
    return (f"{runs}{forced}\n  native C: {_state(native_module(), NATIVE_NAME)}\n"
            f"  compiled (mypyc): {_state(compiled_module(), COMPILED_NAME)}\n"
            f"  native C sampling: {_state(sampler_module(), SAMPLER_NAME)}\n"
            "  pure Python: always there (the oracle and the fallback)")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] not in ("build", "status"):
        print("usage: python -m pepper_tutor.analysis.native [build|status]", file=sys.stderr)
        return 2
    if args and args[0] == "status":
        print(status())
        return 0
    build()
    return 0  # a failed build leaves a slower search, which works: not an error


if __name__ == "__main__":
    sys.exit(main())
