"""Identity: persistence, file modes, fingerprints, signatures, damaged files, TOFU."""

import json
import os
import random
import stat

import pytest
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from net.wire import identity as ident
from net.constants import HOME_ENV, KEY_FILE, PROFILE_FILE
from net.wire.identity import Identity, IdentityError, KnownHosts


def mode(path):
    return stat.S_IMODE(path.stat().st_mode)


def test_created_once_then_reloaded(tmp_path):
    first = ident.load_identity(tmp_path, default_name="Ada")
    again = ident.load_identity(tmp_path)
    assert again.public_key == first.public_key
    assert again.fingerprint == first.fingerprint
    assert again.name == "Ada"


def test_key_file_is_private(tmp_path):
    ident.load_identity(tmp_path)
    assert mode(tmp_path / KEY_FILE) == 0o600
    assert mode(tmp_path / PROFILE_FILE) == 0o600


def test_loosened_key_file_is_tightened(tmp_path):
    ident.load_identity(tmp_path)
    (tmp_path / KEY_FILE).chmod(0o644)
    ident.load_identity(tmp_path)
    assert mode(tmp_path / KEY_FILE) == 0o600


def test_home_env_override(tmp_path, monkeypatch):
    monkeypatch.setenv(HOME_ENV, str(tmp_path / "home"))
    me = ident.load_identity()
    assert (tmp_path / "home" / KEY_FILE).exists()
    assert ident.load_identity().public_key == me.public_key


def test_display_name_saved_alongside(tmp_path):
    me = ident.load_identity(tmp_path).with_name("Bea\x07 Smith")
    ident.save_name(me, tmp_path)
    profile = json.loads((tmp_path / PROFILE_FILE).read_text())
    assert profile["name"] == "Bea Smith"
    assert profile["fingerprint"] == me.fingerprint
    assert ident.load_identity(tmp_path).name == "Bea Smith"


def test_damaged_profile_falls_back_to_default_name(tmp_path):
    me = ident.load_identity(tmp_path)
    (tmp_path / PROFILE_FILE).write_text("{not json")
    again = ident.load_identity(tmp_path, default_name="Cy")
    assert again.public_key == me.public_key and again.name == "Cy"


@pytest.mark.parametrize("content", [b"", b"garbage\x00\xff", b"-----BEGIN PRIVATE KEY-----\nAAAA\n"])
def test_damaged_key_gives_clear_error(tmp_path, content):
    ident.load_identity(tmp_path)
    (tmp_path / KEY_FILE).write_bytes(content)
    with pytest.raises(IdentityError) as err:
        ident.load_identity(tmp_path)
    text = str(err.value)
    assert str(tmp_path / KEY_FILE) in text
    assert "new" in text and "fingerprint" in text  # says what to do and what it costs
    # Still damaged on the next start: the same clear error, not a silent new key.
    with pytest.raises(IdentityError):
        ident.load_identity(tmp_path)


def test_non_ed25519_key_refused(tmp_path):
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption())
    tmp_path.joinpath(KEY_FILE).write_bytes(pem)
    with pytest.raises(IdentityError, match="not Ed25519"):
        ident.load_identity(tmp_path)


def test_reset_moves_damaged_key_aside(tmp_path):
    old = ident.load_identity(tmp_path)
    (tmp_path / KEY_FILE).write_bytes(b"broken")
    new = ident.reset_identity(tmp_path)
    assert new.public_key != old.public_key
    kept = [p for p in os.listdir(tmp_path) if p.startswith(KEY_FILE + ".damaged-")]
    assert len(kept) == 1 and (tmp_path / kept[0]).read_bytes() == b"broken"
    assert ident.load_identity(tmp_path).public_key == new.public_key


def test_fingerprint_format_and_stability():
    key = bytes(range(32))
    fp = ident.fingerprint(key)
    assert fp == ident.fingerprint(key)
    # First 8 bytes of SHA-256(key), as four groups of four hex digits.
    import hashlib
    assert fp.replace("-", "") == hashlib.sha256(key).hexdigest()[:16]
    assert [len(g) for g in fp.split("-")] == [4, 4, 4, 4]


def test_fingerprint_as_typed():
    fp = Identity.generate().fingerprint
    typed = fp.replace("-", " ").upper()
    assert ident.normalize_fingerprint(typed) == fp
    assert ident.same_fingerprint(typed, fp)
    assert not ident.same_fingerprint("nonsense", fp)
    with pytest.raises(ValueError):
        ident.normalize_fingerprint("1234")


def test_sign_and_verify_exact_bytes():
    me = Identity.generate()
    sig = me.sign(b"play 8/8")
    assert ident.verify(me.public_key, sig, b"play 8/8")
    assert not ident.verify(me.public_key, sig, b"play 8/8 ")
    assert not ident.verify(Identity.generate().public_key, sig, b"play 8/8")
    assert not ident.verify(me.public_key[:31], sig, b"play 8/8")
    assert not ident.verify(me.public_key, sig[:63], b"play 8/8")
    assert not ident.verify(b"\xff" * 32, b"\x00" * 64, b"x")  # malformed, no exception


def test_signing_with_libsodium_makes_openssls_bytes():
    """Ed25519 is deterministic: ``sign`` (libsodium's, for speed) gives exactly the
    signature OpenSSL makes with the same key, for any data, from a copy too."""
    me = Identity.generate()
    for data in (b"", b"play 8/8", bytes(range(256)) * 9):
        assert me.sign(data) == me.private_key.sign(data)
        assert me.with_name("Someone else").sign(data) == me.sign(data)


def _openssl_verifies(key: bytes, sig: bytes, data: bytes) -> bool:
    """The check ``verify`` made before it used libsodium: OpenSSL's, via cryptography."""
    try:
        Ed25519PublicKey.from_public_bytes(key).verify(sig, data)
    except (InvalidSignature, ValueError):
        return False
    return True


def _flip(data: bytes, bit: int) -> bytes:
    return bytes(b ^ (1 << bit % 8) if i == bit // 8 else b for i, b in enumerate(data))


def test_verify_agrees_with_openssl():
    """Every signature made verifies, and one bit changed in the key, the signature or
    the signed bytes fails, on libsodium exactly as on OpenSSL."""
    rng = random.Random(14)
    for _ in range(30):
        me = Identity.generate()
        data = rng.randbytes(rng.randrange(1, 300))
        key, sig = me.public_key, me.sign(data)
        cases = [(key, sig, data), (_flip(key, rng.randrange(256)), sig, data),
                 (key, _flip(sig, rng.randrange(512)), data),
                 (key, sig, _flip(data, rng.randrange(8 * len(data))))]
        assert [ident.verify(*c) for c in cases] == [_openssl_verifies(*c) for c in cases] \
            == [True, False, False, False]
    assert ident.verify(bytearray(key), bytearray(sig), bytearray(data))  # bytes-like too
    assert not ident.verify("not bytes", sig, data)


def test_known_hosts_tofu(tmp_path):
    hosts = KnownHosts(tmp_path)
    fp = Identity.generate().fingerprint
    assert hosts.get("10.0.0.5:4000") is None
    hosts.remember("10.0.0.5:4000", fp.upper())
    assert KnownHosts(tmp_path).get("10.0.0.5:4000") == fp
    assert mode(hosts.path) == 0o600
    hosts.forget("10.0.0.5:4000")
    assert hosts.get("10.0.0.5:4000") is None
