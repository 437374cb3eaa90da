"""Memscope home page: the graph explorer."""


from components import ask, explorer, overview
from components.bootstrap import bootstrap

ctx = bootstrap("Memory graph")
analysis = ctx.require()
overview.counts(analysis)
overview.data_issues(analysis)
ask_ids = ask.ask_box(ctx, analysis)
explorer.explorer(ctx, analysis, extra_highlight=ask_ids)
ask.add_box(ctx)
overview.memory_table(ctx, analysis)
