"""`tabletap games [--json]`: the games installed, as their specs describe them.

Games are plugins (docs/ADDING-A-GAME.md): this is how a maker sees that a game they installed
(`pip install ./examples/memory`, say) is found, with its players, how they join and its options.
"""

from __future__ import annotations

import argparse
import json


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser("games", help="list the installed games, their players and options")
    p.add_argument("--json", action="store_true", help="print the list as JSON")
    p.set_defaults(func=games)


def games(args: argparse.Namespace) -> int:
    from tabletap.controller.games import registry

    found = [{**registry.public(spec), "package": registry.package_of(spec.name),
              "docs": spec.docs} for spec in registry.games()]
    if args.json:
        print(json.dumps(found, indent=2))
        return 0
    if not found:
        print("No game is installed (is tabletap installed? pip install -e .)")
        return 1
    for g in found:
        players = g["players"]
        count = (f"{players['least']} player" if players["least"] == players["most"]
                 else f"{players['least']} to {players['most']} players")
        print(f"{g['name']}: {g['title']}, {count} ({g['package']}; {g['docs']})")
        print(f"  to join: {g['how_to_join']}")
        for o in g["options"]:
            choices = f" ({' or '.join(map(str, o['choices']))})" if o["choices"] else ""
            print(f"  option {o['name']}, default {o['default']}{choices}: {o['help']}")
    return 0
