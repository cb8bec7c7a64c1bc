"""Who this installation is: an Ed25519 key pair, a display name and a fingerprint.

The key pair is made once per installation and kept in the user's data directory
(``platformdirs.user_data_dir("Parlour")``, or ``$PARLOUR_HOME``, or a directory given
explicitly, which is what tests do). The private key file is mode 0600. The display
name lives next to it in a small JSON file and may change at any time; the key never
does, because other players recognise you (and the host re-seats you after a drop) by
it.

A damaged key file is never replaced silently: that would quietly turn you into a
stranger at every table. ``load_identity`` raises ``IdentityError`` saying what is wrong
and what to do; ``reset_identity`` moves the damaged file aside and makes a new key.

The fingerprint is the first 8 bytes of SHA-256 over the raw 32-byte public key, written
as four groups of four hex digits (``3f9a-07c2-b1d4-e608``) so two people can compare it
aloud.

``KnownHosts`` remembers host fingerprints by address for trust-on-first-use joins.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import time
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

import nacl.bindings
import nacl.exceptions
import platformdirs
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from net.constants import (
    APP_NAME,
    FINGERPRINT_BYTES,
    HOME_ENV,
    KEY_FILE,
    KNOWN_HOSTS_FILE,
    MAX_NAME_CHARS,
    PROFILE_FILE,
)

PUBLIC_KEY_BYTES = 32
SIGNATURE_BYTES = 64
_BYTES = (bytes, bytearray)
_HEX16 = re.compile(r"[0-9a-f]{%d}" % (2 * FINGERPRINT_BYTES))


class IdentityError(Exception):
    """The identity on disk cannot be used; the message says what to do."""


# -- the same keys for encryption (X25519) ----------------------------------------------

def curve_secret(identity: "Identity") -> bytes:
    """``identity``'s Ed25519 key as an X25519 secret (libsodium's conversion, as age and
    others make it): the other half of a key agreement with a player's public key."""
    seed = identity.private_key.private_bytes(serialization.Encoding.Raw,
                                              serialization.PrivateFormat.Raw,
                                              serialization.NoEncryption())
    _pk, sk = nacl.bindings.crypto_sign_seed_keypair(seed)
    return nacl.bindings.crypto_sign_ed25519_sk_to_curve25519(sk)


def curve_public(public_key: bytes) -> bytes:
    """A player's Ed25519 public key as its X25519 public key (libsodium's conversion);
    IdentityError if it is no key."""
    try:
        return nacl.bindings.crypto_sign_ed25519_pk_to_curve25519(bytes(public_key))
    except (nacl.exceptions.CryptoError, TypeError, ValueError) as exc:
        raise IdentityError(f"not a public key: {exc}") from None


# -- fingerprints & signatures --------------------------------------------------------

def fingerprint(public_key: bytes) -> str:
    """``3f9a-07c2-b1d4-e608`` for a raw 32-byte Ed25519 public key."""
    if len(public_key) != PUBLIC_KEY_BYTES:
        raise ValueError("an Ed25519 public key is 32 bytes")
    return _fingerprint(bytes(public_key))


@lru_cache(maxsize=1024)
def _fingerprint(public_key: bytes) -> str:
    """(Remembered: the host asks for its players' on every entry and acknowledgement.)"""
    digest = hashlib.sha256(public_key).hexdigest()[: 2 * FINGERPRINT_BYTES]
    return "-".join(digest[i:i + 4] for i in range(0, len(digest), 4))


def normalize_fingerprint(text: str) -> str:
    """Canonical form of a fingerprint a person typed (any case, spaces, ``:`` or ``-``).

    Raises ValueError when it is not 16 hex digits.
    """
    compact = re.sub(r"[\s:\-]", "", text).lower()
    if not _HEX16.fullmatch(compact):
        raise ValueError(f"{text!r} is not a Parlour fingerprint (16 hex digits)")
    return "-".join(compact[i:i + 4] for i in range(0, len(compact), 4))


def same_fingerprint(a: str, b: str) -> bool:
    """True when two fingerprints (as typed or as shown) name the same key."""
    try:
        return normalize_fingerprint(a) == normalize_fingerprint(b)
    except ValueError:
        return False


def verify(public_key: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is ``public_key``'s Ed25519 signature over exactly ``data``.

    Never raises for bad input: a malformed key or signature is simply not valid.

    libsodium's check (PyNaCl, already here for shown hands and codes) rather than OpenSSL's:
    a peer verifies two signatures per move, and libsodium takes half the time. It is
    the stricter of the two — it also refuses a small-order key or ``R`` and a
    non-canonical ``S`` or key, which no honest signer makes — so whatever it accepts,
    OpenSSL accepts too (the same equation, the same bytes of ``R`` compared).
    """
    if not all(isinstance(v, _BYTES) for v in (public_key, signature, data)):
        return False
    if len(public_key) != PUBLIC_KEY_BYTES or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        nacl.bindings.crypto_sign_open(bytes(signature) + bytes(data), bytes(public_key))
    except nacl.exceptions.CryptoError:  # BadSignatureError, and its ValueError/TypeError
        return False
    return True


# -- the identity ---------------------------------------------------------------------

@dataclass(frozen=True, eq=False)
class Identity:
    """An Ed25519 key pair and the name its owner goes by."""

    private_key: Ed25519PrivateKey
    name: str = "Player"

    @classmethod
    def generate(cls, name: str = "Player") -> "Identity":
        """A fresh in-memory identity (tests, bots); see ``load_identity`` for the real one."""
        return cls(Ed25519PrivateKey.generate(), clean_name(name))

    @cached_property
    def public_key(self) -> bytes:
        """The raw 32-byte public key."""
        return self.private_key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw)

    @cached_property
    def _sodium_key(self) -> bytes:
        """The key as libsodium signs with it (its seed and public key, 64 bytes)."""
        seed = self.private_key.private_bytes(serialization.Encoding.Raw,
                                              serialization.PrivateFormat.Raw,
                                              serialization.NoEncryption())
        return nacl.bindings.crypto_sign_seed_keypair(seed)[1]

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def sign(self, data: bytes) -> bytes:
        """64-byte Ed25519 signature over exactly ``data``.

        libsodium's, as ``verify`` is: Ed25519 is deterministic, so the bytes are
        OpenSSL's, in about half the time — the host signs once for every seat it sends
        an entry to (``net.trust.sent``), on a played card's path."""
        return nacl.bindings.crypto_sign(bytes(data), self._sodium_key)[:SIGNATURE_BYTES]

    def with_name(self, name: str) -> "Identity":
        return Identity(self.private_key, clean_name(name))

    def private_pem(self) -> bytes:
        return self.private_key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption())


def clean_name(name: str) -> str:
    """A display name without control characters, trimmed to a sensible length."""
    cleaned = "".join(ch for ch in str(name) if ch.isprintable()).strip()
    return cleaned[:MAX_NAME_CHARS] or "Player"


def data_dir(directory: str | os.PathLike | None = None) -> Path:
    """Where the identity lives: ``directory``, else ``$PARLOUR_HOME``, else the platform's
    user data directory."""
    if directory is not None:
        return Path(directory)
    if os.environ.get(HOME_ENV):
        return Path(os.environ[HOME_ENV])
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def load_identity(directory: str | os.PathLike | None = None,
                  default_name: str = "Player") -> Identity:
    """This installation's identity, made on first use.

    Raises IdentityError (with what to do) when the key file exists but is unusable.
    """
    home = data_dir(directory)
    key_path = home / KEY_FILE
    created = not key_path.exists()
    if created:
        key = Ed25519PrivateKey.generate()
        _write_private(key_path, Identity(key).private_pem())
    else:
        key = _read_key(key_path)
    identity = Identity(key, _read_name(home / PROFILE_FILE, default_name))
    if created or not (home / PROFILE_FILE).exists():
        save_name(identity, home)  # keep the profile's key and fingerprint current
    return identity


def save_name(identity: Identity, directory: str | os.PathLike | None = None) -> None:
    """Store the display name (and, for people reading the file, key and fingerprint)."""
    profile = {"name": identity.name, "public_key": identity.public_key.hex(),
               "fingerprint": identity.fingerprint}
    _write_private(data_dir(directory) / PROFILE_FILE,
                   json.dumps(profile, indent=2).encode() + b"\n")


def reset_identity(directory: str | os.PathLike | None = None,
                   default_name: str = "Player") -> Identity:
    """Move a damaged key file aside (``identity.key.damaged-<time>``) and make a new key.

    Other players will see a new fingerprint; the old file is kept in case it can be
    repaired.
    """
    key_path = data_dir(directory) / KEY_FILE
    if key_path.exists():
        key_path.rename(key_path.with_name(f"{KEY_FILE}.damaged-{int(time.time())}"))
    return load_identity(directory, default_name)


def _read_key(path: Path) -> Ed25519PrivateKey:
    try:
        if stat.S_IMODE(path.stat().st_mode) & 0o077:
            # Someone (a backup restore, a copy) loosened it; tighten rather than refuse.
            path.chmod(0o600)
        data = path.read_bytes()
        key = serialization.load_pem_private_key(data, password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise IdentityError(_damaged(path, exc)) from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise IdentityError(_damaged(path, "it holds a key that is not Ed25519"))
    return key


def _damaged(path: Path, why: object) -> str:
    return (f"Parlour's identity key at {path} cannot be read ({why}). "
            "If you have a backup of this file, put it back. Otherwise choose "
            "'Make a new identity' (or delete the file) and Parlour will create a new "
            "key; other players will see a new fingerprint for you.")


def _read_name(path: Path, default: str) -> str:
    try:
        name = json.loads(path.read_text(encoding="utf-8")).get("name", default)
    except (OSError, ValueError, AttributeError):
        # The name is cosmetic: a damaged profile just falls back to the default.
        return clean_name(default)
    return clean_name(name)


def _write_private(path: Path, data: bytes) -> None:
    """Write ``data`` atomically to ``path`` with mode 0600 (never briefly world-readable)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.chmod(tmp, 0o600)  # in case an umask or an existing tmp file interfered
    os.replace(tmp, path)


# -- trust on first use ---------------------------------------------------------------

class KnownHosts:
    """Host fingerprints remembered by address (``"10.0.0.5:4567"``), like ssh's
    known_hosts: the first join to an address trusts and stores what it sees; later joins
    must match."""

    def __init__(self, directory: str | os.PathLike | None = None):
        self.path = data_dir(directory) / KNOWN_HOSTS_FILE

    def _load(self) -> dict[str, str]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return {k: v for k, v in data.items() if isinstance(v, str)} \
            if isinstance(data, dict) else {}

    def get(self, address: str) -> str | None:
        return self._load().get(address)

    def remember(self, address: str, fp: str) -> None:
        hosts = self._load()
        hosts[address] = normalize_fingerprint(fp)
        _write_private(self.path, json.dumps(hosts, indent=2, sort_keys=True).encode())

    def forget(self, address: str) -> None:
        hosts = self._load()
        if hosts.pop(address, None) is not None:
            _write_private(self.path, json.dumps(hosts, indent=2, sort_keys=True).encode())
