"""What many self-played games say: win rates by turn order with confidence intervals, game
lengths, scores, and a game's own figures (its spec's `selfplay.summary`); as JSON and as text.

Seats are counted in turn order (position 1 moved first), because that is the question a family
asks ("does going first help?"): in most games the first seat moves first; where the order is
drawn (kings drawn at random), the first drawn does, whoever owns it. A shared win counts as a
win for each winner, so with ties the rates add up to more than 100 %.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from collections.abc import Sequence
from typing import Any

from tabletap.controller.games import registry
from tabletap.controller.selfplay.play import GameRecord

Z95 = 1.959964  # the normal quantile for a two-sided 95 % interval


def wilson(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion: sound near 0 and 1 and for small samples,
    where the textbook p ± z·sqrt(p(1-p)/n) is not."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def _quantiles(values: Sequence[int]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}

    def at(q: float) -> float:
        return float(ordered[min(len(ordered) - 1, int(q * len(ordered)))])

    return {"min": float(ordered[0]), "p10": at(0.1), "median": float(statistics.median(ordered)),
            "p90": at(0.9), "max": float(ordered[-1]), "mean": statistics.fmean(ordered)}


def summarise(
    game: str, records: Sequence[GameRecord], policy: str, options: dict[str, Any], seed: int,
) -> dict[str, Any]:
    """Everything `tabletap selfplay` reports, as plain JSON values."""
    finished = [r for r in records if r.finished]
    seats = len(records[0].players) if records else 0
    n = len(finished)
    wins = [0] * seats
    scores: list[list[int]] = [[] for _ in range(seats)]
    for r in finished:
        for position, player in enumerate(r.order):
            if player in r.winners:
                wins[position] += 1
            scores[position].append(r.scores.get(player, 0))
    shared = sum(1 for r in finished if len(r.winners) > 1)
    seat_rows = []
    for i in range(seats):
        low, high = wilson(wins[i], n)
        seat_rows.append({
            "position": i + 1, "wins": wins[i], "win_rate": wins[i] / n if n else 0.0,
            "ci95": [low, high],
            "score_mean": statistics.fmean(scores[i]) if scores[i] else 0.0,
            "score_sd": statistics.pstdev(scores[i]) if len(scores[i]) > 1 else 0.0,
        })
    chance = 1 / seats if seats else 0.0
    summary: dict[str, Any] = {
        "game": game, "players": seats, "policy": policy, "options": options, "seed": seed,
        "games": len(records), "finished": n, "shared_wins": shared,
        "chance_rate": chance,
        "seats": seat_rows,
        "first_seat_advantage": "one seat: no turn order to compare" if seats == 1
        else _verdict(seat_rows[0], chance) if seat_rows else "no games",
        "turns": _quantiles([r.turns for r in finished]),
        "actions": _quantiles([r.actions for r in finished]),
        "turns_histogram": sorted(Counter(r.turns for r in finished).items()),
    }
    spec = registry.find(game)
    if spec is not None and spec.selfplay.summary is not None:
        summary.update(spec.selfplay.summary([r.bonuses for r in finished], options))
    return summary


def _verdict(first: dict[str, Any], chance: float) -> str:
    low, high = first["ci95"]
    if low > chance:
        return "the first seat wins more often than chance"
    if high < chance:
        return "the first seat wins less often than chance"
    return "no first-seat advantage can be told from chance at 95 %"


def render_text(summary: dict[str, Any]) -> str:
    """The report for people."""
    s = summary
    options = ", ".join(f"{k}={v}" for k, v in s["options"].items()) or "defaults"
    lines = [
        f"{s['game']}: {s['games']} games, {s['players']} player{'s' if s['players'] != 1 else ''},"
        f" {s['policy']} policy, "
        f"options {options}, seed {s['seed']}",
    ]
    if s["finished"] != s["games"]:
        lines.append(f"  {s['games'] - s['finished']} games did not end and are left out")
    lines.append(f"win rate by turn order (chance: {s['chance_rate']:.1%}; "
                 f"shared wins: {s['shared_wins']}):")
    for row in s["seats"]:
        low, high = row["ci95"]
        lines.append(
            f"  position {row['position']:>2}: {row['win_rate']:6.1%}  "
            f"95% CI {low:6.1%} - {high:6.1%}   score {row['score_mean']:6.2f} "
            f"± {row['score_sd']:.2f}"
        )
    lines.append(f"  -> {s['first_seat_advantage']}")
    t, a = s["turns"], s["actions"]
    if t:
        lines.append(
            f"game length, turns: median {t['median']:.0f}, 10-90 % {t['p10']:.0f}-{t['p90']:.0f}, "
            f"range {t['min']:.0f}-{t['max']:.0f} (actions: median {a['median']:.0f})"
        )
    for name, row in s.get("bonuses", {}).items():
        counted = "counted" if row["counted"] else "not played; would be earned"
        lines.append(f"{name.replace('_', ' ')} bonus: {row['rate']:.1%} of kingdoms "
                     f"({row['kingdoms']}; {counted})")
    return "\n".join(lines)
