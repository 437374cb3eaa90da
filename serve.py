"""``python serve.py [streamlit options]``: Memscope on a server that is warm before it
listens.

The same as ``streamlit run app.py [options]``, but first
:func:`components.warmup.prewarm` asks the process's view pipeline for exactly the
request a first visit makes (:meth:`memscope.pipeline.core.Pipeline.prewarm`: the
configured embedded store's data, layout, clusters, first overview) and computes the
summary card (a second or two for 50,000 memories kept on disk by ``python -m memscope
warm``). Only then does the
server open its port, so the first person — or the first request a load balancer lets
through once the health check answers — gets a warm page, and the warm-up never competes
with the server for the interpreter while a page is loading. ``make run`` and the Docker
image start the app this way. It also tells browsers to keep the graph's versioned files
(:mod:`components.graph_view.caching`), so a later session neither fetches nor compiles
vis-network again, and every page asks for them as soon as its HTML arrives
(:mod:`components.graph_view.preload`). And the page ``/`` carries a still picture of
the warm first view, painted before Streamlit has booted and faded out once the live
graph has drawn (:mod:`components.first_picture`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click


def main() -> None:
    """Warm the caches, then hand over to Streamlit's own command line."""
    from streamlit.web import bootstrap, cli

    from components import first_picture
    from components.graph_view import caching, preload
    from components.warmup import prewarm

    caching.install()  # the graph's versioned files: from the browser's cache, compiled once
    preload.install()  # every page asks for those files as soon as its HTML arrives
    first_picture.install()  # the page "/" paints the warm first view before the app boots
    argv = ["run", str(Path(__file__).with_name("app.py")), *sys.argv[1:]]
    # read the config (files and these flags) as `streamlit run` will, before the warm-up
    # reads any of it: otherwise Streamlit sees the flags as a change and asks for a restart
    try:
        with cli.main.make_context("streamlit", list(argv)) as ctx:
            run = cli.main_run.make_context("run", list(argv[1:]), parent=ctx)
            flags = {k: v for k, v in run.params.items() if k not in ("target", "args")}
    except click.ClickException:
        flags = None  # a wrong option: Streamlit's own command line says so, unwarmed
    if flags is not None:
        bootstrap.load_config_options(flag_options=flags)
        prewarm()
    sys.argv = ["streamlit", *argv]
    cli.main()


if __name__ == "__main__":
    main()
