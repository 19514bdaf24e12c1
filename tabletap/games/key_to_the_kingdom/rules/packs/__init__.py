"""Content packs for Key to the Kingdom, one folder each (a package so the wheel ships them)."""
