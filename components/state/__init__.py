"""The session model and what hangs on it: connection, cached data, the app context."""
