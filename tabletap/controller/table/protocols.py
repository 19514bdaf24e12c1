"""What the daemon's parts may ask of each other, as protocols rather than `Any`.

The request kinds (controller.control_socket.requests, controller.control_socket.page) and the table
check (controller.health.table) are handed the daemon; they need only what `TableDaemon` lists. The
daemon hands parent cards and enrolment taps to a desk that is `AdminDesk` (the phone page's side is
one), so the daemon never imports the page's side.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tabletap.controller.clock import Clock
    from tabletap.controller.ports import Buttons, TagReader
    from tabletap.controller.table.identity import Identifier
    from tabletap.controller.table.session import TableSession


class AdminDesk(Protocol):
    """Takes the parent cards (`admin/<n>`) and, while a box is enrolled, every tag."""

    def tap(self, reader: str, piece: str, now: float) -> None: ...

    def takes_tag(self, kind: str, reader: str, tag: Any) -> bool: ...

    def tick(self, now: float) -> None: ...

    def takes_press(self, name: str, kind: str, now: float) -> bool:
        """Whether a button press is the table's own (end-turn pressed twice quickly: say
        that again), so the game never sees it."""
        ...


class TableDaemon(Protocol):
    """The running table, as a request kind sees it."""

    session: TableSession
    readers: dict[str, TagReader]
    buttons: Buttons
    clock: Clock
    identifier: Identifier
    admin: AdminDesk | None
