"""Explorer (home): the compact search-and-ask bar, the graph with its side panel (summary
card, matches, answers, the selected node), Add, the memory table and data issues."""

from components.sections import ask, explorer, overview
from components.state import context

ctx = context.current()
analysis = ctx.require()
explorer.explorer(ctx, analysis)
ask.add_box(ctx)
overview.memory_table(ctx, analysis)
overview.data_issues(analysis)
