"""Sources: where memories come from, behind one interface with declared capabilities.

>>> from memscope.sources import FileSource
>>> FileSource(["feed.json"]).capabilities.reason("forget")          # doctest: +ELLIPSIS
'A snapshot file is read-only; ...'

Implementations: :class:`EmbeddedSource` (the local store), :class:`SupermemorySource`
(legacy v3/v4 API), :class:`SupermemoryV5Source` (current v5 API; :func:`supermemory_source`
picks by ``dialect``), :class:`SpomorySource` (HTTP), :class:`Mem0Source` (mem0's platform
API), :class:`FileSource` (snapshot files) and :class:`Mem0HistorySource` (a mem0
``history.db``; :func:`file_source` picks between the two by the files' content) and
:class:`ZepSource` (Zep Cloud's graphs). Every
failure is a :class:`SourceError` whose ``str()`` is one sentence for the UI.
"""

from memscope.sources._http import ApiConfig, credential_fingerprint
from memscope.sources.base import (
    ALL_CAPABILITY_NAMES,
    BULK_CAPABILITY_NAMES,
    CAPABILITY_NAMES,
    Capabilities,
    Source,
    merge_history,
)
from memscope.sources.embedded import EmbeddedSource
from memscope.sources.errors import (
    AuthError,
    BadRequest,
    ConfirmationRequired,
    DialectMismatch,
    FileError,
    Forbidden,
    ForgetMismatch,
    MalformedResponse,
    NetworkError,
    NotFound,
    PaymentRequired,
    QuotaExceeded,
    RateLimited,
    ServerError,
    SourceError,
    TimeoutError_,
    Unsupported,
)
from memscope.sources.files import FileSource, save_snapshot, snapshot_bytes, snapshot_object
from memscope.sources.mem0 import Mem0Config, Mem0Source
from memscope.sources.mem0_history import Mem0HistorySource, file_source
from memscope.sources.processing import wait_until_processed
from memscope.sources.results import (
    FINAL_STATUSES,
    AddResult,
    ForgetAllPreview,
    ForgetAllResult,
    ForgetReport,
    ForgetResult,
    LoadProgress,
    LoadResult,
    ProgressCallback,
    SearchHit,
    SearchResult,
    SemanticPreview,
)
from memscope.sources.spomory import SpomoryConfig, SpomorySource
from memscope.sources.supermemory import SupermemoryConfig, SupermemorySource
from memscope.sources.supermemory_v5 import SupermemoryV5Source, supermemory_source
from memscope.sources.zep import ZepConfig, ZepSource

__all__ = [
    "ALL_CAPABILITY_NAMES", "BULK_CAPABILITY_NAMES", "CAPABILITY_NAMES", "FINAL_STATUSES",
    "AddResult", "ApiConfig", "AuthError", "BadRequest",
    "Capabilities",
    "ConfirmationRequired", "DialectMismatch", "EmbeddedSource", "FileError", "FileSource",
    "Forbidden", "ForgetAllPreview", "ForgetAllResult", "ForgetMismatch", "ForgetReport",
    "ForgetResult", "LoadProgress",
    "LoadResult", "MalformedResponse", "Mem0Config", "Mem0HistorySource", "Mem0Source",
    "NetworkError", "NotFound", "PaymentRequired",
    "ProgressCallback", "QuotaExceeded", "RateLimited", "SearchHit", "SearchResult",
    "SemanticPreview", "ServerError", "Source", "SourceError", "SpomoryConfig", "SpomorySource",
    "SupermemoryConfig", "SupermemorySource", "SupermemoryV5Source", "TimeoutError_", "Unsupported",
    "ZepConfig", "ZepSource", "credential_fingerprint", "file_source", "merge_history",
    "save_snapshot", "snapshot_bytes",
    "snapshot_object", "supermemory_source", "wait_until_processed",
]
