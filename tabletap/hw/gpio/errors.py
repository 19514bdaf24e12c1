"""The one error the gpio backend raises for wiring and setup problems."""

from __future__ import annotations

from tabletap.controller.table.adapters import AdapterError


class GpioError(AdapterError):
    """The GPIO wiring cannot be set up as configured; the message says what to change.

    An AdapterError, so the daemon stops with this message and exit status 2 (which the unit
    does not restart) instead of a traceback and a restart loop.
    """
