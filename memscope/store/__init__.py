"""The embedded SQLite store: schema, search, ledger."""
