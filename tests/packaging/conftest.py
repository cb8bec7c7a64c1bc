"""Load packaging/'s scripts for the tests.

They are scripts, not a package (and the folder's name would clash with the PyPI
``packaging`` library), so each is loaded from its file under a private name. The
folder goes at the end of ``sys.path`` (shadowing nothing), so that the scripts' own
imports of each other (``import linux_libs``) work as when they run.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"
if str(PACKAGING) not in sys.path:
    sys.path.append(str(PACKAGING))


def load(name: str):
    """packaging/<name>.py as a module (cached in sys.modules under a private name)."""
    key = f"_parlour_packaging_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, PACKAGING / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]


@pytest.fixture(scope="session")
def lean():
    return load("lean")


@pytest.fixture(scope="session")
def icu_trim():
    return load("icu_trim")


@pytest.fixture(scope="session")
def build():
    return load("build")


@pytest.fixture(scope="session")
def linux_libs():
    return load("linux_libs")


@pytest.fixture(scope="session")
def apt_install():
    return load("apt_install")


@pytest.fixture(scope="session")
def xdesktop():
    return load("xdesktop")


@pytest.fixture(scope="session")
def hide_libs():
    return load("hide_libs")


@pytest.fixture(scope="session")
def deb():
    return load("deb")
