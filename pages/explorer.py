"""Explorer (home): the compact search-and-ask bar, the graph with its side panel (summary
card, matches, answers, the selected node), Add, "Forget memories about…", the memory
table and data issues."""

from components.sections import ask, explorer, overview, semantic_forget
from components.state import context
from components.widgets import nav

nav.through_router()  # never drawn without the router (app.py)
ctx = context.current()
analysis = ctx.require()
explorer.explorer(ctx, analysis)
ask.add_box(ctx)
semantic_forget.section(ctx, analysis)
overview.memory_table(ctx, analysis)
overview.data_issues(analysis)
