"""The differential suite of the native engine: skipped only when ``pacru._native`` is absent.

The package can be installed without its extension module (the pure-Python
engine then runs alone), and these tests skip. ``PACRU_REQUIRE_NATIVE=1``
(set by ``.ci/run``) turns that skip into a failure, so CI fails when the
native engine was not built.
"""

from __future__ import annotations

import os

import pytest

from pacru.chevron.engine import native_module


@pytest.fixture(autouse=True)
def _native_engine() -> None:
    if native_module() is None:
        if os.environ.get("PACRU_REQUIRE_NATIVE") == "1":
            pytest.fail("PACRU_REQUIRE_NATIVE=1 but pacru._native is not importable")
        pytest.skip("pacru was installed without its native engine (pacru._native)")
