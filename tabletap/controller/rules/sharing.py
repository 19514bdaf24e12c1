"""States that share what a move did not change (python-chess's way), for the engines.

An engine works a move out on a fork of the state: the fork's mapping of per-player parts
(each player's castle, each player's kingdom) copies a part the first time the move looks it up
and shares every other part with the state before. A rejected move drops the fork; an accepted
one is settled into a plain dict. Nothing is ever changed in place in a state that has been
handed out, which is what makes the sharing safe.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class CopyOnRead(Mapping[K, V], Generic[K, V]):
    """A mapping over `shared` whose values are copied (with `copy`) when first looked up.
    Iterating the values reads them without copying: for reading only."""

    __slots__ = ("_shared", "_own", "_copy")

    def __init__(self, shared: Mapping[K, V], copy: Callable[[V], V]) -> None:
        self._shared = shared
        self._own: dict[K, V] = {}
        self._copy = copy

    def __getitem__(self, key: K) -> V:
        own = self._own.get(key)
        if own is None:
            own = self._own[key] = self._copy(self._shared[key])
        return own

    def __iter__(self) -> Iterator[K]:
        return iter(self._shared)

    def __len__(self) -> int:
        return len(self._shared)

    def __contains__(self, key: object) -> bool:
        return key in self._shared

    def peek(self, key: K) -> V:
        """The value as it is now, without copying it (for reading only)."""
        own = self._own.get(key)
        return self._shared[key] if own is None else own

    def values(self) -> list[V]:  # type: ignore[override]
        own = self._own
        if not own:
            return list(self._shared.values())
        return [own.get(k, v) for k, v in self._shared.items()]

    def settle(self) -> dict[K, V]:
        """A plain dict: the copied values and the shared, untouched ones."""
        own = self._own
        return {k: own.get(k, v) for k, v in self._shared.items()}


def settle(parts: Mapping[K, V]) -> dict[K, V]:
    """`parts` as a plain dict (a fork's CopyOnRead settled; a dict as it is)."""
    return parts.settle() if isinstance(parts, CopyOnRead) else parts  # type: ignore[return-value]


def peek(parts: Mapping[K, V], key: K) -> V:
    """Read one part without copying it."""
    return parts.peek(key) if isinstance(parts, CopyOnRead) else parts[key]
