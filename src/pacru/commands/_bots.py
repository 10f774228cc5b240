"""``--bot package.module:ClassName`` of ``pacru play``, ``match`` and ``selfplay``."""

from __future__ import annotations

import os
import sys

__all__ = ["find_bots_in_cwd"]


def find_bots_in_cwd() -> None:
    """Put the current directory first on :data:`sys.path` unless it is there already.

    A bot class named ``package.module:ClassName`` (:mod:`pacru.bots.spec`) is
    then imported from the current directory, as ``python -m`` would: the
    ``pacru`` script alone does not look there. Call it before the spec is
    parsed, and before worker processes start (they inherit the path):
    :func:`pacru.cli.main` calls it once, before any command runs.
    """
    if "" not in sys.path and os.getcwd() not in sys.path:
        sys.path.insert(0, os.getcwd())
