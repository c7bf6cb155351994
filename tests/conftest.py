"""Shared fixtures. Browser tests use JupyterLab on a loopback port and Debian's chromium.

On CI (``CI=true``) a browser test that cannot run is a failure, never a skip.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = Path(os.environ.get("BROWSER_SHOTS", ROOT / "test-artifacts"))


def _browser_missing() -> str | None:
    from .servers import CHROMIUM

    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} is not installed (apt-get install -y chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the python package playwright is not installed"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _browser_missing()
    if reason is None or os.environ.get("CI", "").lower() == "true":
        return  # on CI a missing browser makes the tests fail where they start it
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="session")
def nb_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throwaway copy of the notebooks: autosave never touches the repository."""
    target = tmp_path_factory.mktemp("notebooks")
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        shutil.copy(nb, target / nb.name)
    return target


@pytest.fixture(scope="session")
def tutor_home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("tutor-home")


@pytest.fixture(scope="session")
def lab_server(nb_copy: Path, tutor_home: Path):  # type: ignore[no-untyped-def]
    from .servers import start_lab

    os.environ["PEPPER_TUTOR_HOME"] = str(tutor_home)  # inherited by the server's kernels
    server = start_lab(nb_copy)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def lite(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The notebooks' JupyterLite site built from this tree (``web/lite.py``) and served on
    a loopback port: its folder and its address. Built once for every test that drives it."""
    from .web_site import build_lite, serve

    folder = tmp_path_factory.mktemp("site") / "lite"
    build_lite(folder)
    with serve(folder, "lite") as url:
        yield folder, url


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    from playwright.sync_api import expect, sync_playwright

    from .servers import CHROMIUM, CHROMIUM_ARGS

    # Assertions wait for a page as long as a loaded machine may need; one that never comes
    # still fails.
    expect.set_options(timeout=20_000)
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def page(browser, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    ctx = browser.new_context(viewport={"width": 1280, "height": 1000})
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(ARTIFACTS / f"{request.node.name}.png"), full_page=True)
    ctx.close()
    assert not errors, f"uncaught JavaScript errors: {errors}"


@pytest.fixture
def night_store(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A game night's store in a fresh file."""
    from pepper_tutor.apps.night.store import NightStore

    store = NightStore(tmp_path / "night.sqlite")
    yield store
    store.close()


@pytest.fixture
def night_config():  # type: ignore[no-untyped-def]
    """The limits ``night_app`` runs with: the defaults (a test file may override this)."""
    from pepper_tutor.apps.night.server import NightConfig

    from .night_clients import BASE

    return NightConfig(BASE, "test")


@pytest.fixture
def night_app(night_store, night_config):  # type: ignore[no-untyped-def]
    """Game night's app over ``night_store``. Its computer players stop before the store
    closes (a test client runs no lifespan, which would stop them at a real server's end)."""
    from pepper_tutor.apps.night.server import create_app

    app = create_app(night_store, night_config)
    yield app
    if app.state.night.table is not None:
        app.state.night.table.close()
