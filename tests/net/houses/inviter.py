"""A host of invitations and nothing else, for the tests across houses.

``python tests/net/houses/inviter.py --mailbox URL --relay HINT --codes N`` serves a
house server, makes a code for seat 1 (``net.houses.service.invite``, as a host's
"Invite from another house" does) and prints each of its events as a JSON line
(``{"event": "invite", "state": …, "code": …}``); once a code's news is that it is over
— anything but "joining" — it makes the next, as a host clicking *New code* would, up to
``N`` codes (and waits on the last one's news until it is killed). Nothing else runs in
its namespace, so a test can count its connections.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from net.houses import configure, service  # noqa: E402 - after the repository is importable
from net.wire.identity import Identity  # noqa: E402
from net.wire.transport import start_server  # noqa: E402

TABLE = "inviter-table"


async def main(args) -> None:
    configure(args.mailbox, args.relay)
    identity = Identity.generate("Inviter")

    async def nobody(conn):
        await conn.close()
    server = await start_server("house", 0, identity, nobody)
    loop = asyncio.get_running_loop()
    news: asyncio.Queue[dict] = asyncio.Queue()
    offer = {"key": identity.public_key.hex(), "table": TABLE, "port": server.port, "seat": 1}
    for _ in range(args.codes):
        code = await service.invite(identity, TABLE, 1, offer, None,
                                    lambda event: loop.call_soon_threadsafe(news.put_nowait, event))
        print(json.dumps({"event": "invite", "state": "waiting", "code": code}), flush=True)
        while True:
            event = await news.get()
            print(json.dumps({"event": "invite", **event}), flush=True)
            if event.get("code") == code and event["state"] != "joining":
                break


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--mailbox", required=True)
    parser.add_argument("--relay", required=True)
    parser.add_argument("--codes", type=int, default=2)
    asyncio.run(main(parser.parse_args()))
