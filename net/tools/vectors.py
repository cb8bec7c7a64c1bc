"""Test vectors for implementations of the Parlour protocol written from docs/protocol.md.

``python -m net.tools.vectors [DIR]`` writes, into docs/vectors/ by default, worked examples
made with fixed keys and secrets, each computed by the code the protocol runs on (and,
into docs/vectors/, the private deal's worked example in docs/protocol.md):

* ``canonical.json``: values and their canonical encodings (the bytes that are hashed
  and signed);
* ``signed-entry.json``: log entries signed by a host key, their signed bytes, the
  signed entry's encoding and its hash (the next entry's ``prev``); a player's signed
  action, and a secret action's salted digest;
* ``commitment.json``: a host secret and its commitment;
* ``seed-and-deal.json``: a secret and contributions, the seed they give, and the cards
  that seed deals in each title;
* ``public-view.json``: a Rook hand from that seed after a few actions (in their JSON
  forms), the public view, its canonical encoding and its ``state_hash``, and one seat's
  private view;
* ``sent-and-report.json``: an entry message the host sent a seat, with its signature
  over what it sent (``sent``): the body, the bytes signed; and that player's signed
  report of it (a false drop of its own seat);
* ``shown-hand.json``: a player's hand sealed for one watcher ("Show my cards to…"):
  the keys in both forms, the shared key, the plaintext, nonce and sealed bytes;
* ``talk.json``: table talk: a message, a reaction and the host's mute, each signed by
  its speaker (``net.trust.talk``), with the bytes signed;
* ``mental-*.json``: the private (mental-poker) deal's (``net.tools.mental_vectors``).

In the JSON files bytes are written ``{"hex": "…"}``; everything else is as on the wire.
tests/net/trust/test_vectors.py recomputes every vector from its inputs, so the files and the
code can never disagree unnoticed. Ed25519 signatures are deterministic (RFC 8032), so
each vector holds exactly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


from engine import canonical, make_game

from net.trust import reports, sent
from net.trust.deals.seeded import fairdeal
from net.trust import talk
from net.trust.entries import DropBody, SeatBody, TableBody
from net.wire import messages as m
from net.trust.alerts import HOST, IntegrityAlert, from_json_value, to_json_value
from net.trust.log import Chain
from net.tools.vector_keys import FORMAT, TABLE, identity, key_seed, secret  # noqa: F401 (re-exported)
from net.wire.identity import Identity
from net.trust.signing import (ACTION_DOMAIN, ENTRY_DOMAIN, HIDDEN_DOMAIN, REPORT_DOMAIN, SENT_DOMAIN,
                               read_action, sign_action, signed_bytes)

DIR = Path(__file__).resolve().parents[2] / "docs" / "vectors"


def to_json(value):
    """Plain values with bytes as {"hex": …}."""
    return to_json_value(value, "hex")


def from_json(value):
    return from_json_value(value, "hex")


def _party(label: str) -> dict:
    who = identity(label)
    return {"private_key_seed": key_seed(label), "public_key": who.public_key,
            "fingerprint": who.fingerprint}


# -- the vectors -------------------------------------------------------------------------

CANONICAL_CASES = [
    ("map keys are sorted by code point; the map becomes an array of [key, value] pairs",
     {"b": 1, "a": [True, None], "é": "x", "B": -1, "aa": b"\x00\xff"}),
    ("integers take msgpack's shortest form (unsigned formats for non-negative values)",
     [0, 127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, -1, -32, -33, -128, -129,
      -32768, -32769]),
    ("strings are UTF-8 str (str8 from 32 bytes), bytes are bin",
     ["", "Dad", "x" * 32, "名前", b"", bytes(range(40))]),
    ("nested maps are sorted at every level",
     {"z": [{"y": 2, "x": 1}], "hand": ["R5", "G14"], "seat": 3}),
]


def canonical_vectors() -> dict:
    return {"format": FORMAT, "what": "canonical encodings", "cases": [
        {"note": note, "value": value, "encoding": canonical.encode(value)}
        for note, value in CANONICAL_CASES]}


def _rook_key() -> dict:
    return make_game("rook").key()


def signed_entry_vectors() -> dict:
    host, player = identity("host"), identity("player 1")
    chain = Chain(TABLE)
    entries = []
    for body in [TableBody(m.PROTOCOL, host.public_key, _rook_key(), "Friday night"),
                 SeatBody(1, "human", player.public_key, "Ann", None, False)]:
        signed = chain.make(host, body)
        entries.append({"entry": signed.wire["entry"],
                        "signed_bytes": signed_bytes(ENTRY_DOMAIN, signed.wire["entry"]),
                        "sig": signed.sig, "signed_entry_encoding": canonical.encode(signed.wire),
                        "hash": signed.hash})
        chain.advance(signed)
    bury = read_action(make_game("rook"), {"bury": ["B2", "B3", "R2", "G5", "Y7"], "trump": "G"}, 1)
    move = sign_action(player, make_game("rook"), bury, table=TABLE, hand=0, seen=chain.seq,
                       head=chain.head, rng=lambda n: secret("nonce", n))
    body, full, nonce = move.signed["body"], move.forms.full, move.nonce
    assert nonce is not None, "a bury is a secret action: it is signed with a nonce"
    return {"format": FORMAT, "what": "signed log entries and a signed secret action",
            "host": _party("host"), "player": _party("player 1"), "domain": ENTRY_DOMAIN,
            "entries": entries,
            "action": {"domain": ACTION_DOMAIN, "full": full, "nonce": nonce,
                       "hidden_preimage": HIDDEN_DOMAIN + nonce + canonical.encode(full),
                       "hidden": body["hidden"], "body": body,
                       "signed_bytes": signed_bytes(ACTION_DOMAIN, body),
                       "sig": move.signed["sig"]}}


def sent_and_report_vectors() -> dict:
    """The host logs seat 1 as dropped and sends the entry to seat 1 itself, live: the
    message with the host's signature over what it sent, and the player's report of it."""
    host, player = identity("host"), identity("player 1")
    chain = Chain(TABLE)
    for entry in [TableBody(m.PROTOCOL, host.public_key, _rook_key(), "Friday night"),
                  SeatBody(1, "human", player.public_key, "Ann", None, False), DropBody(1)]:
        signed = chain.make(host, entry)
        chain.advance(signed)
    message = m.entry_message(signed.wire)
    body = sent.body(message, signed.hash, 1, player.public_key, True, None)
    message = sent.signed(host, message, signed.hash, 1, player.public_key, True, None)
    alert = IntegrityAlert(0, HOST, "drop", "entry 2: the host logged my seat 1 as dropped while my "
                           "link to it is up", TABLE, 2, [signed.wire],
                           {"seat": 1, "key": player.public_key, "live": True, "message": message})
    report = reports.make(player, alert, 1)["signed"]
    return {"format": FORMAT, "what": "what the host sent a seat, signed; and that player's report",
            "host": _party("host"), "player": _party("player 1"),
            "sent": {"domain": SENT_DOMAIN, "message": message, "body": body,
                     "signed_bytes": signed_bytes(SENT_DOMAIN, body), "sig": message["sent"]},
            "report": {"domain": REPORT_DOMAIN, "body": report["body"],
                       "signed_bytes": signed_bytes(REPORT_DOMAIN, report["body"]),
                       "sig": report["sig"]}}


def _deal_inputs() -> dict:
    return {"table": TABLE, "hand": 3, "secret": secret("host secret"),
            "contributions": [{"seat": s, "random": secret(f"contribution {s}")} for s in (1, 2, 3)]}


def commitment_vectors() -> dict:
    d = _deal_inputs()
    preimage = b"parlour-commit/1" + d["table"].encode() + b"\x00" + d["hand"].to_bytes(8, "big") \
        + d["secret"]
    return {"format": FORMAT, "what": "a deal commitment", "table": d["table"], "hand": d["hand"],
            "secret": d["secret"], "preimage": preimage,
            "commitment": fairdeal.commitment(d["table"], d["hand"], d["secret"])}


def _seed(d: dict) -> bytes:
    return fairdeal.seed(d["table"], d["hand"], d["secret"],
                         {c["seat"]: c["random"] for c in d["contributions"]})


def seed_and_deal_vectors() -> dict:
    d = _deal_inputs()
    seed = _seed(d)
    deals = []
    for title, ruleset, mode in (("rook", None, None), ("somerset", "kitty-doubled", None),
                                 ("horseshoes", None, "three")):
        game = make_game(title, ruleset, mode)
        state = game.deal(seed, 2)
        deals.append({"game": game.key(), "dealer": 2, "redeals": getattr(state, "redeals", 0),
                      "hands": [[game.deck.name(c) for c in hand] for hand in state.dealt],
                      "spare": [game.deck.name(c) for c in state.spare],
                      "state_hash": state.state_hash()})
    preimage = b"parlour-seed/1" + d["table"].encode() + b"\x00" + d["hand"].to_bytes(8, "big") \
        + d["secret"] + b"".join(bytes([c["seat"]]) + c["random"] for c in d["contributions"])
    return {"format": FORMAT, "what": "a deal seed and the cards it deals", **d,
            "preimage": preimage, "seed": seed, "deals": deals}


def _rook_actions(state) -> list[dict]:
    """A short Rook hand: one bid, three passes, the contract kept, every "Got it", a
    bury, two cards."""
    game, actions = state.game, []

    def act(data: dict) -> None:
        parsed = game.action_from_json(data)
        state.apply(parsed)
        actions.append({"full": game.action_to_json(parsed),
                        "public": game.action_to_json(parsed, public=True)})
    bidder = state.to_act()[0]
    act({"seat": bidder, "bid": 100})
    answers: dict[str, dict] = {"bidding": {"pass": True}, "raise": {"raise": None}, "widow": {"ack": True}}
    while state.phase in answers:
        act({"seat": state.to_act()[0], **answers[state.phase]})
    seat = state.to_act()[0]
    lowest = sorted(c for c in range(game.deck.size) if state.hands[seat] >> c & 1)[:5]
    act({"seat": seat, "bury": [game.deck.name(c) for c in lowest], "trump": "G"})
    for _ in range(2):
        seat = state.to_act()[0]
        card = next(c for c in range(game.deck.size) if state.legal_play_mask(seat) >> c & 1)
        act({"seat": seat, "play": game.deck.name(card)})
    return actions


def public_view_vectors() -> dict:
    d = _deal_inputs()
    game = make_game("rook")
    state = game.deal(_seed(d), 2)
    actions = _rook_actions(state)
    public = state.public_view()
    return {"format": FORMAT, "what": "a public view and its state hash",
            "game": game.key(), "seed": _seed(d), "dealer": 2, "actions": actions,
            "public_view": public, "encoding": canonical.encode(public),
            "state_hash": state.state_hash(), "private_view": {"seat": 1, "view": state.view(1)}}


def shown_hand_vectors() -> dict:
    """A player shows its hand to a watcher ("Show my cards to…", ``net.trust.shown``):
    both keys, their X25519 forms, the shared key, the plaintext, the nonce and the sealed
    bytes — and the host's key, which cannot open them."""
    from nacl.bindings import crypto_box_beforenm

    from net.trust import shown
    from net.wire.identity import curve_public, curve_secret
    player, watcher = identity("grandma"), identity("leo")
    hand = shown.ShownHand(TABLE, 2, watcher.public_key, 41, 3,
                           {"seat": 2, "hand": ["B5", "B14", "R10", "G1", "Y7", "ROOK"]})
    stop = shown.ShownHand(TABLE, 2, watcher.public_key, 57, 3, None)
    sealed = []
    for label, note, item in (("shows", "its hand after entry 41 of hand 3", hand),
                              ("stops", "it stops showing (the view is nil)", stop)):
        nonce = secret(f"shown nonce {label}", shown.NONCE_BYTES)
        sealed.append({"note": note, "body": item.body(),
                       "plaintext": item.plaintext(), "nonce": nonce,
                       "sealed": shown.seal(player, watcher.public_key, item, nonce)})
    return {"format": FORMAT, "what": "a shown hand, sealed by the player for one watcher",
            "domain": shown.SHOWN_DOMAIN, "player": _party("grandma"), "watcher": _party("leo"),
            "host": _party("host"),
            "player_x25519_secret": curve_secret(player),
            "watcher_x25519_public": curve_public(watcher.public_key),
            "shared_key": crypto_box_beforenm(curve_public(watcher.public_key), curve_secret(player)),
            "cases": sealed}


def talk_vectors() -> dict:
    """A player's message (with markup, shown as typed), its reaction, and the host's mute."""
    host, player = identity("host"), identity("player 1")
    said: list[tuple[Identity, int, dict]] = [
        (player, 1_700_000_000_000, {"say": "Well played, <b>Gran</b>! \U0001F44D"}),
        (player, 1_700_000_000_001, {"react": "well-played"}),
        (host, 1_700_000_000_500, {"mute": (player.public_key, True)})]
    messages = []
    for who, n, what in said:
        envelope = talk.sign_talk(who, TABLE, n, **what)
        messages.append({"speaker": who.name, "body": envelope["body"],
                         "signed_bytes": signed_bytes(talk.TALK_DOMAIN, envelope["body"]),
                         "sig": envelope["sig"], "message": talk.talk_message(envelope)})
    return {"format": FORMAT, "what": "table talk: signed messages beside the log",
            "host": _party("host"), "player": _party("player 1"), "domain": talk.TALK_DOMAIN,
            "table": TABLE, "messages": messages}


def build() -> dict[str, dict]:
    """Every vector file's contents (plain values, bytes as bytes)."""
    from net.tools import mental_vectors  # it builds on this module's keys and secrets
    return {"canonical.json": canonical_vectors(), "signed-entry.json": signed_entry_vectors(),
            "commitment.json": commitment_vectors(), "seed-and-deal.json": seed_and_deal_vectors(),
            "public-view.json": public_view_vectors(),
            "sent-and-report.json": sent_and_report_vectors(), "shown-hand.json": shown_hand_vectors(),
            "talk.json": talk_vectors(),
            **mental_vectors.build()}


def dumps(vectors: dict) -> str:
    return json.dumps(to_json(vectors), indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    directory = Path(args[0]) if args else DIR
    directory.mkdir(parents=True, exist_ok=True)
    built = build()
    for name, vectors in built.items():
        (directory / name).write_text(dumps(vectors), encoding="utf-8")
        print(f"wrote {directory / name}")
    if directory == DIR:  # the private deal's worked example, printed in the protocol
        from net.tools import mental_vectors
        mental_vectors.write_doc(built)
        print(f"wrote the worked example in {mental_vectors.DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
