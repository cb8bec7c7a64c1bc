"""docs/vectors/: every worked example an outside implementation checks itself against
holds for the code, recomputed from the example's own inputs."""

import hashlib
import json

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from engine import canonical, make_game
from net.trust.deals.seeded import fairdeal
from net.tools import vectors
from net.wire.identity import Identity, fingerprint, verify
from net.trust.log import Chain
from net.trust.signing import hidden_digest
from net.trust.values import SignedEntry

FILES = ["canonical.json", "signed-entry.json", "commitment.json", "seed-and-deal.json",
         "public-view.json", "sent-and-report.json", "talk.json"]


def load(name):
    return vectors.from_json(json.loads((vectors.DIR / name).read_text(encoding="utf-8")))


@pytest.mark.parametrize("name", FILES)
def test_the_files_are_what_the_code_makes(name):
    """Regenerate with ``python -m net.tools.vectors`` when the protocol changes on purpose."""
    assert (vectors.DIR / name).read_text(encoding="utf-8") == vectors.dumps(vectors.build()[name])


def test_canonical_encodings():
    for case in load("canonical.json")["cases"]:
        assert canonical.encode(case["value"]) == case["encoding"], case["note"]


def _party(party):
    me = Identity(Ed25519PrivateKey.from_private_bytes(party["private_key_seed"]))
    assert me.public_key == party["public_key"] and fingerprint(me.public_key) == party["fingerprint"]
    return me


def test_signed_entries_their_hashes_and_a_signed_secret_action():
    v = load("signed-entry.json")
    host, player = _party(v["host"]), _party(v["player"])
    chain = Chain(v["entries"][0]["entry"]["table"])
    for item in v["entries"]:
        entry = item["entry"]
        assert canonical.encode([v["domain"], entry]) == item["signed_bytes"]
        assert verify(host.public_key, item["sig"], item["signed_bytes"])
        assert host.sign(item["signed_bytes"]) == item["sig"]  # Ed25519 is deterministic
        signed = SignedEntry.from_wire({"entry": entry, "sig": item["sig"]})
        assert canonical.encode(signed.wire) == item["signed_entry_encoding"]
        assert hashlib.sha256(item["signed_entry_encoding"]).digest() == item["hash"]
        assert chain.problem(host.public_key, signed) is None  # seq and prev chain up
        chain.advance(signed)
    action = v["action"]
    assert hashlib.sha256(action["hidden_preimage"]).digest() == action["hidden"]
    assert hidden_digest(action["nonce"], action["full"]) == action["hidden"]
    assert action["body"]["head"] == chain.head and action["body"]["hidden"] == action["hidden"]
    assert canonical.encode([action["domain"], action["body"]]) == action["signed_bytes"]
    assert verify(player.public_key, action["sig"], action["signed_bytes"])


def test_a_commitment():
    v = load("commitment.json")
    layout = (b"parlour-commit/1" + v["table"].encode() + b"\x00" + v["hand"].to_bytes(8, "big")
              + v["secret"])
    assert v["preimage"] == layout and hashlib.sha256(layout).digest() == v["commitment"]
    assert fairdeal.commitment(v["table"], v["hand"], v["secret"]) == v["commitment"]


def test_a_seed_and_the_deals_it_gives():
    v = load("seed-and-deal.json")
    assert hashlib.sha256(v["preimage"]).digest() == v["seed"]
    randomness = {c["seat"]: c["random"] for c in v["contributions"]}
    assert fairdeal.seed(v["table"], v["hand"], v["secret"], randomness) == v["seed"]
    for deal in v["deals"]:
        g = deal["game"]
        game = make_game(g["game"], g["ruleset"], g["mode"], g["options"])
        state = game.deal(v["seed"], deal["dealer"])
        assert [[game.deck.name(c) for c in h] for h in state.dealt] == deal["hands"]
        assert [game.deck.name(c) for c in state.spare] == deal["spare"]
        assert getattr(state, "redeals", 0) == deal["redeals"]
        assert state.state_hash() == deal["state_hash"]


def test_a_public_view_and_its_state_hash():
    v = load("public-view.json")
    g = v["game"]
    game = make_game(g["game"], g["ruleset"], g["mode"], g["options"])
    state = game.deal(v["seed"], v["dealer"])
    for action in v["actions"]:
        parsed = game.action_from_json(action["full"])
        assert game.action_to_json(parsed) == action["full"]
        assert game.action_to_json(parsed, public=True) == action["public"]
        state.apply(parsed)
    assert state.public_view() == v["public_view"]
    assert canonical.encode(v["public_view"]) == v["encoding"]
    assert hashlib.sha256(v["encoding"]).hexdigest() == v["state_hash"] == state.state_hash()
    seat = v["private_view"]["seat"]
    assert state.view(seat) == v["private_view"]["view"]


def test_what_the_host_sent_a_seat_and_the_players_report_of_it():
    v = load("sent-and-report.json")
    host, player = _party(v["host"]), _party(v["player"])
    sent = v["sent"]
    message, body = sent["message"], sent["body"]
    entry = message["entry"]
    assert body == {"table": entry["entry"]["table"], "seq": entry["entry"]["seq"],
                    "entry": hashlib.sha256(canonical.encode(entry)).digest(), "seat": 1,
                    "key": player.public_key, "live": True, "public": None,
                    "events": message["events"], "private": message["private"]}
    assert canonical.encode([sent["domain"], body]) == sent["signed_bytes"]
    assert verify(host.public_key, sent["sig"], sent["signed_bytes"]) and message["sent"] == sent["sig"]
    report = v["report"]
    assert canonical.encode([report["domain"], report["body"]]) == report["signed_bytes"]
    assert verify(player.public_key, report["sig"], report["signed_bytes"])
    assert report["body"]["sent"]["message"] == message and report["body"]["seat"] == 1


def test_a_shown_hand_opens_with_libsodium_alone_and_not_with_the_hosts_key():
    """"Show my cards to…": from the two parties' seeds, libsodium's key conversion and
    crypto_box give the shared key and open every case to its plaintext; the host's key
    opens none."""
    import nacl.bindings as sodium
    import nacl.exceptions

    v = load("shown-hand.json")
    assert (vectors.DIR / "shown-hand.json").read_text(encoding="utf-8") == \
        vectors.dumps(vectors.shown_hand_vectors())

    def curve(party):
        public, secret = sodium.crypto_sign_seed_keypair(party["private_key_seed"])
        assert public == party["public_key"]
        return sodium.crypto_sign_ed25519_sk_to_curve25519(secret), sodium.crypto_sign_ed25519_pk_to_curve25519(public)

    (player_secret, player_public), (watcher_secret, watcher_public) = curve(v["player"]), curve(v["watcher"])
    host_secret, _ = curve(v["host"])
    assert player_secret == v["player_x25519_secret"] and watcher_public == v["watcher_x25519_public"]
    assert sodium.crypto_box_beforenm(watcher_public, player_secret) == v["shared_key"]
    assert sodium.crypto_box_beforenm(player_public, watcher_secret) == v["shared_key"]
    for case in v["cases"]:
        assert canonical.encode([v["domain"], case["body"]]) == case["plaintext"], case["note"]
        nonce, sealed = case["sealed"][:24], case["sealed"][24:]
        assert nonce == case["nonce"]
        assert sodium.crypto_box_open(sealed, nonce, player_public, watcher_secret) == case["plaintext"]
        with pytest.raises(nacl.exceptions.CryptoError):
            sodium.crypto_box_open(sealed, nonce, player_public, host_secret)


def test_table_talk_signed_by_its_speakers():
    """Each talk message's signed bytes are ``canonical([domain, body])``, signed by its
    speaker's key; a client's checks take all three, in order (the mute only from the host)."""
    from net.trust import talk
    v = load("talk.json")
    host, player = _party(v["host"]), _party(v["player"])
    keys = {"host": host, "player 1": player}
    for item in v["messages"]:
        speaker = keys[item["speaker"]]
        assert item["body"]["key"] == speaker.public_key and item["body"]["table"] == v["table"]
        assert canonical.encode([v["domain"], item["body"]]) == item["signed_bytes"]
        assert verify(speaker.public_key, item["sig"], item["signed_bytes"])
        assert speaker.sign(item["signed_bytes"]) == item["sig"]
        assert item["message"] == {"type": "talk", "signed": {"body": item["body"], "sig": item["sig"]}}
    seated = {player.public_key: talk.Speaker(player.public_key, "Ann", 1),
              host.public_key: talk.Speaker(host.public_key, "Host", 0)}
    desk = talk.TalkDesk(lambda: v["table"], lambda: host.public_key, seated.get, relays=False)
    checked = [desk.check(item["message"]["signed"], now=float(i)) for i, item in enumerate(v["messages"])]
    assert [c.kind for c in checked] == ["say", "react", "mute"], checked
    assert desk.muted(player.public_key)
