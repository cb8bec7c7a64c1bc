"""Addresses as people type them: what is accepted, and what each mistake is told."""

import pytest

from net.wire.address import AddressError, format_address, local_address_towards, parse_address


@pytest.mark.parametrize("text, expected", [
    ("192.168.1.20:47311", ("192.168.1.20", 47311)),
    ("  kitchen-pc.local:1 ", ("kitchen-pc.local", 1)),
    ("[fe80::1]:65535", ("fe80::1", 65535)),
    ("[::1]:80", ("::1", 80)),
])
def test_good_addresses(text, expected):
    assert parse_address(text) == expected
    assert parse_address(format_address(*expected)) == expected


@pytest.mark.parametrize("text, says", [
    ("", "Type the address"),
    ("192.168.1.20", "Add the port after a colon, e.g. 192.168.1.20:47311"),
    ("hello world:80", "only letters, digits, hyphens and dots"),
    ("1.2.3.400:80", "1.2.3.400 is not an IPv4 address"),
    ("host:0", "from 1 to 65535"),
    ("host:65536", "from 1 to 65535"),
    ("host:http", "from 1 to 65535"),
    ("host:", "Add the port number"),
    (":80", "before the colon"),
    ("fe80::1:80", "square brackets"),
    ("[fe80::1]80", "after the brackets"),
    ("[fe80::1:80", "Close the IPv6 address"),
    ("[nonsense]:80", "not an IPv6 address"),
    ("-bad-.local:80", "only letters"),
    ("a" * 300 + ":80", "only letters"),
])
def test_each_mistake_gets_a_sentence(text, says):
    with pytest.raises(AddressError) as caught:
        parse_address(text)
    message = str(caught.value)
    assert says in message and "Errno" not in message and "Traceback" not in message


def test_the_interface_that_reaches_a_host_on_this_computer_is_loopback():
    # a UDP "connect" only picks the route: nothing is sent anywhere
    assert local_address_towards("127.0.0.1", 47311) == "127.0.0.1"
    assert local_address_towards("127.0.0.5") == "127.0.0.1"
