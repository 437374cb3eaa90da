"""Explorer (home): counts, Ask, the graph with its panel, Add, the memory table."""

from components.sections import ask, explorer, overview
from components.state import context

ctx = context.current()
analysis = ctx.require()
overview.counts(analysis)
overview.data_issues(analysis)
ask_ids = ask.ask_box(ctx, analysis)
explorer.explorer(ctx, analysis, extra_highlight=ask_ids)
ask.add_box(ctx)
overview.memory_table(ctx, analysis)
