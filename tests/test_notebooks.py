"""Every notebook runs headlessly with no error output, and starts out clean in the repo."""

import json
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


def test_the_numbered_notebooks_are_there_in_order():
    numbered = [p.name[:2] for p in NOTEBOOKS if p.name[0].isdigit()]
    assert numbered == ["01", "02", "03", "04", "05", "06", "07", "08", "09", "10"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_committed_without_outputs(path):
    data = json.loads(path.read_text())
    code = [c for c in data["cells"] if c["cell_type"] == "code"]
    assert code and not any(c.get("outputs") or c.get("execution_count") for c in code)


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_executes_without_errors(path, tmp_path, monkeypatch):
    monkeypatch.setenv("PEPPER_TUTOR_HOME", str(tmp_path))
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=120, kernel_name="python3",
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    errors = [o for o in outputs if o.output_type == "error"]
    assert not errors, errors
    streams = " ".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "Traceback" not in streams and "Something went wrong" not in json.dumps(
        [o.get("data", {}) for o in outputs])
    assert any("application/vnd.jupyter.widget-view+json" in o.get("data", {})
               for o in outputs), "each notebook shows at least one widget"
