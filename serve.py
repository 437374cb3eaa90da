"""``python serve.py [streamlit options]``: Memscope on a server that is warm before it
listens.

The same as ``streamlit run app.py [options]``, but first
:func:`components.state.warmup.prewarm` reads the configured embedded store's data,
layout, clusters, first overview and summary into the shared caches (a second or two
for 50,000 memories kept on disk by ``python -m memscope warm``). Only then does the
server open its port, so the first person — or the first request a load balancer lets
through once the health check answers — gets a warm page, and the warm-up never competes
with the server for the interpreter while a page is loading. ``make run`` and the Docker
image start the app this way.
"""

from __future__ import annotations

import sys
from pathlib import Path


def main() -> None:
    """Warm the caches, then hand over to Streamlit's own command line."""
    from streamlit.web import cli

    from components.state.warmup import prewarm

    prewarm()
    sys.argv = ["streamlit", "run", str(Path(__file__).with_name("app.py")), *sys.argv[1:]]
    cli.main()


if __name__ == "__main__":
    main()
