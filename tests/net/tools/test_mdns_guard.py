"""The suite's mDNS guard (tests/mdns_guard.py): a test cannot advertise or browse on
every interface of the real machine, in-process or through ``parlour host``."""

import subprocess
import sys

import pytest

from net.adverts import TableAdvert
from net.discovery import DEFAULT_INTERFACES, TableAdvertiser, TableBrowser
from tests.mdns_guard import RealNetworkRefused, advertised_by_default, in_private_namespace

pytestmark = pytest.mark.skipif(in_private_namespace(),
                                reason="inside a private namespace every interface is a test's")


def test_an_advert_or_a_lobby_on_every_interface_is_refused(arun, mdns_guard):
    advert = TableAdvert("Guarded", "rook", "rook", "", "Ada", "0000-0000-0000-0000", 4000, 3)
    with pytest.raises(RealNetworkRefused):
        arun(TableAdvertiser(advert, interfaces=DEFAULT_INTERFACES).start())
    with pytest.raises(RealNetworkRefused):
        arun(TableBrowser(interfaces=DEFAULT_INTERFACES).start())
    assert mdns_guard == ["a TableAdvertiser", "a TableBrowser"]
    mdns_guard.clear()  # this test wanted them refused: don't fail it at teardown


def test_parlour_host_with_the_default_interfaces_is_not_started(mdns_guard):
    with pytest.raises(RealNetworkRefused):
        subprocess.Popen([sys.executable, "-m", "net.cli", "host", "--game", "rook"])
    assert mdns_guard == ["`parlour host` advertising"]
    mdns_guard.clear()


def test_what_counts_as_advertising_by_default():
    py = sys.executable
    assert advertised_by_default([py, "-m", "net.cli", "host", "--game", "rook"])
    assert not advertised_by_default([py, "-m", "net.cli", "host", "--no-advertise"])
    assert not advertised_by_default([py, "-m", "net.cli", "host", "--interface", "10.231.0.1"])
    assert not advertised_by_default(["ip", "netns", "exec", "plr-1", py, "-m", "net.cli", "host"])
    assert not advertised_by_default([py, "-m", "net.cli", "join", "--address", "127.0.0.1:1"])
