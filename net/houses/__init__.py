"""Playing across houses: a player in another town joins by a code read over the phone.

Everything else in Parlour assumes the players share a home network. This package
carries Parlour's own connections — TLS pinned to the host's key, the signed log, every
check, unchanged — between houses, with no server of Parlour's own, no port forwarding
and no account, on magic-wormhole with Dilation:

* a **code** like ``7-guitarist-revenge`` (a password-authenticated key exchange: one
  guess per code) lets the two apps find each other through a *mailbox* server, and
  agree on a key; inside that channel the host says who it is, so its key is pinned
  without anyone reading a fingerprint aloud;
* the wormhole is then *dilated* into a durable connection, direct where the routers
  allow it, else through a *transit relay* (which sees only ciphertext: Parlour's TLS
  runs inside the wormhole's own encryption); Parlour's connections are its
  subchannels.

A table's far-away players are addressed as ``house:<their key>/<table>`` (``house_address``):
wherever the sessions take an address — a guest's host, the roster of standbys, the
follower of a takeover — a house address is reached through this package
(``transport.open_connection`` asks ``service.dial``, which the sessions give the wire:
the wire sits below the houses and names no module above it),
and a server bound to ``HOUSE_BIND`` is one that only such connections reach. Later codes between two players need no one
to read them out: both derive them from a secret only those two share (``pairs``).

This module is the light part (the lobby imports it): names and addresses, the
settings. The Twisted side — imported only once a code or a house address is used,
about 0.4 s — is in ``reactor``, ``links`` and ``service``.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Sequence
from dataclasses import dataclass

from net.wire.address import HOUSE_BIND, HOUSE_PREFIX, house_address, is_house, parse_house

__all__ = ["APPID", "CodeError", "CodeWords", "WordUnfinished", "DEFAULT_MAILBOX", "DEFAULT_RELAY", "HOUSE_BIND",
           "HOUSE_PREFIX", "SETTINGS", "Settings", "check_mailbox", "check_relay",
           "code_words", "configure", "house_address", "is_house", "parse_code", "parse_house"]

#: The public servers the magic-wormhole tools use; a family or a club can run their own
#: (README: "Run your own relay") and put them in Settings.
DEFAULT_MAILBOX = "ws://relay.magic-wormhole.io:4000/v1"
DEFAULT_RELAY = "tcp:transit.magic-wormhole.io:4001"
#: The namespace of Parlour's codes on a mailbox server (other applications' codes never
#: meet ours).
APPID = "parlour/across-houses/v1"

_CODE = re.compile(r"^(\d+)-([a-z]+(?:-[a-z]+)+)$")
#: The words after the number in a code Parlour makes (``allocate_code(2)``), and how a
#: person hears their places.
CODE_WORDS = 2
_PLACES = ("straight after the number", "last")


class CodeError(ValueError):
    """Not a code Parlour can use; the message says what to type."""


class WordUnfinished(CodeError):
    """The last word is still being typed: the start of a code word, with nothing after
    it yet — not a code yet, and not a mistake (the dialog says nothing until Join)."""


#: What may stand between a code's number and words (and a space or hyphen ends a word).
_SEPARATORS = r"[\s\-_.,]+"


def parse_code(text: str, words: CodeWords | None = None, typing: bool = False) -> str:
    """A code as the library wants it, from what a person typed: spaces or several
    hyphens between the words, any case. With ``words`` (``code_words()``), each word is
    also checked against the code words, in its place: a word that is not one would spend
    the code's one try for nothing. CodeError (a sentence) otherwise. ``typing`` (the
    dialog, at each key): the last word is judged only once it is whole — a space or a
    hyphen after it, or no code word starts with it; until then WordUnfinished."""
    words_typed = [w for w in re.split(_SEPARATORS, (text or "").strip().lower()) if w]
    if not words_typed:
        raise CodeError("Type the code the host reads to you, e.g. 7-guitarist-revenge")
    if not words_typed[0].isdigit():
        raise CodeError("A code starts with the host's number, e.g. the 7 in 7-guitarist-revenge")
    if len(words_typed) != 1 + CODE_WORDS:
        raise CodeError("A code has a number and two words, e.g. 7-guitarist-revenge")
    code = "-".join(words_typed)
    if not _CODE.match(code):
        raise CodeError("After the number a code has only words, e.g. 7-guitarist-revenge")
    if words is not None:
        typed = words_typed[1:]
        if typing and not re.search(_SEPARATORS + "$", text) \
                and words.unfinished(typed[-1], place=len(typed) - 1):
            problem = words.problem(typed[:-1])  # (the words before it are whole)
            if problem:
                raise CodeError(problem)
            raise WordUnfinished(f"“{typed[-1]}” is not a whole code word yet: keep typing, "
                                 "or pick one from the list.")
        problem = words.problem(typed)
        if problem:
            raise CodeError(problem)
    return code


@dataclass(frozen=True)
class CodeWords:
    """The words codes are made of: magic-wormhole's PGP word list. A code takes its
    words from the list's two halves in turn — the first word after the number from the
    "odd" half (words of three syllables: guitarist), the next from the "even" half (two:
    revenge) — so a word can be wrong for its place as well as not a code word at all."""

    first: frozenset[str]  # the words that come straight after the number
    second: frozenset[str]  # the words that come next

    @classmethod
    def load(cls) -> CodeWords:
        """The library's own list (importing it imports the wormhole library: slow)."""
        from wormhole._wordlist import even_words_lowercase, odd_words_lowercase
        return cls(frozenset(odd_words_lowercase), frozenset(even_words_lowercase))

    def everything(self) -> list[str]:
        """Every code word, in order (what the join dialog offers as you type)."""
        return sorted(self.first | self.second)

    def for_place(self, place: int) -> list[str]:
        """The words that may stand ``place`` words after the number (0: straight after
        it), in order: what the join dialog offers for the word being typed."""
        return sorted(self.first if place % 2 == 0 else self.second)

    def unfinished(self, word: str, place: int) -> bool:
        """Whether ``word``, the last typed, may still be the start of a code word: not a
        code word in its ``place``, and some longer code word (of either half) starts
        with it."""
        here = self.first if place % 2 == 0 else self.second
        return word not in here and any(w != word and w.startswith(word)
                                        for w in self.first | self.second)

    def problem(self, words: Sequence[str]) -> str | None:
        """None when every word is a code word in its place, else a sentence about the
        first that is not."""
        for place, word in enumerate(words):
            here, there = (self.first, self.second) if place % 2 == 0 else (self.second, self.first)
            if word in here:
                continue
            if word in there:
                return (f"“{word}” comes {_PLACES[1 - place % 2]} in a code, not "
                        f"{_PLACES[place % 2]}: check the order of the words with the host.")
            return self._not_a_word(word, here, last=place == len(words) - 1)
        return None

    @staticmethod
    def _not_a_word(word: str, here: frozenset[str], last: bool) -> str:
        started = sorted(w for w in here if w.startswith(word))
        if last and len(started) > 1:  # still being typed
            return f"“{word}” is not a whole code word yet: keep typing, or pick one from the list."
        close = started or difflib.get_close_matches(word, sorted(here), n=1, cutoff=0.75)
        if close:
            return f"“{word}” is not one of the code words. Did you mean “{close[0]}”?"
        return f"“{word}” is not one of the code words. Check the code with the host."


@functools.cache
def code_words() -> CodeWords:
    """The code words (loaded once; the first call imports the wormhole library)."""
    return CodeWords.load()


class Settings:
    """Where this app finds the mailbox and the relay (the app's Settings; tests)."""

    mailbox: str = DEFAULT_MAILBOX
    relay: str = DEFAULT_RELAY


SETTINGS = Settings()


def configure(mailbox: str | None = None, relay: str | None = None) -> None:
    """Use these servers from now on (None: the default)."""
    SETTINGS.mailbox = (mailbox or "").strip() or DEFAULT_MAILBOX
    SETTINGS.relay = (relay or "").strip() or DEFAULT_RELAY


def check_mailbox(text: str) -> str | None:
    """None when ``text`` looks like a mailbox address (ws:// or wss://), else what to fix."""
    text = (text or "").strip()
    if not text:
        return None
    if not re.match(r"^wss?://[^/\s:]+(:\d{1,5})?(/\S*)?$", text):
        return "An invitation service address looks like ws://relay.example.org:4000/v1"
    return None


def check_relay(text: str) -> str | None:
    """None when ``text`` looks like a relay address (tcp:HOST:PORT), else what to fix."""
    text = (text or "").strip()
    if not text:
        return None
    if not re.match(r"^tcp:[^\s:]+:\d{1,5}$", text):
        return "A relay address looks like tcp:transit.example.org:4001"
    return None

