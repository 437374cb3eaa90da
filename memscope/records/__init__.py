"""Records: what the services send, read leniently into typed records (the flow's first step)."""
