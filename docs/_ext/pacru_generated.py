"""What the project's directives that write reStructuredText at build time share.

A :class:`GeneratedRst` directive generates reST lines (section titles allowed)
from the project's own files, and the page is rebuilt when one of them changes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective
from sphinx.util.nodes import nested_parse_with_titles


class GeneratedRst(SphinxDirective):
    """A directive without content whose body is the reST :meth:`generate` writes."""

    has_content = False
    #: The name of the generated text in error messages.
    source = "<generated>"

    def generate(self) -> tuple[list[str], Iterable[str]]:
        """The reST lines, and the files they are made from."""
        raise NotImplementedError

    def run(self) -> list[nodes.Node]:
        lines, sources = self.generate()
        for path in sources:
            self.env.note_dependency(path)
        container = nodes.section()
        container.document = self.state.document
        nested_parse_with_titles(self.state, StringList(lines, self.source), container)
        return list(container.children)


def add_directive(app: Sphinx, name: str, directive: type[SphinxDirective]) -> dict[str, Any]:
    """Register ``directive`` as ``name``: the extension metadata of a ``setup``."""
    app.add_directive(name, directive)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
