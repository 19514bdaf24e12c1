"""The table check in a parent's words (issue 21, defect 11): "Reader at the chest: working",
"Saved games: room for about 4,000 more games", rather than the maker's "PN532 firmware 1.6" or
"76047 MiB free", which stay on the page folded under each line for whoever built the box.

Only the page uses this; `tabletap doctor` keeps the maker's words, since its reader is the
maker. It reads the findings as controller.health.checks writes them (device and detail), so
the checks stay one set for both.
"""

from __future__ import annotations

import re

from tabletap.controller.health.checks import Finding

# A whole game's journal and its archived copy, with room to spare: a long game writes some
# tens of KiB, so a hundred is a safe figure to count games by.
GAME_BYTES = 100 * 1024
MANY_GAMES = 10_000
STATE = {"ok": "working", "warning": "needs a look", "failed": "not working"}
_FREE = re.compile(r"(\d+) MiB free")


def games_room(detail: str) -> str:
    """"room for about N more games" from the state folder's detail."""
    found = _FREE.search(detail)
    if found is None:
        return ""
    games = int(found.group(1)) * 2**20 // GAME_BYTES
    if games >= MANY_GAMES:
        return f"room for well over {MANY_GAMES:,} more games"
    return f"room for about {games:,} more games"


def _thing(device: str) -> str:
    name = re.sub(r"\s*\(.*\)$", "", device)  # no pin numbers or backends
    if name.startswith("reader "):
        return f"Reader at the {name[7:].replace('-', ' ')}"
    if name.startswith("button "):
        return f"The {name[7:]} button"
    words = {"state folder": "Saved games", "chest servo": "Chest", "lights": "Lights",
             "board": "The board for the chest and the lights", "lid switch": "Chest lid",
             "speaker": "Voice", "saved game": "Saved game"}
    return words.get(name, name[:1].upper() + name[1:])


def plain(finding: Finding) -> str:
    """One line a parent reads: the thing, then working, needs a look or not working."""
    said = f"{_thing(finding.device)}: {STATE.get(finding.status, finding.status)}"
    if finding.device == "state folder" and finding.status != "failed":
        room = games_room(finding.detail)
        if room:
            said += f", {room}"
    return said
