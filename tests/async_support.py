"""Running a coroutine from a test, whatever else runs in the test's process.

pytest-playwright's sync API keeps an event loop running in the main thread for the
whole session, so a test file that runs after a browser test on the same worker cannot
call :func:`asyncio.run` there ("cannot be called from a running event loop"): the
coroutine runs in a thread of its own, with a loop of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` on a thread of its own; its result (or its exception)."""
    with ThreadPoolExecutor(max_workers=1, thread_name_prefix="test-async") as pool:
        return pool.submit(asyncio.run, coro).result()
