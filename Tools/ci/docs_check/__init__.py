"""Tools/ci/check-docs.py's checks, one module per kind of claim."""
