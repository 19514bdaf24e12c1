"""Sub-commands of `tabletap`, one module each with `register(subparsers)`.

A module's `register` adds its parser and sets `func` (called with the parsed args, returning the
exit code). Add a module by adding its name to COMMANDS and its one-line help to SUMMARIES.

Only the command being run is imported (cli.build_parser): `tabletap --help` lists the others
from SUMMARIES, so start-up does not pay for every command's imports.
"""

COMMANDS: list[str] = ["run", "state", "do", "score", "doctor", "tags", "firmware", "selfplay",
                       "new", "abandon", "undo", "content"]
COMMANDS += ["journal"]  # check or repair the game journal (issue 14)
COMMANDS += ["games"]  # the installed games (games are plugins)

# Commands that share a module with others (its register() adds them all); the rest live in a
# module of their own name.
MODULE_OF: dict[str, str] = {"new": "table", "abandon": "table", "undo": "table"}

# The help line each module's register() gives its parser (a test keeps the two the same).
SUMMARIES: dict[str, str] = {
    "run": "run the table daemon (resumes an unfinished game)",
    "state": "print the current game's public state",
    "do": "enter an action by hand at the running table",
    "score": "score a finished position written in a file (a kingdom file, say)",
    "doctor": "check every configured device and print a report",
    "tags": "read, write, enrol and check NFC tags",
    "firmware": "the Pico's firmware (serial wiring)",
    "selfplay": "play many games with the engines alone and report win rates by turn order, "
                "game lengths and scores",
    "new": "start a new game at the running table",
    "abandon": "abandon the game under way (it is archived)",
    "undo": "take back the last action of the current turn",
    "content": "check a game's content pack",
    "journal": "check the game journal, or repair a damaged one",
    "games": "list the installed games, their players and options",
}


def module_of(command: str) -> str:
    return MODULE_OF.get(command, command)
