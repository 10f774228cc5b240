"""Rule citations in braces, ``{R11}`` or ``{S-R4, A-R6, D3-D5}``, rendered as links.

Docstrings and pages cite the rules by ID in braces (the form the
traceability page, ``pacru_trace.py``, collects). In the built docs such a
group reads ``(R11)`` or ``(S-R4, A-R6, D3-D5)``, each ID a link to the
rule's section: the game pages for the chevron rules (L1-L7, S-R1-S-R6,
A-R1-A-R10, R1-R16), :doc:`rulings` for D1-D50, the geometry reference for
G1-G7 and the LSD page for LSD's sections (``LSD 2.3``) and rulings
(``RULING 16``, ``LSD-R16``). A link to a missing section is an undefined
label, so ``sphinx -W`` fails on it.

Only a group made entirely of rule IDs and separators is rewritten: code in
braces (``{"e5": "#cc000080"}``) and anything in literal text stay as written.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform

_GROUP = re.compile(r"\{([^{}]{1,120})\}")
_TOKEN = re.compile(
    r"""
    (?P<lsd>LSD(?:\.md)?\s+(?P<section>[1-3]\.[1-9](?:\.[1-9])?))
    | (?P<lsdr>LSD-R(?P<lsdrn>\d{1,2}))
    | (?P<rulings>RULINGS?\s+)
    | (?P<ruling>ruling\s+)
    | (?P<chevron>(?P<prefix>[SA]-)?R(?P<rn>\d{1,2})[a-z]?)
    | (?P<lilacru>L(?P<ln>[1-7]))
    | (?P<decision>D(?P<dn>\d{1,2}))
    | (?P<geometry>G(?P<gn>[1-7]))
    | (?P<bare_section>[1-3]\.[1-9](?:\.[1-9])?)
    | (?P<number>\d{1,2})
    | (?P<sep>\s*(?:,|;|-|\.\.|\s+and\s+)\s*)
    """,
    re.VERBOSE,
)

#: LSD sections by the section of the LSD page that states them.
LSD_SECTIONS: dict[str, str] = {
    **dict.fromkeys(("1.1", "1.2", "2.1", "3.1"), "lsd-tiles"),
    **dict.fromkeys(("1.3", "1.4", "2.5"), "lsd-setup"),
    **dict.fromkeys(("1.5", "2.2"), "lsd-placement"),
    **dict.fromkeys(("1.6", "2.3"), "lsd-capture"),
    **dict.fromkeys(("1.7", "2.4"), "lsd-end"),
    "3.2": "lsd-rulings",
}
#: Rules that share a section (and its label) with another.
SHARED_LABELS: dict[str, str] = {"A-R2": "azacru-r1", "A-R3": "azacru-r1"}


class Piece(NamedTuple):
    """A part of a rewritten group: its text and the label it links to ("" for plain text)."""

    text: str
    label: str


def _chevron_label(match: re.Match[str]) -> str:
    prefix, number = match["prefix"], int(match["rn"])
    if prefix == "S-":
        return f"shacru-r{number}" if 1 <= number <= 6 else ""
    if prefix == "A-":
        return SHARED_LABELS.get(f"A-R{number}", f"azacru-r{number}") if number <= 10 else ""
    return f"pacru-r{number}" if 1 <= number <= 16 else ""


def _lsd_section_label(section: str) -> str:
    return LSD_SECTIONS.get(section[:3], "")


def parse(group: str) -> list[Piece] | None:
    """The pieces of the text inside one pair of braces, or None when it is not only
    rule IDs (then the braces are left as written)."""
    pieces: list[Piece] = []
    context = ""  # "lsd" after an LSD section, "ruling" after RULING(S): bare numbers
    position = 0
    while position < len(group):
        match = _TOKEN.match(group, position)
        if match is None or match.end() == position:
            return None
        position = match.end()
        kind = match.lastgroup
        text = match.group(0)
        label = ""
        if kind == "lsd":
            context, label = "lsd", _lsd_section_label(match["section"])
            text = f"LSD {match['section']}"
        elif kind == "ruling":
            text = "ruling "
        elif kind == "lsdr":
            context, label = "ruling", "lsd-rulings"
        elif kind == "rulings":
            context, text = "ruling", text.lower().rstrip() + " "
        elif kind == "chevron":
            label = _chevron_label(match)
        elif kind == "lilacru":
            label = f"lilacru-l{match['ln']}"
        elif kind == "decision":
            label = f"ruling-d{match['dn']}" if 1 <= int(match["dn"]) <= 50 else ""
        elif kind == "geometry":
            label = f"geometry-g{match['gn']}"
        elif kind == "bare_section":
            if context != "lsd":
                return None
            label = _lsd_section_label(text)
        elif kind == "number":
            if context != "ruling":
                return None
            label = "lsd-rulings"
        if kind not in ("sep", "rulings", "ruling") and not label:
            return None
        pieces.append(Piece(text, label))
    return pieces if any(p.label for p in pieces) else None


def rewrite(text: str) -> list[tuple[str, str]]:
    """``text`` as (text, label) runs: each citation group in parentheses with its
    IDs linked; the rest, braces that are not citations included, as written."""
    runs: list[tuple[str, str]] = []
    last = 0
    for match in _GROUP.finditer(text):
        pieces = parse(match.group(1))
        if pieces is None:
            continue
        runs.append((text[last : match.start()] + "(", ""))
        runs.extend((p.text, p.label) for p in pieces)
        runs.append((")", ""))
        last = match.end()
    runs.append((text[last:], ""))
    merged: list[tuple[str, str]] = []
    for run in runs:
        if merged and not run[1] and not merged[-1][1]:
            merged[-1] = (merged[-1][0] + run[0], "")
        elif run[0]:
            merged.append(run)
    return merged


#: Nodes whose text is shown as written.
_VERBATIM = (
    nodes.FixedTextElement,
    nodes.literal,
    nodes.raw,
    nodes.reference,
    nodes.title,
    nodes.target,
    nodes.comment,
    addnodes.pending_xref,
    addnodes.desc_signature,
)


class RuleCitations(SphinxTransform):
    """Rewrite the citation groups of every text node outside literal text."""

    default_priority = 400

    def apply(self, **kwargs: Any) -> None:
        # A change of this file changes every page it rewrites.
        self.env.note_dependency(__file__)
        for text in list(self.document.findall(nodes.Text)):
            if "{" not in text or _verbatim(text):
                continue
            runs = rewrite(str(text))
            if len(runs) == 1 and not runs[0][1]:
                continue
            text.parent.replace(text, [self._node(t, label) for t, label in runs])

    def _node(self, text: str, label: str) -> nodes.Node:
        if not label:
            return nodes.Text(text)
        return addnodes.pending_xref(
            "",
            nodes.inline(text, text),
            refdomain="std",
            reftype="ref",
            reftarget=label,
            refexplicit=True,
            refwarn=True,
            refdoc=self.env.docname,
        )


def _verbatim(node: nodes.Node) -> bool:
    parent = node.parent
    while parent is not None:
        if isinstance(parent, _VERBATIM):
            return True
        parent = parent.parent
    return False


def setup(app: Sphinx) -> dict[str, Any]:
    app.add_transform(RuleCitations)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
