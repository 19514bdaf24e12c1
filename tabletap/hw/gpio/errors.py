"""The one error the gpio backend raises for wiring and setup problems."""

from __future__ import annotations


class GpioError(RuntimeError):
    """The GPIO wiring cannot be set up as configured; the message says what to change."""
