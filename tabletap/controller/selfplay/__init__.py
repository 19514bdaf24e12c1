"""Self-play: whole games played by the engines alone, and what many of them say."""
