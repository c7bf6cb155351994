"""The double-dummy search, compiled: the same source as :mod:`.search`, built with mypyc.

:mod:`pepper_tutor.analysis.search` is pure Python and always works. Where a C compiler is at
hand, ``make`` (or ``python -m pepper_tutor.analysis.native``) also compiles it with mypyc,
the compiler that ships with mypy, into ``_search_compiled*.so`` beside it: the same code
runs about twice as fast, which is what brings bid advice over 200 deals under a second.

The compiled copy carries a digest of the sources it was built from (the search and the
two modules whose types it compiles in). :func:`search_module` hands it out only while that
digest still matches the files on disk, so an edit to the search is never shadowed by a
stale build: until the next build the pure search runs, only slower. Set
``PEPPER_TUTOR_PURE_SEARCH=1`` to run the pure search whatever is built.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

__all__ = ["COMPILED_NAME", "PURE_ENV", "build", "is_compiled", "search_module",
           "source_digest"]

COMPILED_NAME = "_search_compiled"
PURE_ENV = "PEPPER_TUTOR_PURE_SEARCH"

_HERE = Path(__file__).resolve().parent
_PACKAGE = _HERE.parent  # pepper_tutor/
# The search, and the modules whose types mypyc compiles into it.
_SOURCES = (_HERE / "search.py", _HERE / "position.py", _PACKAGE / "engine" / "ranking.py")


def source_digest() -> str:
    """SHA-256 over the sources a compiled search is built from."""
    digest = hashlib.sha256()
    for path in _SOURCES:
        digest.update(path.read_bytes())
    return digest.hexdigest()


@cache
def search_module() -> ModuleType:
    """The compiled search when it is built from the sources on disk, else the pure one.
    Only the one chosen is imported (each builds its tables when imported)."""
    compiled: ModuleType | None = None
    if os.environ.get(PURE_ENV, "") in ("", "0"):
        try:
            compiled = importlib.import_module(f"{__package__}.{COMPILED_NAME}")
        except ImportError:  # not built here, or built for another Python
            compiled = None
    if compiled is not None and getattr(compiled, "SOURCE_DIGEST", None) == source_digest():
        return compiled
    from . import search

    return search


def is_compiled() -> bool:
    """Whether the solver runs the compiled search."""
    return search_module().__name__.endswith(COMPILED_NAME)


def build() -> bool:
    """Compile the search with mypyc and put the result beside this module.

    The package's Python files are copied to a temporary folder, with the search under
    its compiled name and its digest appended, and compiled there, so nothing but the
    finished ``.so`` files reaches the package. Returns whether it worked; a missing
    compiler or mypyc is reported in one line and leaves the pure search in use."""
    import shutil
    import subprocess
    import tempfile

    try:
        import mypyc  # noqa: F401  (ships with mypy, a development dependency)
    except ImportError:
        print("compiled search not built: mypyc is not installed (pip install mypy); "
              "the pure-Python search is used")
        return False
    from ..files.writing import write_bytes

    # The scratch files (the copied sources, the search under its compiled name, mypy.ini) are
    # written straight into a fresh temporary folder, not through the one writer: no one else
    # reads that folder, it is removed whole when the build ends, and a half-written scratch
    # file can only fail this build. What reaches the package goes through the writer.
    with tempfile.TemporaryDirectory(prefix="pepper-native-") as tmp:
        root = Path(tmp)
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
            tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
            print("compiled search not built (is a C compiler installed?); the pure-Python "
                  "search is used. mypyc said:\n  " + "\n  ".join(tail))
            return False
        names = {path.name for path in built}
        for old in _HERE.glob(f"{COMPILED_NAME}*.so"):
            if old.name not in names:  # a build for another Python: no longer wanted
                old.unlink()
        for path in built:  # replaced whole: a running program keeps the module it loaded
            write_bytes(_HERE / path.name, path.read_bytes())
    print(f"compiled search built: {', '.join(p.name for p in built)}")
    return True


def _python_files_only(folder: str, names: list[str]) -> list[str]:
    """What :func:`shutil.copytree` leaves out: all but folders and Python sources."""
    return [n for n in names if n == "__pycache__"
            or not (n.endswith(".py") or os.path.isdir(os.path.join(folder, n)))]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] not in ("build", "status"):
        print("usage: python -m pepper_tutor.analysis.native [build|status]", file=sys.stderr)
        return 2
    if args and args[0] == "status":
        print("compiled" if is_compiled() else "pure Python")
        return 0
    build()
    return 0  # a failed build leaves the pure search, which works: not an error


if __name__ == "__main__":
    sys.exit(main())
