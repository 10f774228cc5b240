"""The differential suite of the native engine: skipped only when ``pacru._native`` is absent.

The package can be installed without its extension module (the pure-Python
engine then runs alone), and these tests skip (``support.py`` imports the
native engine with ``pytest.importorskip``). ``PACRU_REQUIRE_NATIVE=1`` (set
by ``.ci/run``) turns that skip into an error, so CI fails when the native
engine was not built.
"""

from __future__ import annotations

import os

from pacru.chevron.engine import native_module

if os.environ.get("PACRU_REQUIRE_NATIVE") == "1" and native_module() is None:
    raise ImportError("PACRU_REQUIRE_NATIVE=1 but pacru._native is not importable")
