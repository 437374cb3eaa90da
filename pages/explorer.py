"""Explorer (home): the compact search-and-ask bar, a one-line summary, the graph across
the page with its drawer (matches, answers, the selected node), Add, "Forget memories
about…", the memory table and data issues."""

from components.sections import ask, explorer, overview, semantic_forget
from components.state import context
from components.widgets import nav, stage

nav.through_router()  # never drawn without the router (app.py)
stage.stylesheet()  # the page's layout and fonts (a style-only element: no room taken)
ctx = context.current()
analysis = nav.require(ctx)
explorer.explorer(ctx, analysis)
ask.add_box(ctx)
semantic_forget.section(ctx, analysis)
overview.memory_table(ctx, analysis)
overview.data_issues(analysis)
