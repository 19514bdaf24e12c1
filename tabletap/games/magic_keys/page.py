"""What the phone page needs of a Magic Keys game beyond the engine's public view: the track's
spaces in order, so the view draws the path without knowing the board."""

from __future__ import annotations

from typing import Any


def extras(engine: Any, state: Any) -> dict[str, Any]:
    return {"track": list(engine.track.spaces)}
