"""Starting a game: players, options and the secret choice of fake keys.

On this set the servo latch, not the key's shape, decides whether a key opens the chest, so the
three true and two fake keys of each colour are chosen afresh for every game from the seed (or
forced by a scenario's `setup.fake_keys`, so tests know which keys are fake).
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.rules.base import Rejection, chance
from tabletap.games.magic_keys.rules.state import DICE_COUNT, MagicKeysState, Places
from tabletap.games.magic_keys.rules.track import COLOURS, KEYS, KEYS_PER_COLOUR, Track

FAKES_PER_COLOUR = 2  # "There are three true keys and two fake keys in each color."
DICE_MODES = ("physical", "digital")
_KEY_RANK = {key: n for n, key in enumerate(KEYS)}  # shared by every new game's places


def _bad(message: str) -> Rejection:
    return Rejection("bad-setup", message)


def _check_players(players: Any) -> tuple[str, ...]:
    if not isinstance(players, list | tuple) or not all(
        isinstance(p, str) and p.strip() for p in players
    ):
        raise _bad("Players must be a list of names, like [ana, ben].")
    if not 2 <= len(players) <= 4:
        raise _bad(f"Magic Keys is for 2 to 4 players, not {len(players)}.")
    if len(set(players)) != len(players):
        raise _bad("Every player needs a different name.")
    return tuple(players)


def _check_options(options: Any) -> str:
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise _bad("Options must be a mapping, like {dice: digital}.")
    unknown = sorted(set(options) - {"dice"})
    if unknown:
        raise _bad(f"Magic Keys has no option {', '.join(map(repr, unknown))}; it knows 'dice'.")
    mode = options.get("dice", "physical")
    if mode not in DICE_MODES:
        raise _bad(f"The dice option must be 'physical' or 'digital', not {mode!r}.")
    return mode


def _check_fake_keys(fakes: Any, track: Track) -> tuple[str, ...]:
    if not isinstance(fakes, list | tuple) or not all(isinstance(k, str) for k in fakes):
        raise _bad("setup.fake_keys must be a list of keys, like [purple/4, purple/5, ...].")
    unknown = [k for k in fakes if k not in track.keys]
    if unknown:
        raise _bad(
            f"setup.fake_keys names {unknown[0]!r}, which is not a coloured key "
            f"(purple/1 ... yellow/{KEYS_PER_COLOUR}; the golden key is always true)."
        )
    doubled = sorted({k for k in fakes if fakes.count(k) > 1})
    if doubled:
        raise _bad(f"setup.fake_keys lists {', '.join(doubled)} more than once.")
    for colour in COLOURS:
        count = sum(k.startswith(colour + "/") for k in fakes)
        if count != FAKES_PER_COLOUR:
            raise _bad(
                f"setup.fake_keys needs exactly {FAKES_PER_COLOUR} {colour} keys, not {count}."
            )
    return tuple(k for k in track.keys if k in fakes)


# random.sample(range(1, 6), 2) as CPython's Random draws it from a population this small:
# the pool method (take pool[j], move the last free number into its place), each index j by
# rejection sampling over getrandbits. Written out, the draws are the same numbers from the same
# stream (a test compares them with random.sample) without sample's general machinery: this
# draw was a third of a new game's time. _PAIRS[first][second]: the numbers the two indexes
# pick, smaller first.
assert FAKES_PER_COLOUR == 2
_PAIRS: list[list[tuple[int, int]]] = []
for _first in range(KEYS_PER_COLOUR):
    _pool = list(range(1, KEYS_PER_COLOUR + 1))
    _taken = _pool[_first]
    _pool[_first] = _pool[-1]
    _PAIRS.append([(min(_taken, n), max(_taken, n)) for n in _pool[:-1]])
_WIDTHS = (KEYS_PER_COLOUR.bit_length(), (KEYS_PER_COLOUR - 1).bit_length())


def _draw_fake_keys(seed: int, track: Track) -> tuple[str, ...]:
    """Two fakes per colour, from chance(seed, 0, "fake-keys"), in key order."""
    bits = chance(seed, 0, "fake-keys").getrandbits
    first_width, second_width = _WIDTHS
    fakes: list[str] = []
    for start in range(0, len(KEYS), KEYS_PER_COLOUR):  # colour by colour, as KEYS lists them
        first = bits(first_width)
        while first >= KEYS_PER_COLOUR:
            first = bits(first_width)
        second = bits(second_width)
        while second >= KEYS_PER_COLOUR - 1:
            second = bits(second_width)
        low, high = _PAIRS[first][second]
        fakes += (KEYS[start + low - 1], KEYS[start + high - 1])
    # smaller number first: the keys' order; the very strings of KEYS, so that looking a key up
    # among the fakes is an identity check
    return tuple(fakes)


def new_game(
    track: Track, players: Any, seed: Any, options: Any, setup: Any
) -> MagicKeysState:
    """A fresh state; Rejection `bad-setup` names whatever is impossible."""
    seats = _check_players(players)
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise _bad(f"The seed must be a whole number, not {seed!r}.")
    mode = _check_options(options)
    setup = {} if setup is None else setup
    if not isinstance(setup, dict):
        raise _bad("Setup must be a mapping, like {fake_keys: [...]}.")
    unknown = sorted(set(setup) - {"fake_keys"})
    if unknown:
        raise _bad(
            f"Magic Keys has no setup entry {', '.join(map(repr, unknown))}; it knows 'fake_keys'."
        )
    if "fake_keys" in setup:
        fakes = _check_fake_keys(setup["fake_keys"], track)
    else:
        fakes = _draw_fake_keys(seed, track)
    # Everything above is checked here, so the state is consistent by construction: built
    # without a second (pydantic) check, in _Checked's field order.
    return MagicKeysState.trusted([
        seats,  # players
        seed,
        mode,  # dice_mode
        fakes,  # fake_keys
        Places.fresh(track.keys, _KEY_RANK if track.keys is KEYS else None),  # places
        dict.fromkeys(seats, 0),  # gems
        track.chest_gems,  # chest
        0,  # current
        None,  # winner
        0 if mode == "digital" else None,  # pawn
        DICE_COUNT,  # dice
        (),  # showing
        False,  # rolled
        False,  # moved
        0,  # rolls
    ])
