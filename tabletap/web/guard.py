"""Who may change what: session cookies, CSRF tokens and the pairing rate limit.

Every browser gets a random session token in an HttpOnly, SameSite=Strict cookie. The daemon only
ever sees its SHA-256 (pairing stores the hash), so neither the socket nor the state folder holds
a usable token. A changing request must carry the CSRF token the page got from /api/session (an
HMAC of the session token under a key that lives only in this process's memory) and come from
this page's own origin; then the daemon says whether the session is paired.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from urllib.parse import urlsplit

from limits import parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.requests import Request

from tabletap.controller.language.said import Said
from tabletap.web.words import msg

COOKIE = "tabletap_session"
CSRF_HEADER = "x-csrf-token"
COOKIE_MAX_AGE = 365 * 24 * 3600  # a pairing lasts until it is revoked
PAIR_RATE = "5/minute"  # pairing attempts per client address


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def client_address(request: Request) -> str:
    """The address a request came from, as the TCP connection says (never a header a client
    could write, such as X-Forwarded-For): the key of the rate limit, and of the daemon's
    pairing queue and cooldown."""
    return request.client.host if request.client else "unknown"


class Guard:
    def __init__(self, pair_rate: str = PAIR_RATE) -> None:
        self.key = secrets.token_bytes(32)
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.pair_rate = parse(pair_rate)

    @staticmethod
    def new_token() -> str:
        return secrets.token_urlsafe(32)

    @staticmethod
    def session_token(request: Request) -> str | None:
        token = request.cookies.get(COOKIE)
        return token if token and 20 <= len(token) <= 100 else None

    def csrf_for(self, token: str) -> str:
        return hmac.new(self.key, token.encode(), hashlib.sha256).hexdigest()

    def csrf_problem(self, request: Request) -> Said | None:
        """Why this changing request is refused before pairing is even asked, or None (said
        on the page, so in its words)."""
        token = self.session_token(request)
        if token is None:
            # TRANSLATORS: on the phone page, when the browser lost its session cookie
            return msg("This browser has no session: reload the page.")
        origin = request.headers.get("origin")
        if origin is not None and urlsplit(origin).netloc != request.headers.get("host"):
            # TRANSLATORS: an answer to a request another web site made through the phone
            return msg("A request from another site is refused.")
        given = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(given, self.csrf_for(token)):
            # TRANSLATORS: on the phone page, when the page was open too long (its security
            # token no longer fits); reloading mends it
            return msg("The page's security token is stale: reload the page.")
        return None

    def may_try_pairing(self, request: Request) -> bool:
        return self.limiter.hit(self.pair_rate, "pair", client_address(request))
