"""``python serve.py [streamlit options]``: Memscope on a server that warms itself.

The same as ``streamlit run app.py [options]``, plus, in a background thread as the
server starts, :func:`components.state.warmup.prewarm`: the app's imports and the
configured embedded store's data, layout and clusters are ready before the first person
opens the page (``make run`` and the Docker image start the app this way).
"""

from __future__ import annotations

import sys
import threading
from pathlib import Path


def main() -> None:
    """Start the warm-up thread, then Streamlit's own command line."""
    from streamlit.web import cli

    from components.state.warmup import prewarm

    threading.Thread(target=prewarm, name="memscope-prewarm", daemon=True).start()
    sys.argv = ["streamlit", "run", str(Path(__file__).with_name("app.py")), *sys.argv[1:]]
    cli.main()


if __name__ == "__main__":
    main()
