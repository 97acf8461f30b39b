"""Usernames that look alike: the skeleton of a name, after Unicode's confusables table.

Two names with the same skeleton read the same to a person: ``alice`` and ``аlice``
(Cyrillic а), ``ALICE`` and ``a1ice``, ``bob`` and ``ｂｏｂ``.  The comparison ignores
case, as usernames do, so it reads a capital I as an i.  The table comes from
confusable-homoglyphs (Unicode's confusables.txt).  It lists, per character, the
characters it can be mistaken for, not always symmetrically, so the characters are
first gathered into classes, each read as one representative, preferring an ASCII
letter or digit.
"""

from __future__ import annotations

import functools
import unicodedata

from confusable_homoglyphs import utils

# Mapping and case folding feed each other ("L" folds to "l", which maps to "1");
# a few rounds reach the fixed point of every name.
_ROUNDS = 4


@functools.cache
def _representatives() -> dict[str, str]:
    parent: dict[str, str] = {}

    def root(char: str) -> str:
        while parent.get(char, char) != char:
            char = parent[char]
        return char

    for char, lookalikes in utils.load("confusables.json").items():
        for lookalike in lookalikes:
            if len(lookalike["c"]) == 1:
                a, b = root(char), root(lookalike["c"])
                if a != b:
                    parent[a] = b
    classes: dict[str, list[str]] = {}
    for char in list(parent):
        classes.setdefault(root(char), []).append(char)
    for top, members in classes.items():
        members.append(top)
    representatives = {}
    for members in classes.values():
        chosen = min(members, key=lambda c: (not (c.isascii() and c.isalnum()), c.casefold(), c))
        for member in members:
            representatives[member] = chosen.casefold()
    return representatives


def skeleton(name: str) -> str:
    """``name`` as it reads: equal skeletons mean names a person can confuse."""
    representatives = _representatives()
    # Case-insensitive like usernames themselves: "ALICE" reads as "alice".
    text = unicodedata.normalize("NFKC", name).casefold()
    for _round in range(_ROUNDS):
        mapped = "".join(representatives.get(char, char) for char in text).casefold()
        if mapped == text:
            break
        text = mapped
    return text
