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


def _script(name: str):
    """A session fixture named ``name`` giving packaging/<name>.py as a module."""
    @pytest.fixture(scope="session", name=name)
    def fixture():
        return load(name)
    return fixture


lean = _script("lean")
icu_trim = _script("icu_trim")
build = _script("build")
linux_libs = _script("linux_libs")
apt_install = _script("apt_install")
xdesktop = _script("xdesktop")
hide_libs = _script("hide_libs")
deb = _script("deb")
manifest = _script("manifest")
houses_check = _script("houses_check")
