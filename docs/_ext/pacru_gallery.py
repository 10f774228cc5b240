"""sphinx-gallery helpers for the gallery of ``examples/``: arguments and SVG output.

``examples/export_svg.py`` writes SVG boards into the folder given as its
argument. :func:`reset_argv` gives each example that writes files (those in
:data:`WRITES_FILES`, as in ``tests/test_examples.py``) a fresh temporary
folder, so the docs build never writes into the source tree, and
:data:`svg_scraper` shows every SVG file a code block wrote as a picture of
the example's output in the gallery.

``docs/conf.py`` names them by their qualified names (sphinx-gallery imports
them), which keeps the Sphinx configuration picklable.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from typing import Any

from sphinx_gallery.scrapers import figure_rst

#: Examples that take an output folder as their one argument.
WRITES_FILES = frozenset({"export_svg.py", "train_maskable_ppo.py"})

_OUT = Path(tempfile.mkdtemp(prefix="pacru-gallery-"))


def reset_argv(gallery_conf: dict[str, Any], script_vars: dict[str, Any]) -> list[str]:
    """The command line arguments of an example: an output folder for those that write."""
    name = Path(script_vars["src_file"]).name
    return [str(_OUT / Path(name).stem)] if name in WRITES_FILES else []


class SvgScraper:
    """Shows the SVG files written under the examples' output folders by a code block."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.seen: dict[Path, int] = {}

    def __repr__(self) -> str:  # sphinx-gallery keys its cache on the repr
        return "pacru_gallery.SvgScraper"

    def new_files(self) -> list[Path]:
        """SVG files written or changed since the last call, in the order they were written."""
        new = []
        for path in self.root.rglob("*.svg"):
            stamp = path.stat().st_mtime_ns
            if self.seen.get(path) != stamp:
                self.seen[path] = stamp
                new.append((stamp, path.name, path))
        return [path for _, _, path in sorted(new)]

    def __call__(self, block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any]) -> str:
        images = []
        for path in self.new_files():
            target = Path(next(block_vars["image_path_iterator"])).with_suffix(".svg")
            shutil.copyfile(path, target)
            images.append(str(target))
        return str(figure_rst(images, gallery_conf["src_dir"]))


#: The scraper ``docs/conf.py`` names.
svg_scraper = SvgScraper(_OUT)
