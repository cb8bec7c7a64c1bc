"""Discovery: advert encoding (no network), then real mDNS between private namespaces."""

import dataclasses
import json
import subprocess
import textwrap
import typing

import pytest
from hypothesis import given, strategies as st

from net.tools import bench_discovery as peers
from net.constants import PROTOCOL_VERSION
from net.adverts import TableAdvert, TableInfo, table_info
from net.wire.identity import Identity

FP = Identity.generate().fingerprint


def advert(**kw):
    fields = dict(name="Friday night", game="somerset", ruleset="kitty-doubled", mode="four",
                  host="Ada", fingerprint=FP, port=4567, open_seats=2)
    fields.update(kw)
    return TableAdvert(**fields)


def as_wire(txt):
    return {k.encode(): v.encode() for k, v in txt.items()}


def test_txt_round_trip_gives_table_info():
    info = table_info("x._parlour._tcp.local.", as_wire(advert(in_game=True).txt()),
                      ["10.231.0.1"], 4567)
    assert info == {"id": "x._parlour._tcp.local.", "name": "Friday night",
                    "game": "somerset", "ruleset": "kitty-doubled", "mode": "four",
                    "host": "Ada", "fingerprint": FP, "open_seats": 2, "in_game": True,
                    "address": "10.231.0.1", "port": 4567, "protocol": PROTOCOL_VERSION,
                    "table": "", "watchable": False}


# Adverts a Parlour host may make. A name or host of at most 30 characters fits the TXT
# value's 120 bytes whatever the characters, so it travels whole.
TOKEN = st.from_regex(r"[a-z0-9][a-z0-9_\-]{0,31}", fullmatch=True)
FINGERPRINT = st.from_regex(r"[0-9a-f]{16}", fullmatch=True).map(
    lambda hex16: "-".join(hex16[i:i + 4] for i in range(0, 16, 4)))
ADVERTS = st.builds(
    TableAdvert, name=st.text(max_size=30), game=TOKEN, ruleset=TOKEN,
    mode=st.just("") | TOKEN, host=st.text(max_size=30), fingerprint=FINGERPRINT,
    port=st.integers(0, 65535), open_seats=st.integers(0, 8), in_game=st.booleans(),
    protocol=st.integers(1, 2**31), watchable=st.booleans(),
    table_id=st.just("") | st.from_regex(r"[0-9a-f][0-9a-f\-]{0,63}", fullmatch=True))


@given(ADVERTS)
def test_an_advert_read_back_from_its_txt_record_is_the_advert(sent):
    assert TableAdvert.from_txt(sent.txt(), sent.port) == sent
    assert TableAdvert.from_txt(as_wire(sent.txt()), sent.port) == sent  # as zeroconf reads it


def test_an_advert_too_long_for_txt_comes_back_cut_and_says_the_same_again():
    sent = advert(name="ü" * 200, host="名" * 100, fingerprint=FP.upper().replace("-", ":"))
    back = TableAdvert.from_txt(as_wire(sent.txt()), sent.port)
    assert back.txt() == sent.txt() and back.fingerprint == FP
    assert sent.name.startswith(back.name) and 0 < len(back.name) < len(sent.name)


# What the advert says is keyed in TableInfo under its field's name, but for the table id
# (the lobby's "table", older than the advert's field).
LOBBY_KEY = {"table_id": "table"}
WHERE_FOUND = {"id", "address"}


def test_the_lobby_row_is_the_advert_plus_where_it_was_found():
    sent = advert(in_game=True, watchable=True, table_id="6fc5-e6ff")
    row = sent.found("x._parlour._tcp.local.", "10.0.0.1")
    advert_fields = {LOBBY_KEY.get(f.name, f.name) for f in dataclasses.fields(TableAdvert)}
    assert set(typing.get_type_hints(TableInfo)) == advert_fields | WHERE_FOUND
    assert set(row) == advert_fields | WHERE_FOUND
    said = dataclasses.asdict(sent)
    assert {field: row[LOBBY_KEY.get(field, field)] for field in said} == said
    assert (row["id"], row["address"]) == ("x._parlour._tcp.local.", "10.0.0.1")


def test_a_table_people_may_watch_says_so_and_an_older_advert_is_not_watchable():
    wire = as_wire(advert(in_game=True, watchable=True).txt())
    assert wire[b"watch"] == b"1" and table_info("x", wire, ["10.0.0.1"], 1)["watchable"]
    del wire[b"watch"]  # an advert that says nothing of watching: not offered to watch
    assert table_info("x", wire, ["10.0.0.1"], 1)["watchable"] is False


def test_the_table_id_is_advertised_so_a_table_carried_on_by_a_new_host_is_known():
    tid = "6fc5-e6ff-3e92-a6a9-a11b0974"
    info = table_info("x", as_wire(advert(table_id=tid).txt()), ["10.0.0.1"], 1)
    assert info["table"] == tid
    wire = as_wire(advert(table_id=tid).txt())
    wire[b"tid"] = b"<not an id>"  # an odd one is left out, the advert still shown
    assert table_info("x", wire, ["10.0.0.1"], 1)["table"] == ""


def test_long_names_cut_on_character_boundaries():
    txt = advert(name="ü" * 200, host="名" * 100).txt()
    assert all(len(f"{k}={v}".encode()) <= 255 for k, v in txt.items())
    assert set(txt["table"]) == {"ü"} and set(txt["host"]) == {"名"}


def test_instance_name_is_safe_and_unique_per_key_and_port():
    a = advert(name="Bob's.table\n\\x").instance_name()
    assert "." not in a and "\n" not in a and "\\" not in a
    assert FP.replace("-", "") in a
    assert advert(port=4568).instance_name() != advert().instance_name()
    assert len(advert(name="x" * 200).instance_name().encode()) <= 63


@pytest.mark.parametrize("change", [
    {"protocol": None}, {"protocol": b"one"}, {"seats": b"99"}, {"seats": b"-1"},
    {"fp": b"not-a-fingerprint"}, {"state": b"sleeping"}, {"game": b"Bad Game!"},
    {"game": None},
])
def test_malformed_adverts_are_refused(change):
    wire = as_wire(advert().txt())
    for key, value in change.items():
        if value is None:
            del wire[key.encode()]
        else:
            wire[key.encode()] = value
    with pytest.raises(ValueError):
        table_info("x", wire, ["10.0.0.1"], 1)


@pytest.mark.parametrize("key", ["game", "ruleset", "mode", "protocol", "seats", "fp", "state"])
def test_a_field_named_without_a_value_is_a_malformed_advert(key):
    # (a TXT string "game" with no "=": zeroconf reads it as the key with the value None)
    wire = as_wire(advert().txt())
    wire[key.encode()] = None
    with pytest.raises(ValueError, match="malformed Parlour advert"):
        table_info("x", wire, ["10.0.0.1"], 1)


def test_advert_without_address_is_refused():
    with pytest.raises(ValueError):
        table_info("x", as_wire(advert().txt()), [], 1)


# -- over mDNS, inside namespaces the test makes -------------------------------------

@pytest.mark.netns
def test_table_appears_changes_and_vanishes_across_the_bridge(bridged_ns):
    host_ns, guest_ns = bridged_ns
    times = peers.measure_once(host_ns, guest_ns, table="Friday night")
    # Each step happened (measure_once waits for it, with a bound); how fast is the
    # benchmark's business (python -m net.tools.bench_discovery), not a test's.
    assert {"appear", "change", "vanish"} <= set(times), times


@pytest.mark.netns
def test_late_browser_finds_existing_table(bridged_ns):
    host_ns, guest_ns = bridged_ns
    advertiser = peers.start_peer(host_ns, "advertise", "--interface", host_ns.address,
                                  "--table", "Already here", "--port", "5000")
    browser = None
    try:
        fp = advertiser.expect("starting")["fingerprint"]
        advertiser.expect("registered")
        browser = peers.start_peer(guest_ns, "browse", "--interface", guest_ns.address)
        ready = browser.expect("ready")
        seen = browser.expect("tables", peers.has_table(fp))
        (table,) = seen["tables"]
        assert table["address"] == host_ns.address and table["port"] == 5000
        assert table["name"] == "Already here" and table["open_seats"] == 3
        assert table["in_game"] is False and table["fingerprint"] == fp
    finally:
        for peer in (browser, advertiser):
            if peer is not None:
                peer.close()


SAME_HOST = textwrap.dedent("""
    import asyncio, json
    from net.adverts import TableAdvert
    from net.discovery import TableAdvertiser, TableBrowser
    from net.wire.identity import Identity

    async def main():
        me = Identity.generate("Ada")
        advert = TableAdvert("Loop", "rook", "rook", "", "Ada", me.fingerprint, 4000, 3)
        seen = []
        async with TableBrowser(interfaces=["127.0.0.1"]) as browser:
            lists = browser.updates()
            seen.append(await anext(lists))                  # empty at first
            async with TableAdvertiser(advert, interfaces=["127.0.0.1"]) as adv:
                seen.append(await anext(lists))
                await adv.update(open_seats=0, in_game=True)
                while seen[-1][0]["open_seats"] != 0:
                    seen.append(await anext(lists))
            while seen[-1]:
                seen.append(await anext(lists))
        print(json.dumps(seen))

    asyncio.run(asyncio.wait_for(main(), 15))
""")


@pytest.mark.netns
def test_async_iterator_in_a_private_namespace(private_ns):
    proc = private_ns.python("-c", SAME_HOST, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 0, err
    seen = json.loads(out)
    assert seen[0] == []
    assert seen[1][0]["name"] == "Loop" and seen[1][0]["open_seats"] == 3
    assert seen[-2][0]["open_seats"] == 0 and seen[-2][0]["in_game"] is True
    assert seen[-1] == []
