"""The installed package's version, ``pacru.__version__``.

It is set in one place, ``pyproject.toml``'s ``[project] version``, which both build backends
write into the package metadata; this reads it back (an editable install shows the version it
was installed with). A source tree that was never installed reports ``0+unknown``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__: str = version("pacru")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"
