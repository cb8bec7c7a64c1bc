"""``parlour --self-test``: prove that this installation works, without a screen.

Meant for the packaged bundle (``make check-package`` runs it on every build) and for
anyone whose Parlour misbehaves: each check exercises one layer the way the app does
and prints one line — ``ok <name> (<ms> ms)`` or ``FAIL <name>: <reason>`` — and the
exit status is 0 only if every check passed. What it proves about a frozen bundle:
every module the app needs was collected, the compiled libraries load (Qt, msgpack,
cryptography, zeroconf's Cython codecs, sqlite3 for the host's log, ssl), and assets/
is where app/assets.py looks for it. Its first line names the release of each library
the installation carries (``LIBRARIES``), so a report of a problem says which build it is.

Nothing leaves the machine and nothing of the user's is touched: Qt runs on the
offscreen platform (set here, before Qt starts), network traffic stays on 127.0.0.1,
and identities and settings live in a temporary directory.

``PARLOUR_EXIT_WHEN_SHOWN=1 parlour`` (see ``arm_exit_when_shown``) is the start-up
timer: the app quits as soon as its main window is shown and prints how long that took
from the moment the process started.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

LOOPBACK = "127.0.0.1"
# DNS header flags and a record type (RFC 1035 4.1.1, 3.2.2), for the advert's round trip.
DNS_RESPONSE, DNS_AUTHORITATIVE, DNS_TYPE_TXT = 0x8000, 0x0400, 16
TIMEOUT = 30.0  # seconds for the loopback hand; it takes well under one

# The libraries Parlour calls itself, then the ones it plays across houses with
# (magic-wormhole and its stack), by distribution name. The bundle keeps their metadata
# (packaging/manifest.py), which is where their versions are read from.
LIBRARIES = ("PySide6-Essentials", "shiboken6", "zeroconf", "msgpack", "cryptography",
             "PyNaCl", "coincurve", "platformdirs", "magic-wormhole", "Twisted", "autobahn", "txaio",
             "spake2", "noiseprotocol")


# -- the checks --------------------------------------------------------------------------

def check_libraries() -> str:
    """The release of each library in ``LIBRARIES``, as installed; fails naming any
    whose metadata is missing (a bundle that lost it could not say what it carries)."""
    from importlib.metadata import PackageNotFoundError, version

    found, missing = [], []
    for name in LIBRARIES:
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            missing.append(name)
    if missing:
        raise AssertionError(f"no version found for {', '.join(missing)}")
    return ", ".join(found)


def check_engine() -> str:
    """A seeded bot hand of every variant, replayed from its hand record (as JSON)."""
    from engine import variants
    from engine.records import record_from_state, replay, result_of

    count = 0
    for title, ruleset, mode in variants():
        state = _bot_hand(title, ruleset, mode, seed=f"self-test {title} {ruleset} {mode}")
        record = json.loads(json.dumps(record_from_state(state)))
        if replay(record) != result_of(state):
            raise AssertionError(f"{title}/{ruleset}: the replayed record scores differently")
        count += 1
    return f"{count} variants"


def _bot_hand(title: str, ruleset: str | None, mode: str | None, seed: str):
    from engine import make_game
    from engine.bots.random_bot import RandomBot

    game = make_game(title, ruleset, mode)
    digest = hashlib.sha256(seed.encode()).digest()
    state, bot = game.deal(digest, dealer=0), RandomBot(digest)
    while not state.is_over:
        seat = state.to_act()[0]
        state.apply(bot.choose(state, seat))
    return state


def check_crypto() -> str:
    """Ed25519 sign/verify (a tampered message fails) and TLS contexts from an identity."""
    from net.wire.identity import Identity, verify
    from net.wire.transport import client_context, server_context

    identity = Identity.generate("Self-test")
    signature = identity.sign(b"parlour self-test")
    if not verify(identity.public_key, signature, b"parlour self-test"):
        raise AssertionError("a good signature did not verify")
    if verify(identity.public_key, signature, b"parlour self-tesT"):
        raise AssertionError("a signature verified for the wrong message")
    server_context(identity)
    client_context()
    return identity.fingerprint


def check_group() -> str:
    """The private deal's group (secp256k1, coincurve's libsecp256k1 and its cffi
    backend): a five-card deck shuffled and its proof checked; swapped cards refused."""
    from net.trust.deals.mental import deck as decks
    from net.trust.deals.mental import shuffle_proof
    from net.trust.deals.mental.group import Scalar, base_mul

    key = base_mul(Scalar.from_hash(b"parlour self-test", b"joint key"))
    size, seed, context = 5, bytes(32), b"parlour self-test"
    source = decks.initial_deck(size, key)
    result = decks.shuffle(source, decks.pads(size, key, seed), seed)
    proof = shuffle_proof.prove(shuffle_proof.prepare(size, seed, bytes(64), context), key,
                                source, result, context)
    if not shuffle_proof.verify(key, source, result, proof, context):
        raise AssertionError("an honest shuffle's proof did not verify")
    if shuffle_proof.verify(key, source, [result[1], result[0], *result[2:]], proof, context):
        raise AssertionError("a shuffle's proof verified for other cards")
    return f"secp256k1, a {size}-card shuffle proven"


def check_framing() -> str:
    """A frame round trip, and garbage refused with ProtocolError."""
    from net.wire import framing

    msg = {"type": "error", "reason": "self-test ♠"}
    data = framing.encode(msg)
    if framing.parse(data[4:]) != msg or framing.frame_length(data[:4]) != len(data) - 4:
        raise AssertionError("a frame did not survive encode/parse")
    try:
        framing.parse(b"\xc1 not msgpack")
    except framing.ProtocolError:
        return f"{len(data)} bytes"
    raise AssertionError("garbage was accepted")


def check_zeroconf() -> str:
    """A table advert through zeroconf's DNS codec and back — no sockets. (The bundle
    runs zeroconf's pure-Python modules, not its compiled ones: packaging/lean.py.)"""
    import socket

    from zeroconf import DNSIncoming, DNSOutgoing, ServiceInfo
    from zeroconf.asyncio import AsyncZeroconf  # noqa: F401 - the lobby's import

    from net.constants import SERVICE_TYPE
    from net.adverts import TableAdvert, table_info

    advert = TableAdvert(name="Self-test", game="rook", ruleset="rook", mode="",
                         host="Ada", fingerprint="3f9a-07c2-b1d4-e608", port=4567,
                         open_seats=3)
    name = f"{advert.instance_name()}.{SERVICE_TYPE}"
    info = ServiceInfo(SERVICE_TYPE, name, port=advert.port, properties=advert.txt(),
                       addresses=[socket.inet_aton(LOOPBACK)], server="self-test.local.")
    out = DNSOutgoing(DNS_RESPONSE | DNS_AUTHORITATIVE)
    for record in (info.dns_pointer(), info.dns_service(), info.dns_text()):
        out.add_answer_at_time(record, 0)
    answers = DNSIncoming(out.packets()[0]).answers()
    texts = [a.text for a in answers if a.type == DNS_TYPE_TXT]
    if texts != [info.text]:
        raise AssertionError("the TXT record did not survive the DNS codec")
    table = table_info(name, info.properties, [LOOPBACK], advert.port)
    if (table["game"], table["open_seats"]) != (advert.game, advert.open_seats):
        raise AssertionError(f"the advert read back wrong: {table}")
    return f"{len(answers)} records"


def check_assets() -> str:
    """assets/ found where app/assets.py looks, a card face and the icon rendered."""
    from PySide6.QtCore import QSize

    from app.assets import CardArt, app_icon, asset_root, card_file, deck_for
    from engine import make_game

    root = asset_root()
    deck = deck_for(make_game("horseshoes").info)
    card = card_file(deck.art, "AS")
    if not card.exists():
        raise AssertionError(f"no card art at {card}")
    face = CardArt().face(deck, "AS", QSize(84, 118))
    if _colours(face.toImage()) < 3:
        raise AssertionError("the card face rendered blank")
    if app_icon().pixmap(64, 64).isNull():
        raise AssertionError("the app icon did not load (SVG icon engine missing?)")
    return str(root)


def check_window(home: Path) -> str:
    """The main window (lobby) drawn once offscreen; the grab must not be blank."""
    from PySide6.QtWidgets import QApplication

    from app.lobby import StaticDirectory
    from app.settings import Settings
    from app.window import MainWindow

    settings = Settings.at(str(home / "settings.ini"))
    settings.display_name = "Self-test"
    window = MainWindow(settings, directory=StaticDirectory(), network=None)
    try:
        window.show()
        QApplication.processEvents()
        image = window.grab().toImage()
        if image.isNull() or image.width() == 0:
            raise AssertionError("the window grab is empty")
        if _colours(image) < 3:
            raise AssertionError("the window grab is a single flat colour")
        return f"{image.width()}x{image.height()}"
    finally:
        window.close()
        window.deleteLater()
        QApplication.processEvents()


def _colours(image, samples: int = 40) -> int:
    """How many different colours a grid of samples across ``image`` finds."""
    width, height = image.width(), image.height()
    return len({image.pixel(x * width // samples, y * height // samples)
                for x in range(samples) for y in range(samples)})


def check_locale_text() -> str:
    """Qt's ICU paths (the Linux bundle ships trimmed ICU data): collation, case; and
    the bundle's Python in UTF-8 mode (it carries no legacy East Asian codecs)."""
    from PySide6.QtCore import QCollator, QLocale

    words = sorted(["zebra", "Äpfel", "apple"], key=QCollator(QLocale("en_GB")).sortKey)
    if words[-1] != "zebra":
        raise AssertionError(f"collation sorted {words}")
    if QLocale("de_DE").toUpper("straße") != "STRASSE":
        raise AssertionError("locale-aware upper case failed")
    if getattr(sys, "frozen", False) and not sys.flags.utf8_mode:
        raise AssertionError("the bundle's Python is not in UTF-8 mode (parlour.spec)")
    return " < ".join(words) + (", UTF-8 mode" if sys.flags.utf8_mode else "")


def check_loopback(home: Path) -> str:
    """A hosted table on 127.0.0.1 (net.sessions.host_session) and a guest (net.sessions.guest_session)
    whose bot plays seat 1 for one hand: pinned TLS, the signed log, the fair deal,
    and the guest's replay of the revealed hand must all check out."""
    summary, result = asyncio.run(asyncio.wait_for(_network_hand(home), TIMEOUT))
    if summary["fatal"] or summary["alerts"] or summary["errors"]:
        problem = summary["fatal"] or summary["alerts"] or summary["errors"]
        raise AssertionError(f"the guest reported {str(problem)[:200]}")
    if summary["hands_verified"] != 1 or summary["scores"] != result["scores"]:
        raise AssertionError(f"the guest verified {summary['hands_verified']} hands, "
                             f"scores {summary['scores']} vs the host's {result['scores']}")
    return f"hand verified by the guest, {result['head'] + 1} log entries"


async def _network_hand(home: Path) -> tuple[dict, dict]:
    from net.sessions.guest_session import GuestCore
    from net.sessions.host_session import HostCore
    from net.wire.identity import Identity

    host_id, guest_id = Identity.generate("Host"), Identity.generate("Guest")
    # Random bots everywhere: the check is about the plumbing, not about good play.
    host = HostCore(host_id, {"game": "somerset", "name": "Self-test"},
                    state_dir=home / "host", bind=LOOPBACK, bots={2: "random", 3: "random"},
                    you=0, autoplay=True, auto_start=True, hands=1, stand_in_level="random")
    await host.start()
    try:
        guest = GuestCore(guest_id, address=LOOPBACK, port=host.port,
                          fingerprint=host_id.fingerprint, bot_level="random",
                          state_dir=home / "guest", seat=1)
        summary = await guest.run()
        await host.finished.wait()
    finally:
        await host.stop()
    return summary, host.result


# -- running them ------------------------------------------------------------------------

def checks(home: Path) -> list[tuple[str, Callable[[], str]]]:
    return [
        ("libraries", check_libraries),
        ("engine", check_engine),
        ("crypto", check_crypto),
        ("group", check_group),
        ("framing", check_framing),
        ("zeroconf", check_zeroconf),
        ("assets", check_assets),
        ("locale-text", check_locale_text),
        ("window", lambda: check_window(home)),
        ("loopback", lambda: check_loopback(home)),
    ]


def run_checks(selected: list[tuple[str, Callable[[], str]]], out=None) -> int:
    """Run each check, print its line; the number that failed."""
    out = out or sys.stdout
    failed = 0
    for name, check in selected:
        start = time.perf_counter()
        try:
            detail = check()
        except Exception as exc:  # noqa: BLE001 - any failure is reported, not raised
            failed += 1
            reason = str(exc).splitlines()[0] if str(exc) else ""
            print(f"FAIL {name}: {type(exc).__name__}: {reason}", file=out, flush=True)
            continue
        ms = (time.perf_counter() - start) * 1000
        suffix = f" — {detail}" if detail else ""
        print(f"ok {name} ({ms:.0f} ms){suffix}", file=out, flush=True)
    return failed


def main(argv: list[str] | None = None) -> int:
    # Forced, not defaulted: the self-test must never open a window on anyone's screen.
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(["parlour", "--self-test"])  # noqa: F841
    saved_home = os.environ.get("PARLOUR_HOME")
    with tempfile.TemporaryDirectory(prefix="parlour-self-test-") as tmp:
        os.environ["PARLOUR_HOME"] = tmp  # any identity made goes here, not the user's
        try:
            selected = checks(Path(tmp))
            failed = run_checks(selected)
        finally:
            if saved_home is None:
                os.environ.pop("PARLOUR_HOME", None)
            else:
                os.environ["PARLOUR_HOME"] = saved_home
    total = len(selected)
    print(f"self-test: {total - failed} of {total} checks passed", flush=True)
    return 1 if failed else 0


# -- start-up timer ----------------------------------------------------------------------

def seconds_since_process_start() -> float | None:
    """Seconds since this process was started (exec), from /proc; None elsewhere."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22: starttime
        return time.clock_gettime(time.CLOCK_BOOTTIME) - started
    except (OSError, ValueError, IndexError, AttributeError):
        return None


_KEEP_ALIVE: list = []  # Python objects Qt calls back into after the function that made them


def arm_exit_when_shown(argv: list[str]) -> None:
    """Quit the app the moment its main window is first shown, printing
    ``shown <ms> ms after exec`` (``PARLOUR_EXIT_WHEN_SHOWN=1``; the start-up timer).

    Creates the QApplication early (app.main reuses it) and watches for the first
    Show event of a QMainWindow; the first-start dialog does not count, so time it
    with a settings file that already has a name.
    """
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    fallback_start = time.perf_counter()
    app = QApplication.instance() or QApplication(["parlour", *argv])

    class _Watcher(QObject):
        def eventFilter(self, obj, event):  # noqa: N802 - Qt's name
            if event.type() == QEvent.Type.Show and isinstance(obj, QMainWindow):
                elapsed = seconds_since_process_start()
                how = "after exec"
                if elapsed is None:
                    elapsed, how = time.perf_counter() - fallback_start, "after start-up began"
                print(f"shown {elapsed * 1000:.0f} ms {how}", flush=True)
                app.removeEventFilter(self)
                QTimer.singleShot(0, app.quit)
            return False

    watcher = _Watcher(app)
    _KEEP_ALIVE.append(watcher)  # as long as the app: its filter is called from Qt
    app.installEventFilter(watcher)
