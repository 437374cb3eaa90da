"""What other sections ask the explorer to highlight in the graph.

One place gathers every "look at these" set — the last Ask answer, the semantic forget
preview, the migration check and the review queue's "Open both in the graph" — so the
explorer takes one set of ids and does not know who marked them.
"""

from __future__ import annotations

from components.sections import ask, migration, semantic_forget, semantic_review
from components.state.context import AppContext
from memscope.graph.analysis import Analysis


def graph_marks(ctx: AppContext, analysis: Analysis) -> set[str]:
    """The node ids to highlight in the graph (the caller keeps only the visible ones)."""
    return (ask.answer_ids(ctx, analysis) | semantic_forget.marked_ids(ctx, analysis)
            | migration.marked_ids(ctx, analysis) | semantic_review.marked_ids(ctx, analysis))
