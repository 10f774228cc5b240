"""The docs' gallery helpers (docs/_ext/pacru_gallery.py): example arguments and SVG output."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import sphinx_gallery  # noqa: F401  (the test extra installs it; the helpers need it)

from docs_extensions import ROOT, load_extension, load_module

EXT: Any = load_extension("pacru_gallery")


def test_only_examples_that_write_get_a_folder() -> None:
    examples: Any = load_module("_pacru_test_examples", ROOT / "tests" / "test_examples.py")
    assert set(EXT.WRITES_FILES) == examples.WRITES_FILES
    (folder,) = EXT.reset_argv({}, {"src_file": str(ROOT / "examples" / "export_svg.py")})
    assert Path(folder).name == "export_svg"
    assert not Path(folder).is_relative_to(ROOT)
    assert EXT.reset_argv({}, {"src_file": str(ROOT / "examples" / "run_match.py")}) == []


def test_scraper_shows_new_svg_files_in_writing_order(tmp_path: Path) -> None:
    scraper = EXT.SvgScraper(tmp_path / "out")
    (tmp_path / "out" / "a").mkdir(parents=True)
    (tmp_path / "images").mkdir()
    second, first = tmp_path / "out" / "a" / "b.svg", tmp_path / "out" / "z.svg"
    first.write_text("<svg/>")
    second.write_text("<svg/>")
    os.utime(first, ns=(1_000, 1_000))
    os.utime(second, ns=(2_000, 2_000))
    names = iter(str(tmp_path / "images" / f"sphx_glr_x_{i:03}.png") for i in range(1, 9))
    block_vars = {"image_path_iterator": names}
    text = scraper(None, block_vars, {"src_dir": str(tmp_path)})
    assert sorted(p.name for p in (tmp_path / "images").iterdir()) == [
        "sphx_glr_x_001.svg",
        "sphx_glr_x_002.svg",
    ]
    assert "/images/sphx_glr_x_001.svg" in text
    assert "/images/sphx_glr_x_002.svg" in text
    # Nothing new: no picture; a rewritten file is shown again.
    assert scraper(None, block_vars, {"src_dir": str(tmp_path)}) == ""
    os.utime(first, ns=(3_000, 3_000))
    again = scraper(None, block_vars, {"src_dir": str(tmp_path)})
    assert again.count(".. image-sg::") == 1
    assert "/images/sphx_glr_x_003.svg" in again
