"""``companion``: the command line.  Each subcommand lives in companion/commands/<name>.py
and exposes ``register(subparsers)``; a command whose module is not built yet is absent."""

from __future__ import annotations

import argparse
import importlib
import sys

from companion import __version__

COMMANDS = ("demo", "serve", "simulate", "replay", "verify", "vision", "devices", "print")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="Table Companion: referee in-person card games with a camera, phones and LED boards.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"companion.commands.{name.replace('-', '_')}")
        except ModuleNotFoundError as exc:
            if exc.name == f"companion.commands.{name}":
                continue
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
