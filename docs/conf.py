"""Sphinx configuration for the pacru documentation.

Build (warnings are errors, as in CI)::

    sphinx-build -W -b html docs docs/_build/html
    sphinx-build -W -b doctest docs docs/_build/doctest

Intersphinx (links into the Python and attrs docs) is left out on purpose: it
downloads ``objects.inv`` files at build time, and CI has no network beyond
the package index. References to ``str``, ``attrs`` etc. render as plain text.
"""

from __future__ import annotations

import doctest
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Document the source tree even when pacru is not installed.
sys.path.insert(0, str(ROOT / "src"))
# The project's own Sphinx extensions (board pictures, traceability, the CLI page).
sys.path.insert(0, str(ROOT / "docs" / "_ext"))

from pacru._version import __version__  # noqa: E402

project = "pacru"
author = "The pacru developers"
copyright = "the pacru developers, MIT licence"
version = __version__
release = __version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.doctest",
    "sphinx.ext.viewcode",
    "pacru_board",
    "pacru_trace",
    "pacru_rules",
    "pacru_cli",
    "pacru_autodoc",
    "sphinx_gallery.gen_gallery",
]

root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "auto_examples/*.ipynb"]

# -- the gallery of examples/ (sphinx-gallery runs every example at each build) -----------
# The training example trains for a few seconds only in the gallery (its full run is
# documented in docs/training.rst).
os.environ.setdefault("PACRU_EXAMPLE_QUICK", "1")
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    # Every script is an example to run, not only plot_*.py.
    "filename_pattern": r".*\.py$",
    "within_subsection_order": "FileNameSortKey",
    # Qualified names (docs/_ext/pacru_gallery.py) keep the configuration picklable.
    "reset_argv": "pacru_gallery.reset_argv",
    "image_scrapers": ("pacru_gallery.svg_scraper",),
    # The one example with matplotlib (the training example) closes its figure and writes
    # SVG, which the scraper shows: nothing to reset between examples.
    "reset_modules": (),
    # A failing example fails the build.
    "abort_on_example_error": True,
    "only_warn_on_example_error": False,
    "download_all_examples": False,
    "remove_config_comments": True,
    "show_memory": False,
    "plot_gallery": "True",
}
templates_path: list[str] = []

# -- autodoc / napoleon -------------------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True, "show-inheritance": True}
napoleon_google_docstring = True
napoleon_numpy_docstring = False
# "Attributes:" sections become :ivar: fields rather than attribute directives,
# which would duplicate the attributes autodoc finds on attrs classes.
napoleon_use_ivar = True
napoleon_use_rtype = False

# -- doctest ------------------------------------------------------------------------------
doctest_global_setup = "import pacru"
# Sphinx's default adds IGNORE_EXCEPTION_DETAIL, which compares only an exception's type:
# the messages shown (the rule, the legal alternatives) are checked like any output.
doctest_default_flags = doctest.ELLIPSIS | doctest.DONT_ACCEPT_TRUE_FOR_1

# -- HTML ---------------------------------------------------------------------------------
html_theme = "furo"
html_title = f"pacru {release}"
html_static_path: list[str] = []
