"""What the two HTTP sources share: one :class:`HttpClient`, its call count, its label."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from memscope.sources._http import ApiConfig, HttpClient
from memscope.sources.base import Source
from memscope.sources.results import LoadResult


class HttpSource(Source):
    """A source behind an HTTP API. Subclasses set :attr:`service` (its name in messages)."""

    def __init__(self, config: ApiConfig, auth_headers: Mapping[str, str], *,
                 sleep: Callable[[float], None] = time.sleep,
                 ceiling: int | None = None) -> None:
        """``ceiling``: the most requests in flight the client's adaptive limit may grow
        to (``config.concurrency_ceiling`` when not given)."""
        self.config = config
        self._http = HttpClient(config, service=self.service, sleep=sleep,
                                auth_headers=dict(auth_headers), ceiling=ceiling)
        self._last: LoadResult | None = None

    @property
    def label(self) -> str:
        return f"{self.service} at {self.config.host}"

    @property
    def calls_service(self) -> bool:
        return True

    def identity(self) -> str:
        """``kind|base URL|key:<fingerprint>`` (the key itself never appears)."""
        return f"{self.kind}|{self.config.base_url}|key:{self.config.credential_fingerprint()}"

    def calls_note(self) -> str | None:
        """How many calls this source object made to the service."""
        n = self.calls
        return f"This session made {n} {self.service} call{'s' if n != 1 else ''}."

    @property
    def calls(self) -> int:
        return self._http.calls

    def close(self) -> None:
        self._http.close()
