"""The self-play report as a picture: win rate by turn order with its 95 % intervals against
chance, and the distribution of game lengths. matplotlib is imported here only, when a plot is
asked for, so `tabletap` itself starts without it."""

from __future__ import annotations

from typing import Any


def plot(summary: dict[str, Any], path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")  # files only: no display at the table or in CI
    import matplotlib.pyplot as plt

    s = summary
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    positions = [row["position"] for row in s["seats"]]
    rates = [row["win_rate"] * 100 for row in s["seats"]]
    below = [(row["win_rate"] - row["ci95"][0]) * 100 for row in s["seats"]]
    above = [(row["ci95"][1] - row["win_rate"]) * 100 for row in s["seats"]]
    left.bar(positions, rates, color="#4c72b0", yerr=[below, above], capsize=4,
             label="win rate, 95 % CI")
    left.axhline(s["chance_rate"] * 100, color="#c44e52", linestyle="--", label="chance")
    top = max([row["ci95"][1] for row in s["seats"]] + [s["chance_rate"]]) * 100
    left.set_ylim(0, top * 1.35)  # room for the legend above the bars
    left.set_xticks(positions)
    left.set_xlabel("position in turn order (1 moves first)")
    left.set_ylabel("games won (%)")
    left.set_title("Who wins")
    left.legend(loc="upper right", fontsize="small")
    histogram = s["turns_histogram"]
    if histogram:
        lengths, counts = zip(*histogram, strict=True)
        span = max(lengths) - min(lengths) + 1
        right.hist(lengths, weights=counts, bins=min(span, 40), color="#55a868")
    right.set_xlabel("turns in the game")
    right.set_ylabel("games")
    right.set_title("How long a game lasts")
    options = ", ".join(f"{k}={v}" for k, v in s["options"].items())
    fig.suptitle(f"{s['game']}, {s['players']} players, {s['finished']} {s['policy']} games"
                 + (f" ({options})" if options else ""))
    fig.savefig(path, dpi=100)
    plt.close(fig)
