"""The ``parlour`` command: the desktop app by default, plus headless sub-commands.

    parlour                 start the desktop app
    parlour replay FILE     replay a parlour-hand/1 record, print the result as JSON
    parlour host …          run a table without a window (see net.cli)
    parlour join …          join a table with a bot, verify everything (see net.cli)
    parlour --self-test     check this installation without a screen (see app.selftest)

Sub-commands import only what they need, so ``parlour replay`` works without Qt.
Before the desktop app starts Qt, ``app.syslibs.preflight`` checks that Qt's window
plugin can load; if system libraries are missing it names them with the command that
installs them and exits with status 2.
"""

from __future__ import annotations

import os
import sys


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--self-test"]:
        from app.selftest import main as self_test
        return self_test(argv[1:])
    command = argv[0] if argv and not argv[0].startswith("-") else None
    if command == "replay":
        from engine.replay import main as replay_main
        return replay_main(argv[1:])
    if command in ("host", "join"):
        from net.api import command_line as net_main
        return net_main(argv)
    # Before Qt creates its application: a window plugin that cannot load gets a
    # plain list of the missing libraries and how to install them, not Qt's guess.
    from app.syslibs import preflight
    status = preflight()
    if status is not None:
        return status
    if os.environ.get("PARLOUR_EXIT_WHEN_SHOWN") == "1":  # the start-up timer
        from app.selftest import arm_exit_when_shown
        arm_exit_when_shown(argv)
    from app.main import main as app_main
    return app_main(argv)


if __name__ == "__main__":
    sys.exit(main())
