"""Results written as JSON, which has no NaN or infinity: such figures (a CI of one
sample, a ratio of nothing) become null."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any


def finite(obj: Any) -> Any:
    """`obj` with every NaN or infinite float replaced by None (and dict keys as strings)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): finite(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [finite(v) for v in obj]
    return obj


def write(path: str | Path, doc: Any) -> None:
    Path(path).write_text(json.dumps(finite(doc), indent=2, allow_nan=False) + "\n",
                          encoding="utf-8")
