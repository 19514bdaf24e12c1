"""Unguessable numbers and ids: game seeds, the journal's id, pairing requests and codes.

They come from the system's random source, as `secrets`' do: `secrets.randbelow` is
`random.SystemRandom()`'s draw below a bound and `secrets.token_hex` is `os.urandom(n).hex()`.
The daemon draws them here instead because `secrets` imports `hmac` for `compare_digest`, and
`hmac` loads OpenSSL's `_hashlib`: 2.4 % of the instructions of the daemon's start
(docs/BENCHMARKS.md, "Unguessable draws without OpenSSL"), for a function the daemon never
calls. Never `random`'s own generator here: its state can be worked out from what it drew.
"""

from __future__ import annotations

import os
from random import SystemRandom

_SOURCE = SystemRandom()


def randbelow(bound: int) -> int:
    """A number in [0, bound), each equally likely, from the system's random source."""
    if bound <= 0:
        raise ValueError(f"randbelow needs a bound above 0, not {bound}")
    return _SOURCE.randrange(bound)


def token_hex(nbytes: int) -> str:
    """`nbytes` bytes from the system's random source, as 2 * `nbytes` hex digits."""
    return os.urandom(nbytes).hex()
