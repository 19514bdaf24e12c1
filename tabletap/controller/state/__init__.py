"""The state folder and what is kept in it: its layout (folder.py), the game journal, the lock
that lets one daemon own it, and atomic replacement of its small files."""
