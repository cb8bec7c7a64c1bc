"""A code's words are checked against the code words before anything is dialled: a code
allows one try, and "42 zzz qqq" must not spend it (nor a word heard in the wrong place).
The words are magic-wormhole's own PGP word list, its two halves in turn. No namespaces
needed: nothing may even reach the (local) mailbox."""

from __future__ import annotations

import asyncio
import json
import select
import socket
import subprocess
import sys

import pytest

import net.houses as houses
from net.houses import CodeError, WordUnfinished, code_words, parse_code
from net.houses import service
from net.wire.identity import Identity
from tests.net.proc_kit import REPO, env


@pytest.fixture
def mailbox():
    """A listening socket standing in for the mailbox (and ``dialled()``: whether anything
    connected to it), configured as this process's invitation service."""
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    houses.configure(f"ws://127.0.0.1:{port}/v1", "tcp:127.0.0.1:9")

    def dialled() -> bool:
        readable, _, _ = select.select([listener], [], [], 0)
        return bool(readable)
    try:
        yield houses.SETTINGS.mailbox, dialled
    finally:
        houses.configure()
        listener.close()


def refused(text: str) -> str:
    with pytest.raises(CodeError) as caught:
        parse_code(text, code_words())
    return str(caught.value)


def test_each_word_is_checked_against_the_code_words_in_its_place():
    words = code_words()
    assert "guitarist" in words.first and "revenge" in words.second  # the library's halves
    assert parse_code("7 Guitarist  revenge", words) == "7-guitarist-revenge"
    assert refused("42 zzz qqq") == "“zzz” is not one of the code words. Check the code with the host."
    assert "“qqq” is not one of the code words" in refused("42 guitarist qqq")
    assert refused("7 guitarest revenge").endswith("Did you mean “guitarist”?")
    assert "check the order of the words" in refused("7 revenge guitarist")
    assert "a number and two words" in refused("7 guitarist revenge revenge")
    # without the words (the dialog before they are loaded) only the shape is checked
    assert parse_code("42 zzz qqq") == "42-zzz-qqq"


def test_a_word_still_being_typed_is_judged_only_once_it_is_whole():
    """“rev” on its way to “revenge” is not called wrong while it is typed: only once a
    space or a hyphen follows it, or the code is submitted — or at once when no code word
    starts with it."""
    words = code_words()

    def typing(text: str) -> CodeError:
        with pytest.raises(CodeError) as caught:
            parse_code(text, words, typing=True)
        return caught.value
    assert words.unfinished("rev", place=1) and not words.unfinished("revenge", place=1)
    assert isinstance(typing("7 guitarist rev"), WordUnfinished)
    assert isinstance(typing("7-guitarist-rev"), WordUnfinished)
    assert isinstance(typing("7 guita"), CodeError)  # (two words: the shape is said)
    for whole in ("7 guitarist rev ", "7 guitarist rev-"):  # a word followed by a space is whole
        said = typing(whole)
        assert not isinstance(said, WordUnfinished) and "“rev” is not one of the code words" in str(said)
    assert "“rev” is not one of the code words" in refused("7 guitarist rev")  # submitted
    said = typing("7 guitarist qqq")  # no code word starts with it: wrong at once
    assert not isinstance(said, WordUnfinished) and "“qqq” is not one of the code words" in str(said)
    said = typing("42 zzz rev")  # a whole word before it is judged meanwhile
    assert not isinstance(said, WordUnfinished) and "“zzz” is not one of the code words" in str(said)
    assert parse_code("7 guitarist revenge", words, typing=True) == "7-guitarist-revenge"


def test_a_guest_refuses_a_word_that_is_not_a_code_word_before_dialling(mailbox):
    _address, dialled = mailbox
    with pytest.raises(service.HouseError) as caught:
        asyncio.run(service.use_code(Identity.generate("Grandma"), "42-zzz-qqq", None, timeout=10))
    assert "“zzz” is not one of the code words" in str(caught.value)
    assert not dialled(), "the mailbox was dialled with a code that could never match"


def test_join_by_code_on_the_command_line_refuses_it_too(mailbox, tmp_path):
    address, dialled = mailbox
    done = subprocess.run([sys.executable, "-m", "net.cli", "join", "--code", "42 zzz qqq",
                           "--bot", "easy", "--mailbox", address, "--relay", "tcp:127.0.0.1:9",
                           "--state-dir", str(tmp_path)], capture_output=True, text=True,
                          env=env(), cwd=str(REPO), timeout=120)
    assert done.returncode == 2, (done.stdout, done.stderr[-2000:])
    errors = [e for e in map(json.loads, done.stdout.splitlines()) if e.get("event") == "error"]
    assert errors and "“zzz” is not one of the code words" in errors[0]["message"], done.stdout
    assert not dialled(), "the mailbox was dialled with a code that could never match"
