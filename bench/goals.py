"""The goals of the figures a `python -m bench` run made, judged at its end.

Until now every session compared `make bench`'s output with issue 23's table by hand, and a
figure a run could not make (espeak-ng missing, no root for the CPU quotas) was simply not
printed, so its absence was easy to miss. Each bench module keeps its own goals beside its
figures (a game's in its own package, as the seam asks), as plain data any module can declare
without importing the bench:

- `GOALS`: rows `(key, label, "<=" or ">=", limit, unit)`, the issue's table;
- `GOAL_NOTES`: sentences said beside the goals, as they are: a goal no single run can judge,
  a run shorter than the issue asks;
- `ASKED`: the bench.json keys the issue asks the module for, goal or not;
- `MISSING_WHY`: the likely reason when some of them were not written.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Goal:
    """One goal: the figure under `key` is at most (`<=`) or at least (`>=`) `limit`."""

    key: str
    label: str
    sign: str
    limit: float
    unit: str

    def __post_init__(self) -> None:
        if self.sign not in ("<=", ">="):
            raise ValueError(f"goal {self.key}: the sign is '<=' or '>=', not {self.sign!r}")

    def met(self, value: float) -> bool:
        return value <= self.limit if self.sign == "<=" else value >= self.limit

    def judge(self, figures: dict[str, Any], module: str) -> str:
        value = figures.get(self.key)
        if isinstance(value, (int, float)):
            shown, verdict = f"{value:.3g} {self.unit}", "met" if self.met(value) else "NOT MET"
        else:
            shown, verdict = "-", f"not measured in this run (bench {module})"
        return (f"  {self.label:<58} {shown:>12}  goal {self.sign} {self.limit:g} "
                f"{self.unit}: {verdict}")


def report(figures: dict[str, Any], ran: dict[str, ModuleType]) -> list[str]:
    """Lines judging this run's `figures` (only the keys this run wrote) against the goals of
    the modules that ran, by name, then the asked-for keys they did not write."""
    lines: list[str] = []
    for name, module in ran.items():
        lines += [Goal(*row).judge(figures, name) for row in getattr(module, "GOALS", ())]
        lines += [f"  {sentence}" for sentence in getattr(module, "GOAL_NOTES", ())]
    for name, module in ran.items():
        missing = [key for key in getattr(module, "ASKED", ()) if key not in figures]
        if missing:
            why = getattr(module, "MISSING_WHY", "see its lines above")
            lines.append(f"  bench {name} did not write {', '.join(missing)}: {why}")
    return lines
