"""Lazy re-exports: a package names its public objects without importing their modules.

Start-up imports only what a run needs (no case loader, built-in benchmark or heavy
library), so the packages' `__init__`s resolve their public names on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any


def lazy_export(
    package: str, exports: Mapping[str, str], namespace: dict[str, Any], name: str
) -> Any:
    """`name` from the module `exports` maps it to, kept in `namespace` for next time."""
    module = exports.get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    namespace[name] = value
    return value
