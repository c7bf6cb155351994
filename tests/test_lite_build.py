"""The JupyterLite build names the Python its tools need, and says so when there is none."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _lite(tmp_path: Path, python: Path) -> subprocess.CompletedProcess[str]:
    env = {"PATH": "/usr/bin:/bin", "PEPPER_LITE_PYTHON": str(python)}
    return subprocess.run([sys.executable, str(ROOT / "web" / "lite.py"), "--out",
                           str(tmp_path / "lite")], capture_output=True, text=True, env=env,
                          timeout=120, check=False)


def test_a_python_too_old_for_the_tools_is_refused_with_what_to_do(tmp_path: Path) -> None:
    old = tmp_path / "python3.11"
    old.write_text("#!/bin/sh\necho 3 11\n")
    old.chmod(0o755)
    done = _lite(tmp_path, old)
    assert done.returncode == 2
    assert "need Python 3.12 or newer" in done.stderr
    assert str(old) in done.stderr  # where it looked
    assert "PEPPER_LITE_PYTHON" in done.stderr
    assert not (tmp_path / "lite").exists()


def test_a_missing_python_is_refused_the_same_way(tmp_path: Path) -> None:
    done = _lite(tmp_path, tmp_path / "nowhere" / "python3")
    assert done.returncode == 2
    assert "need Python 3.12 or newer" in done.stderr
