"""The emulated chip's timing model, loaded from timing.yaml (every value there is a guess).

A frozen Schema (controller.loading.schema, msgspec): timing.yaml is checked as it is read, a
misspelt or negative time named by its line and key. A `Timing` built in code (`INSTANT`, a
test's) is not checked again: its author wrote the numbers.
"""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from typing import Annotated, Literal

from tabletap.controller.loading.schema import Meta, Schema
from tabletap.controller.loading.yamldoc import parse_data

Seconds = Annotated[float, Meta(ge=0)]


class Timing(Schema, frozen=True):
    """Seconds the chip takes for each kind of work; the wire time is computed from the baud."""

    status: Literal["guess", "measured"]
    ack_delay: Seconds
    simple_command: Seconds
    activation_attempt: Seconds
    select_per_target: Seconds
    tag_read: Seconds
    tag_write: Seconds
    tag_timeout: Seconds
    stale_frame: Annotated[float, Meta(gt=0)]  # 0: a frame in two pieces is dropped


@lru_cache(maxsize=1)
def default_timing() -> Timing:
    text = files("tabletap.sim.pn532").joinpath("timing.yaml").read_text(encoding="utf-8")
    return parse_data(text, "timing.yaml", Timing)


INSTANT = Timing(
    status="guess", ack_delay=0.0, simple_command=0.0, activation_attempt=0.0,
    select_per_target=0.0, tag_read=0.0, tag_write=0.0, tag_timeout=0.0, stale_frame=0.01,
)
