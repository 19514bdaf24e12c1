"""`make bench`: measured figures, printed as a table (never asserted in unit tests)."""
