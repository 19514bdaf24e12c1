"""What the family puts back after a Memory card is taken back (the flip's journal JSON and the
state before it, so the sentence knows whether the card was the turn's first, a miss or the
one that made a pair). The session adds "It is ana's turn again." where the turn had passed.
"""

from __future__ import annotations

from typing import Any

from tabletap_memory.pieces import picture_words


def put_back(action: dict[str, Any], before: Any = None) -> str:
    kind = str(action.get("type") or action.get("action") or "")
    if kind != "flip":
        raise ValueError(f"not a Memory action: {kind!r}")  # the controller says it plainly
    name = picture_words(str(action["card"]).rpartition("/")[0])
    first = getattr(before, "turned", None)
    if first is None:  # the turn's first card (or no state to tell): back face down
        return f"Turn the {name} card face down again."
    first_name = picture_words(first.rpartition("/")[0])
    if first_name == name:  # it made a pair: both go back where they lay
        return (f"Put the {name} pair back where it lay: this {name} card face down, the "
                f"other {name} card face up.")
    return f"Turn the {first_name} card face up again; the {name} card stays face down."
