"""The explorer's view pipeline: from a shared load to what the graph draws.

:mod:`~memscope.pipeline.loads` holds the shared loads; :mod:`~memscope.pipeline.request`
the frozen request a page builds once per run; :mod:`~memscope.pipeline.steps` the steps
and what each depends on (one table); :mod:`~memscope.pipeline.memo` memoises them;
:class:`~memscope.pipeline.core.Pipeline` composes them. No Streamlit here.
"""
