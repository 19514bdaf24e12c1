"""The table at play: the session (rules checked, journal first, then the chest and lights), the
set-up by game card, undo, presence, the notices listeners hear, the daemon's loop and how it
starts, the adapters found by name, tag identity and enrolment."""
