"""packaging/apt_install.py: what is missing, and what it says when it cannot install.

Nothing is installed here: ``ensure`` is only called with packages that are present,
or where installing is refused.
"""

from __future__ import annotations

import shutil

import pytest

needs_dpkg = pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="not Debian")


@needs_dpkg
def test_missing_knows_installed_packages(apt_install):
    assert apt_install.missing(["libc6", "no-such-package-parlour"]) == \
        ["no-such-package-parlour"]


@needs_dpkg
def test_nothing_to_do_installs_nothing(apt_install):
    assert apt_install.ensure(["libc6"], "a test") == []


def test_without_root_it_says_what_to_run(apt_install, monkeypatch):
    monkeypatch.setattr(apt_install, "missing", lambda packages: list(packages))
    monkeypatch.setattr(apt_install.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(apt_install.shutil, "which", lambda name: f"/usr/bin/{name}")
    with pytest.raises(apt_install.AptError) as error:
        apt_install.ensure(["xvfb", "openbox"], "the window check")
    assert "installing packages needs root" in str(error.value)
    assert "sudo apt-get install xvfb openbox" in str(error.value)
