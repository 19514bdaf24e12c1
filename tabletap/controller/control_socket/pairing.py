"""Pairing a phone with the table by physical presence: no passwords anywhere.

The page asks (a `pair` request carrying the SHA-256 of the browser's session token, never the
token itself); the table shows the `pairing` light pattern for 30 seconds; a tap of a parent card
(`admin/<n>`, enrolled like any piece) at any reader within that window confirms it. Confirmed
pairings live in `pairings.json` in the state folder (0600, replaced atomically), so a power cut
neither loses nor half-writes one, and a stolen SD card holds no usable session token.
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from tabletap.controller.rules.base import Rejection
from tabletap.controller.state.atomic import atomic_write
from tabletap.controller.state.folder import StateFolder

log = logging.getLogger("tabletap.pairing")

WINDOW_SECONDS = 30.0
ADMIN_PIECE = re.compile(r"^admin/[0-9]+$")
TOKEN_HASH = re.compile(r"^[0-9a-f]{64}$")
LABEL_MAX = 60
MAX_PAIRINGS = 32  # a family has a few phones; a flood of pairings is a bug or an attack


class PairingError(ValueError):
    """A pairing request the table cannot take; the message is the sentence to show."""


@dataclass
class Pairing:
    id: str
    label: str
    token_sha256: str
    created: float  # Unix time
    card: str  # the parent card that confirmed it

    def public(self) -> dict[str, Any]:
        """What may leave the daemon: everything but the token's hash."""
        return {"id": self.id, "label": self.label, "created": self.created, "card": self.card}


@dataclass
class Request:
    """A pairing waiting for the parent card."""

    id: str
    label: str
    token_sha256: str
    expires: float  # on the daemon's clock
    outcome: str = "waiting"  # waiting, paired, expired
    pairing_id: str | None = None


@dataclass
class PairingStore:
    path: Path
    pairings: list[Pairing] = field(default_factory=list)

    @classmethod
    def load(cls, state_dir: str | Path) -> PairingStore:
        """The stored pairings; a damaged file is logged and read as none (every phone pairs
        again) rather than stopping the table."""
        path = StateFolder(state_dir).pairings
        store = cls(path)
        if not path.exists():
            return store
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            store.pairings = [Pairing(**p) for p in data["pairings"]]
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.error("%s is damaged (%s): every phone must pair again", path, exc)
            store.pairings = []
        return store

    def save(self) -> None:
        text = json.dumps({"pairings": [asdict(p) for p in self.pairings]}, indent=1)
        old = os.umask(0o177)  # the temp file is created 0600 before the rename
        try:
            atomic_write(self.path, text + "\n")
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)

    def find(self, token_sha256: str) -> Pairing | None:
        return next((p for p in self.pairings if p.token_sha256 == token_sha256), None)


class PairingDesk:
    """The daemon's side of pairing: one request at a time, confirmed by a parent card.

    `show` and `narrate` are how the desk speaks at the table (the light pattern, the
    play-by-play); both come from the session, so a desk needs no hardware of its own.
    """

    def __init__(self, store: PairingStore, show: Any, narrate: Any,
                 window: float = WINDOW_SECONDS) -> None:
        self.store = store
        self.show = show  # show(pattern, hold) -> None
        self.narrate = narrate
        self.window = window
        self.request: Request | None = None
        self.version = 0  # bumped on every change a page should see

    # -- requests from the page -----------------------------------------------------------

    def start(self, token_sha256: Any, label: Any, now: float) -> Request:
        if not isinstance(token_sha256, str) or not TOKEN_HASH.match(token_sha256):
            raise PairingError("bad request: `token_sha256` is the hex SHA-256 of the session "
                               "token")
        label = str(label or "a phone")[:LABEL_MAX]
        if self.store.find(token_sha256):
            raise PairingError("This browser is already paired.")
        waiting = self.request
        if waiting is not None and waiting.outcome == "waiting" and now < waiting.expires:
            if waiting.token_sha256 == token_sha256:
                return waiting
            raise PairingError("Another phone is pairing right now; try again in "
                               f"{int(waiting.expires - now) + 1} seconds.")
        if len(self.store.pairings) >= MAX_PAIRINGS:
            raise PairingError(f"The table already has {MAX_PAIRINGS} pairings; revoke one "
                               "first.")
        self.request = Request(secrets.token_hex(8), label, token_sha256, now + self.window)
        self.version += 1
        self.narrate(f"  {label} asks to pair: tap the parent card at any reader within "
                     f"{self.window:g} seconds.")
        self.show("pairing", False)
        return self.request

    def status(self, request_id: Any, now: float) -> dict[str, Any]:
        self.tick(now)
        r = self.request
        if r is None or r.id != request_id:
            return {"status": "unknown"}
        out: dict[str, Any] = {"status": r.outcome}
        if r.outcome == "waiting":
            out["seconds_left"] = round(max(0.0, r.expires - now), 1)
        if r.pairing_id:
            out["pairing"] = r.pairing_id
        return out

    def check(self, token_sha256: Any) -> Pairing | None:
        if not isinstance(token_sha256, str):
            return None
        return self.store.find(token_sha256)

    def revoke(self, pairing_id: Any) -> Pairing:
        found = next((p for p in self.store.pairings if p.id == pairing_id), None)
        if found is None:
            raise PairingError(f"No pairing {pairing_id!r}; `tabletap web pairings` lists them.")
        self.store.pairings = [p for p in self.store.pairings if p is not found]
        self.store.save()
        self.version += 1
        self.narrate(f"  The pairing of {found.label} is revoked.")
        return found

    def listing(self) -> list[dict[str, Any]]:
        return [p.public() for p in self.store.pairings]

    # -- the table ------------------------------------------------------------------------

    def tap(self, reader: str, piece: str, now: float) -> None:
        """A parent card at a reader: confirms the waiting request, or is refused."""
        self.tick(now)
        r = self.request
        if r is None or r.outcome != "waiting":
            raise Rejection("no-pairing", "No phone is waiting to pair: ask on the page first, "
                            "then tap the parent card.")
        pairing = Pairing(secrets.token_hex(6), r.label, r.token_sha256, time.time(), piece)
        self.store.pairings.append(pairing)
        try:
            self.store.save()
        except OSError as exc:
            self.store.pairings.pop()
            why = exc.strerror or exc
            raise Rejection("pairing-not-saved", f"tabletap could not save the pairing ({why}); "
                            "check the SD card, then try again.") from None
        r.outcome, r.pairing_id = "paired", pairing.id
        self.version += 1
        log.info("paired %s (%s) with %s at %s", pairing.id, pairing.label, piece, reader)
        self.narrate(f"  {r.label} is paired (parent card at the {reader} reader).")
        self.show("accepted", True)

    def tick(self, now: float) -> None:
        r = self.request
        if r is not None and r.outcome == "waiting" and now >= r.expires:
            r.outcome = "expired"
            self.version += 1
            self.narrate(f"  Nobody tapped the parent card: {r.label} is not paired.")
            self.show("rejected", True)

    @property
    def waiting(self) -> bool:
        return self.request is not None and self.request.outcome == "waiting"
