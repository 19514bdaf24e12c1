"""Starting a game: players, options and the secret choice of fake keys.

On this set the servo latch, not the key's shape, decides whether a key opens the chest, so the
three true and two fake keys of each colour are chosen afresh for every game from the seed (or
forced by a scenario's `setup.fake_keys`, so tests know which keys are fake).
"""

from __future__ import annotations

from typing import Any

from tabletap.controller.language.said import ListOf, Said
from tabletap.controller.rules.base import Rejection, chance
from tabletap.games.magic_keys.rules.state import DICE_COUNT, MagicKeysState, Places
from tabletap.games.magic_keys.rules.track import COLOURS, KEYS, KEYS_PER_COLOUR, Track
from tabletap.games.magic_keys.words import COLOURS_SAID, msg
from tabletap.games.magic_keys.words import key as key_said

FAKES_PER_COLOUR = 2  # "There are three true keys and two fake keys in each color."
DICE_MODES = ("physical", "digital")
_KEY_RANK = {key: n for n, key in enumerate(KEYS)}  # shared by every new game's places


def _bad(message: Said) -> Rejection:
    return Rejection("bad-setup", message)


def _check_players(players: Any) -> tuple[str, ...]:
    if not isinstance(players, list | tuple) or not all(
        isinstance(p, str) and p.strip() for p in players
    ):
        # TRANSLATORS: a game started with players that are not names (a maker's set-up)
        raise _bad(msg("Players must be a list of names."))
    if not 2 <= len(players) <= 4:
        # TRANSLATORS: a game started with too few or too many players; n is how many
        raise _bad(msg("Magic Keys is for 2 to 4 players, not %(n)s.", n=len(players)))
    if len(set(players)) != len(players):
        # TRANSLATORS: a game started with two players of the same name
        raise _bad(msg("Every player needs a different name."))
    return tuple(players)


def _check_options(options: Any) -> str:
    options = {} if options is None else options
    if not isinstance(options, dict):
        # TRANSLATORS: a maker's options that are not name and value pairs
        raise _bad(msg("Options must give each option a value."))
    unknown = sorted(set(options) - {"dice"})
    if unknown:
        # TRANSLATORS: a maker's option the game does not have; names are the maker's words
        raise _bad(msg("Magic Keys has no option %(names)s; it knows only the dice.",
                       names=", ".join(map(repr, unknown))))
    mode = options.get("dice", "physical")
    if mode not in DICE_MODES:
        # TRANSLATORS: a maker's dice option that is neither choice; mode is the maker's word
        raise _bad(msg("The dice option must be physical or digital, not %(mode)s.",
                       mode=repr(mode)))
    return mode


def _check_fake_keys(fakes: Any, track: Track) -> tuple[str, ...]:
    if not isinstance(fakes, list | tuple) or not all(isinstance(k, str) for k in fakes):
        # TRANSLATORS: a maker's forced fake keys that are not a list of keys
        raise _bad(msg("The fake keys of a set-up must be a list of keys."))
    unknown = [k for k in fakes if k not in track.keys]
    if unknown:
        # TRANSLATORS: a maker's forced fake key that is not a coloured key; key as typed
        raise _bad(msg("The fake keys of a set-up name %(key)s, which is not a coloured key: "
                       "the golden key is always true.", key=repr(unknown[0])))
    doubled = sorted({k for k in fakes if fakes.count(k) > 1})
    if doubled:
        # TRANSLATORS: a maker's forced fake keys name one key twice; keys are their names
        raise _bad(msg("The fake keys of a set-up name %(keys)s more than once.",
                       keys=ListOf(tuple(key_said(k) for k in doubled))))
    for colour in COLOURS:
        count = sum(k.startswith(colour + "/") for k in fakes)
        if count != FAKES_PER_COLOUR:
            # TRANSLATORS: a maker's forced fake keys: wrong count of one colour
            raise _bad(msg("The fake keys of a set-up need exactly %(needed)s keys of each "
                           "colour: %(colour)s has %(n)s.", needed=FAKES_PER_COLOUR,
                           colour=COLOURS_SAID[colour], n=count))
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
        # TRANSLATORS: a maker's seed that is not a whole number
        raise _bad(msg("The seed must be a whole number."))
    mode = _check_options(options)
    setup = {} if setup is None else setup
    if not isinstance(setup, dict):
        # TRANSLATORS: a maker's set-up that is not name and value pairs
        raise _bad(msg("A set-up must give each entry a value."))
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
    # without a second (schema) check, in _Checked's field order.
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
