"""Reading a module's imports from its source, for the layout tests."""

from __future__ import annotations

import ast
from pathlib import Path


def absolute_imports(path: Path) -> list[str]:
    """The modules ``path`` imports by absolute name, at any depth of its code (function
    bodies and ``TYPE_CHECKING`` blocks included)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names
