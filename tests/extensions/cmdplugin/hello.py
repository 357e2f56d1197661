"""A plugin command: ``gent hello NAME``."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name")
    parser.add_argument("--shout", action="store_true")


def run(args: argparse.Namespace) -> int:
    text = f"hello {args.name}"
    print(text.upper() if args.shout else text)
    return 3
