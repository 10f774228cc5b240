"""The subcommands of the ``pacru`` command line program.

Each module named in :data:`COMMANDS` defines ``register(subparsers)``, which
adds its subparser and sets ``func`` (a ``Callable[[argparse.Namespace], int]``
returning the exit status) with ``set_defaults``. :mod:`pacru.cli` imports
them in this order.
"""

COMMANDS = ("play", "replay", "show", "match", "ladder", "selfplay", "train", "engine")
