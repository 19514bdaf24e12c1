"""The stand-in pack: tabletap's own content, not the printed game's."""
