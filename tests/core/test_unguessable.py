"""controller/unguessable.py: the daemon's seeds, journal ids and pairing codes come from the
system's random source (`os.urandom`, as `secrets`' do), never from `random`'s own generator,
and drawing them does not load OpenSSL (`hmac`, `_hashlib`), which `secrets` does."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest

from tabletap.controller import unguessable


def test_draws_cover_the_range_and_nothing_outside_it() -> None:
    seen = {unguessable.randbelow(6) for _ in range(600)}
    assert seen == set(range(6))  # missing a face in 600 draws: about 6 * (5/6)**600
    assert all(0 <= unguessable.randbelow(2**31) < 2**31 for _ in range(200))
    assert unguessable.randbelow(1) == 0


@pytest.mark.parametrize("bound", [0, -3])
def test_a_bound_below_one_is_refused_by_name(bound: int) -> None:
    with pytest.raises(ValueError, match=f"not {bound}"):
        unguessable.randbelow(bound)


def test_tokens_are_the_systems_bytes_in_hex(monkeypatch: pytest.MonkeyPatch) -> None:
    assert len(unguessable.token_hex(8)) == 16 and len(unguessable.token_hex(6)) == 12
    monkeypatch.setattr(os, "urandom", lambda n: bytes(range(1, n + 1)))
    assert unguessable.token_hex(4) == "01020304"


def test_draws_are_not_the_seedable_generators() -> None:
    """Seeding `random`, as an engine's game does, changes nothing in what is drawn here: the
    same seed twice gives two different runs of draws."""
    random.seed(1)
    first = [unguessable.randbelow(2**31) for _ in range(4)]
    random.seed(1)
    assert [unguessable.randbelow(2**31) for _ in range(4)] != first


def test_importing_it_loads_no_openssl() -> None:
    code = ("import sys; from tabletap.controller import unguessable; "
            "unguessable.randbelow(6); unguessable.token_hex(8); "
            "print(sorted({'hmac', '_hashlib', 'secrets'} & set(sys.modules)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.strip() == "[]"
