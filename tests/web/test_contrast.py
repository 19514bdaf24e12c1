"""The page's colours keep WCAG AA contrast (4.5:1 for text): the palette in app.css, checked
pair by pair as the stylesheet uses them, so a new shade cannot quietly make a label unreadable
on a phone in daylight."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

CSS = (Path(__file__).resolve().parents[2] / "tabletap" / "web" / "static" / "app.css").read_text()
PALETTE = dict(re.findall(r"--([a-z-]+):\s*(#[0-9a-f]{6})", CSS))

# (text, background) as app.css pairs them: the page, buttons, refusals, and the crowns drawn on
# each Kingdomino landscape (white on dark landscapes, ink on light ones).
PAIRS = [
    ("ink", "card"), ("ink", "paper"), ("muted", "card"), ("muted", "paper"),
    ("accent-ink", "accent"), ("accent", "card"), ("bad", "bad-paper"), ("bad", "card"),
    ("#ffffff", "good"), ("ink", "wheat"), ("ink", "grassland"), ("ink", "castle"),
    ("#ffffff", "lake"), ("#ffffff", "forest"), ("#ffffff", "swamp"), ("#ffffff", "mine"),
]


def luminance(colour: str) -> float:
    channels = [int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def ratio(a: str, b: str) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def test_ratio_matches_the_wcag_formula():
    assert round(ratio("#000000", "#ffffff"), 1) == 21.0
    assert ratio("#777777", "#ffffff") < 4.5 < ratio("#767676", "#ffffff") + 0.01


@pytest.mark.parametrize(("text", "background"), PAIRS)
def test_text_is_readable(text, background):
    fg = text if text.startswith("#") else PALETTE[text]
    bg = PALETTE[background]
    assert ratio(fg, bg) >= 4.5, f"{text} on {background}: {ratio(fg, bg):.2f}:1"
