"""The protocol's messages: builders produce what the schemas accept, and the schemas
refuse anything else with a reason. (What is signed inside them: tests/net/trust/test_signing.py.)"""

import pytest

from net.wire import messages as m

H = bytes(range(32))
SIG = bytes(range(64))  # the schemas check a signature's size; trust checks what it signs


def envelope(body):
    return {"body": body, "sig": SIG}


def action_msg(**change):
    body = m.action_body("t", 0, 3, H, {"seat": 1, "play": "B5"})
    body.update(change)
    return m.action_message(envelope(body))


def entry_msg():
    entry = {"table": "t", "seq": 0, "prev": m.GENESIS_PREV, "kind": "table", "body": {},
             "state_hash": None}
    return m.entry_message({"entry": entry, "sig": bytes(64)}, [], None, None, None)


def test_every_builder_passes_its_schema():
    contribution = m.contribution_message(
        envelope(m.contribution_body("t", 0, 1, H, bytes(32))))
    for msg in (action_msg(), contribution, m.rejoin_message(2, -1), m.error_message("no"),
                m.refused_message("no"), entry_msg(), m.sync_message([entry_msg()])):
        assert m.check(msg) is msg


@pytest.mark.parametrize("bad", [
    None, [], {"type": "action"}, {"type": "teleport"},
    {**m.rejoin_message(1, 0), "extra": 1},
    m.rejoin_message(-1, 0), m.rejoin_message(1, -2), m.rejoin_message(True, 0),
    {**action_msg(), "signed": {"body": {}, "sig": bytes(64)}},
    action_msg(hidden=b"short"), action_msg(head=b"x" * 31),
    {**action_msg(), "signed": {**action_msg()["signed"], "body": {
        **action_msg()["signed"]["body"], "action": {"seat": 1, "play": 0.5}}}},  # no floats
])
def test_malformed_messages_are_refused_with_a_reason(bad):
    with pytest.raises(m.ProtocolError) as exc:
        m.check(bad)
    assert str(exc.value)


def test_a_message_type_is_refused_where_it_does_not_belong():
    with pytest.raises(m.ProtocolError, match="unexpected message type"):
        m.check(m.rejoin_message(1, 0), m.HOST_TO_PEER)


def test_a_session_link_checks_the_same_declarations_for_their_types_only():
    from net.wire.heartbeat import WIRE
    assert WIRE.check(action_msg()) and WIRE.check(m.sync_message([entry_msg()]))
    hollow = {**action_msg(), "signed": {"body": {}, "sig": bytes(64)}}
    assert WIRE.check(hollow) is hollow  # a map where a map belongs: the frame passes...
    with pytest.raises(m.ProtocolError, match="bad field 'signed'"):
        m.check(hollow)  # ...and the trust code, which reads inside, refuses it
    with pytest.raises(m.ProtocolError, match="'signed' should be dict"):
        WIRE.check({**action_msg(), "signed": 3})
    with pytest.raises(m.ProtocolError, match="unknown message type"):
        WIRE.check(m.rejoin_message(1, 0))  # never travels on a link
