"""Sub-commands of `tabletap`, one module each with `register(subparsers)`.

A module's `register` adds its parser and sets `func` (called with the parsed args, returning the
exit code). Add a module by adding its name to COMMANDS.
"""

COMMANDS: list[str] = ["run", "state", "do", "score", "doctor", "tags", "firmware", "table",
                       "content", "journal"]
