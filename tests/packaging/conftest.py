"""Load packaging/'s scripts for the tests.

They are scripts, not a package (and the folder's name would clash with the PyPI
``packaging`` library), so each is loaded from its file under a private name.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"


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
