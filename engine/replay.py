"""``python -m engine.replay FILE`` (and ``parlour replay FILE``): replay a hand record.

Prints the result as JSON on stdout and exits 0 whenever the record could be read, an
illegal action included (it is reported in the result's ``error``). A file that is not
a valid ``parlour-hand/1`` record — missing, not JSON, unknown game, a wrong card count,
a card dealt twice, an unknown card name — gives exit status 2 and one line on stderr.
"""

from __future__ import annotations

import argparse
import json
import sys

from .errors import RecordError
from .records import replay

EXIT_OK = 0
EXIT_BAD_RECORD = 2


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        data = read_record_file(args.file)
        result = replay(data)
    except RecordError as exc:
        print(f"parlour replay: {args.file}: {exc}", file=sys.stderr)
        return EXIT_BAD_RECORD
    json.dump(result, sys.stdout, indent=None if args.compact else 2)
    sys.stdout.write("\n")
    return EXIT_OK


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="parlour replay",
        description="Replay a parlour-hand/1 record and print the result as JSON.")
    parser.add_argument("file", help="the hand record (JSON); - reads standard input")
    parser.add_argument("--compact", action="store_true", help="print the JSON on one line")
    return parser


def read_record_file(path: str):
    """The JSON value in ``path``; RecordError (one line) if it cannot be read."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read the file ({_one_line(exc)})") from None
    try:
        return json.loads(text, parse_float=_reject_float, parse_constant=_reject_float)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from None


def _reject_float(text: str):
    # Floats could round differently between peers; a record holds whole numbers only.
    raise RecordError(f"{text} is not a whole number")


def _one_line(exc: Exception) -> str:
    return getattr(exc, "strerror", None) or str(exc).splitlines()[0]


if __name__ == "__main__":
    sys.exit(main())
