"""The emulated chip's timing model, loaded from timing.yaml (every value there is a guess)."""

from __future__ import annotations

from functools import lru_cache
from importlib.resources import files
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tabletap.controller.loading.yamldoc import parse_data


class Timing(BaseModel):
    """Seconds the chip takes for each kind of work; the wire time is computed from the baud."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    status: Literal["guess", "measured"]
    ack_delay: float = Field(ge=0)
    simple_command: float = Field(ge=0)
    activation_attempt: float = Field(ge=0)
    select_per_target: float = Field(ge=0)
    tag_read: float = Field(ge=0)
    tag_write: float = Field(ge=0)
    tag_timeout: float = Field(ge=0)
    stale_frame: float = Field(gt=0)


@lru_cache(maxsize=1)
def default_timing() -> Timing:
    text = files("tabletap.sim.pn532").joinpath("timing.yaml").read_text(encoding="utf-8")
    return parse_data(text, "timing.yaml", Timing)


INSTANT = Timing(
    status="guess", ack_delay=0, simple_command=0, activation_attempt=0, select_per_target=0,
    tag_read=0, tag_write=0, tag_timeout=0, stale_frame=0.01,
)
