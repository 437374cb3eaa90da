"""Explorer (home): a slim header, the compact search-and-ask bar, the graph with its side
panel, Add, and the memory table."""

from components.sections import ask, explorer, overview
from components.state import context

ctx = context.current()
analysis = ctx.require()
overview.header(analysis)
explorer.explorer(ctx, analysis)
ask.add_box(ctx)
overview.memory_table(ctx, analysis)
overview.data_issues(analysis)
