"""The table's config: its model and checks (config.py) and where the file is (path.py)."""
