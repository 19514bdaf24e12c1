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
from tabletap.controller.language.messages import msg, msg_n
from tabletap.controller.language.said import Said
from tabletap.controller.language.said import plain as as_written
from tabletap.controller.language.words import Words

# A whole game's journal and its archived copy, with room to spare: a long game writes some
# tens of KiB, so a hundred is a safe figure to count games by.
GAME_BYTES = 100 * 1024
MANY_GAMES = 10_000
_FREE = re.compile(r"(\d+) MiB free")


def state_said(status: str) -> Said:
    """How a device is, in a parent's words."""
    if status == "ok":
        # TRANSLATORS: the table check on the phone page: this device works
        return msg("working")
    if status == "warning":
        # TRANSLATORS: the table check on the phone page: this device needs a grown-up's look
        return msg("needs a look")
    # TRANSLATORS: the table check on the phone page: this device does not work
    return msg("not working")


def games_room(detail: str) -> Said | None:
    """"room for about N more games" from the state folder's detail."""
    found = _FREE.search(detail)
    if found is None:
        return None
    games = int(found.group(1)) * 2**20 // GAME_BYTES
    if games >= MANY_GAMES:
        many = f"{MANY_GAMES:,}"
        # TRANSLATORS: the table check: how many more games the memory card can keep
        return msg("room for well over %(n)s more games", n=many)
    # TRANSLATORS: the table check: how many more games the memory card can keep
    return msg_n("room for about %(n)s more game", "room for about %(n)s more games", games)


def _thing(device: str) -> Said:
    name = re.sub(r"\s*\(.*\)$", "", device)  # no pin numbers or backends
    if name.startswith("reader "):
        # TRANSLATORS: the table check: a tag reader; where is the reader's name in the
        # settings (chest, left, ...)
        return msg("Reader at the %(where)s", where=name[7:].replace("-", " "))
    if name.startswith("button "):
        # TRANSLATORS: the table check: a button; button is its name (end-turn, roll)
        return msg("The %(button)s button", button=name[7:])
    match name:
        case "state folder":
            # TRANSLATORS: the table check: the memory card where games are saved
            return msg("Saved games")
        case "chest servo":
            # TRANSLATORS: the table check: the chest's lock
            return msg("Chest")
        case "lights":
            # TRANSLATORS: the table check: the table's lights
            return msg("Lights")
        case "board":
            # TRANSLATORS: the table check: the small board that drives the chest and lights
            return msg("The board for the chest and the lights")
        case "lid switch":
            # TRANSLATORS: the table check: the switch that sees the chest's lid shut
            return msg("Chest lid")
        case "speaker":
            # TRANSLATORS: the table check: the loudspeaker
            return msg("Voice")
        case "saved game":
            # TRANSLATORS: the table check: the game saved on the memory card
            return msg("Saved game")
    return as_written(name[:1].upper() + name[1:])


def plain_said(finding: Finding) -> Said:
    """One line a parent reads: the thing, then working, needs a look or not working."""
    thing, state = _thing(finding.device), state_said(finding.status)
    room = games_room(finding.detail) if finding.device == "state folder" \
        and finding.status != "failed" else None
    if room is not None:
        # TRANSLATORS: a line of the table check: thing, how it is, how much room is left
        return msg("%(thing)s: %(state)s, %(room)s", thing=thing, state=state, room=room)
    if finding.said is not None:  # the check says what happened in a parent's words too
        # TRANSLATORS: a line of the table check: thing, how it is, then what happened
        return msg("%(thing)s: %(state)s. %(why)s", thing=thing, state=state, why=finding.said)
    # TRANSLATORS: a line of the table check: thing, then how it is
    return msg("%(thing)s: %(state)s", thing=thing, state=state)


def plain(finding: Finding, words: Words | None = None) -> str:
    """The line in `words`' language (English by default)."""
    return (words or Words())(plain_said(finding))
