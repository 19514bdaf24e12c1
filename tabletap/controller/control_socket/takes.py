"""What a control-socket request kind takes: its value, exactly, and the qualifiers beside it.

A handler that only looks for its key would act on `{"abandon": false}` as on `{"abandon":
true}`; so each kind declares its value here and the dispatch (control_socket.requests) refuses
anything else with a sentence saying what the kind takes, before the handler runs. Kept apart
from the dispatch so the page's kinds (control_socket.page) declare theirs without importing the
daemon.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from msgspec import Struct

ID_LIMIT = 100  # a request id is a client's uuid: 32 hex digits


class Takes(Struct, frozen=True):
    """The value a request kind takes, in a sentence (`shown`) and as a check, and the
    qualifiers allowed beside it (`{"state": true, "reveal": true}`). The handler checks a
    mapping's own keys; this says only what kind of value may reach it at all."""

    shown: str
    check: Callable[[Any], bool]
    qualifiers: Mapping[str, Takes] = {}

    def with_qualifiers(self, **qualifiers: Takes) -> Takes:
        return Takes(self.shown, self.check, {**self.qualifiers, **qualifiers})


TRUE = Takes("true", lambda v: v is True)
MAPPING = Takes("a mapping ({...})", lambda v: isinstance(v, dict))
TEXT = Takes("a string", lambda v: isinstance(v, str) and 0 < len(v) <= ID_LIMIT)
TRUE_OR_MAPPING = Takes("true or a mapping ({...})", lambda v: v is True or isinstance(v, dict))
FLAG = Takes("true or false", lambda v: isinstance(v, bool))
COUNTER = Takes("a number or null",
                lambda v: v is None or (isinstance(v, int) and not isinstance(v, bool)))
WAIT = Takes("a number of seconds from 0 to 30",
             lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 30)
PACE = Takes("a number of seconds from 0 to 5",
             lambda v: isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= 5)
COMMON = {"id": TEXT}  # every kind may carry the client's request id
