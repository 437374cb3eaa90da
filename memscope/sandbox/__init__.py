"""A local API sandbox: Supermemory (v5 and v3/v4, one store), Spomory (/v1) and mem0's
platform API (under /mem0, same store) and Zep Cloud's graph API (under /zep/api/v4, an
in-memory Graphiti-like account) over real HTTP on loopback.

Serves the embedded store and an in-memory Spomory graph, checks API keys and injects
faults (latency, 429 with ``Retry-After``, 5xx, timeouts, dropped connections, malformed
JSON, shifting pagination). Start it with ``python -m memscope.sandbox --port 8765`` or,
in tests, ``Sandbox.create(tmp_path).start()`` on a free port.
"""

from memscope.sandbox.faults import Faults, RequestRecord
from memscope.sandbox.mem0_server import Mem0Sandbox
from memscope.sandbox.zep_server import ZepSandbox

#: the sandbox with every API, mem0's and Zep's included
#: (:mod:`memscope.sandbox.mem0_server`, :mod:`memscope.sandbox.zep_server`)
Sandbox = ZepSandbox

__all__ = ["Faults", "Mem0Sandbox", "RequestRecord", "Sandbox", "ZepSandbox"]
