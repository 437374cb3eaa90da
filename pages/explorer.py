"""Explorer (home): the compact search-and-ask bar, the graph with its side panel (summary
card, matches, answers, the selected node), Add, the memory table and data issues."""

from components.sections import ask, explorer, overview
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = ctx.require()
explorer.explorer(ctx, analysis)
ask.add_box(ctx)
overview.memory_table(ctx, analysis)
overview.data_issues(analysis)
