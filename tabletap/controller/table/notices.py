"""What the table session tells whoever listens: typed notices, published to subscribers.

The phone page's side of the daemon (controller.control_socket.page) and any other listener learn
what happened at the table from these, and never by replacing the session's methods, reading its
private state or parsing the printed play-by-play. A notice is a value; a subscriber is a callable
that takes one. A subscriber that raises is logged and kept from the others: a broken listener must
not cost the family a move.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from msgspec import Struct, field

from tabletap.controller.language.said import Said as Sentence

log = logging.getLogger("tabletap.notices")


class Said(Struct, frozen=True):
    """A line of the play-by-play, as printed in the table's language (a refusal's line
    included), and the sentence it says, for a page that shows another language."""

    text: str
    sentence: Sentence | None = None


class Refused(Struct, frozen=True):
    """An input the table refused: the reason's code and its sentence (in the table's
    language, and as a sentence for a page in another)."""

    code: str
    message: str
    sentence: Sentence | None = None


class Changed(Struct, frozen=True):
    """What a page shows has changed: `what` is "game" (started, abandoned, finished), "move"
    (accepted or taken back), "setup" (a seat taken, a set-up opened) or "table" (the chest,
    a reader)."""

    what: str


class Lights(Struct, frozen=True):
    """The lights were asked to show `pattern` (in `colour`, with `count`)."""

    pattern: str
    colour: str | None = None
    count: int | None = None


Notice = Said | Refused | Changed | Lights
Subscriber = Callable[[Notice], None]


class Notices(Struct):
    """The session's publisher: `subscribe` a callable, and every notice reaches it in order."""

    subscribers: list[Subscriber] = field(default_factory=list)

    def subscribe(self, subscriber: Subscriber) -> None:
        if subscriber not in self.subscribers:
            self.subscribers.append(subscriber)

    def unsubscribe(self, subscriber: Subscriber) -> None:
        if subscriber in self.subscribers:
            self.subscribers.remove(subscriber)

    def publish(self, notice: Notice) -> None:
        for subscriber in list(self.subscribers):
            try:
                subscriber(notice)
            except Exception:  # noqa: BLE001 - a listener's bug must not cost a move
                log.exception("a subscriber failed on %r", notice)
