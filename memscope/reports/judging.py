"""Checking the review queue's pairs with a model: the optional judge, for the app.

:mod:`memscope.meaning.judge` holds the judge's question and how its answer is read; this
module is what the Audit page needs around it:

- :func:`candidates`: the pairs worth a model's look — the rules' suspected
  contradictions, then the *near misses* (two current memories of one space about the
  same subject, close in meaning, that no rule flagged and no version chain links);
- :class:`JudgeClient`: one chat request per pair through the sources' HTTP layer
  (:class:`~memscope.sources._http.HttpClient`: timeouts, retries with backoff on 429,
  5xx and dropped connections, typed errors with the key redacted); the key travels only
  in the ``Authorization`` header;
- :class:`Verdict`, kept under :func:`verdict_key` (the pair's digest and the model; the
  Audit page also ledgers each one).

Nothing here opens a socket until :meth:`JudgeClient.check` is called.
"""

from __future__ import annotations

import json
import secrets
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from urllib.parse import urlsplit

from pydantic import SecretStr

from memscope.graph.analysis import Analysis
from memscope.meaning.claims import claim
from memscope.meaning.findings import SemanticFinding
from memscope.meaning.judge import LIMIT, JudgeConfig, chat_body, read_verdict
from memscope.sources._http import ApiConfig, HttpClient, credential_fingerprint
from memscope.sources.errors import SourceError

#: two memories at least this close in meaning are a near miss when no rule flagged them
NEAR_MISS = 0.3
#: near misses sent at most (the closest first)
NEAR_MISSES = 20
#: a subject group larger than this is not searched for near misses
_GROUP_MAX = 300
_SERVICE = "the model"


@dataclass(frozen=True)
class Candidate:
    """One pair to check: a rule's finding, or a near miss the rules let through."""

    finding: SemanticFinding
    near_miss: bool = False


@dataclass(frozen=True)
class Verdict:
    """What a model said about one pair."""

    conflict: bool
    reason: str
    model: str

    @property
    def label(self) -> str:
        """"confirmed by <model>" or "rejected by <model>"."""
        return f"{'confirmed' if self.conflict else 'rejected'} by {self.model}"


class JudgeFailed(Exception):
    """One pair could not be judged; ``str()`` is one sentence without the key."""


def verdict_key(finding: SemanticFinding, model: str) -> str:
    """Where a verdict is kept: the pair's key (kind, ids, digest of both texts) and the
    model, so it lapses when either memory changes and each model has its own."""
    return f"{finding.key}|{model}"


def host(config: JudgeConfig) -> str:
    """The host (and port) the pairs are sent to, for the warning before sending."""
    return urlsplit(config.base_url).netloc or config.base_url


def is_local(config: JudgeConfig) -> bool:
    """Whether the endpoint is on this machine (a loopback address)."""
    name = (urlsplit(config.base_url).hostname or "").lower()
    return name in ("localhost", "::1") or name.startswith("127.")


def fingerprint(config: JudgeConfig) -> str:
    """What identifies a configuration in a cache or session key: URL, model and the key's
    fingerprint (never the key)."""
    key = credential_fingerprint(config.api_key) if config.api_key is not None else "-"
    return f"{config.base_url}|{config.model}|{key}"


# -- which pairs -----------------------------------------------------------------------------


def near_misses(analysis: Analysis, findings: Iterable[SemanticFinding],
                limit: int = NEAR_MISSES) -> list[SemanticFinding]:
    """Pairs the rules did not flag but a model might: two current memories of one space
    about one subject, at least :data:`NEAR_MISS` close in meaning, not in one version
    chain, not already a finding. Closest first, at most ``limit``."""
    from memscope.meaning.embed import embed  # the model loads only when asked

    ds = analysis.dataset
    flagged = {frozenset(f.nodes) for f in findings if len(f.nodes) == 2}
    flagged |= {frozenset(p) for f in findings if len(f.nodes) > 2
                for p in combinations(f.nodes, 2)}
    groups: dict[tuple[str | None, tuple[str, ...]], list[str]] = defaultdict(list)
    for mem in sorted(ds.memories.values(), key=lambda m: m.id):
        if not mem.is_latest or mem.is_forgotten or not mem.memory.strip():
            continue
        for key in claim(mem.memory).keys:
            groups[(mem.space, key)].append(mem.id)
    pairs: set[tuple[str, str]] = set()
    for members in groups.values():
        if 2 <= len(members) <= _GROUP_MAX:
            pairs.update((a, b) for a, b in combinations(members, 2)
                         if frozenset((a, b)) not in flagged)
    pairs = {(a, b) for a, b in pairs if not _chained(analysis, a, b)}
    if not pairs:
        return []
    ids = sorted({x for p in pairs for x in p})
    rows = embed([ds.memories[i].memory for i in ids])
    index = {m: n for n, m in enumerate(ids)}
    scored = sorted(((float(rows[index[a]] @ rows[index[b]]), a, b) for a, b in pairs),
                    key=lambda t: (-t[0], t[1], t[2]))
    out: list[SemanticFinding] = []
    for cos, a, b in scored:
        if cos < NEAR_MISS or len(out) >= limit:
            break
        first, second = sorted((ds.memories[a], ds.memories[b]),
                               key=lambda m: (m.created_at is None, m.created_at, m.id))
        out.append(SemanticFinding(
            "suspected_contradiction", (first.id, second.id), round(cos, 3),
            "No rule flagged these two, but they are about the same subject and close in "
            "meaning.", first.space, (first.memory, second.memory)))
    return out


def _chained(analysis: Analysis, a: str, b: str) -> bool:
    chain_a = analysis.chains.of(a)
    return chain_a is not None and chain_a is analysis.chains.of(b)


def candidates(analysis: Analysis, findings: Sequence[SemanticFinding], *,
               limit: int = LIMIT, misses: bool = True) -> list[Candidate]:
    """The pairs to send: the rules' suspected contradictions (surest first), then near
    misses, at most ``limit`` in all."""
    ruled = sorted((f for f in findings if f.kind == "suspected_contradiction"),
                   key=lambda f: (-f.score, f.nodes))
    out = [Candidate(f) for f in ruled[:limit]]
    if misses and len(out) < limit:
        out += [Candidate(f, near_miss=True)
                for f in near_misses(analysis, findings, min(NEAR_MISSES, limit - len(out)))]
    return out


# -- asking ----------------------------------------------------------------------------------


class JudgeClient:
    """One model endpoint: :meth:`check` asks about one pair (retrying as the sources do).
    Use as a context manager, or call :meth:`close`."""

    def __init__(self, config: JudgeConfig, *, retry_budget_s: float = 15.0) -> None:
        self.config = config
        key = config.api_key.get_secret_value() if config.api_key is not None else None
        auth = {"Authorization": f"Bearer {key}"} if key else {}
        # ApiConfig needs a key: with none, a random stand-in that is never sent
        api = ApiConfig(api_key=SecretStr(key or secrets.token_hex(16)), base_url=config.base_url,
                        timeout_s=config.timeout_s, retry_budget_s=retry_budget_s,
                        concurrency=1, concurrency_ceiling=1, backoff_max_s=5.0)
        self._http = HttpClient(api, service=f"{_SERVICE} at {host(config)}",
                                auth_headers={"Content-Type": "application/json", **auth})

    def __enter__(self) -> JudgeClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._http.close()

    def __repr__(self) -> str:
        return f"JudgeClient(host={host(self.config)!r}, model={self.config.model!r})"

    def check(self, finding: SemanticFinding) -> Verdict:
        """The model's verdict on ``finding``'s two texts, or :class:`JudgeFailed`."""
        try:
            payload = self._http.request("POST", "/chat/completions",
                                         operation="check a pair",
                                         json=chat_body(self.config, finding.texts))
        except SourceError as exc:
            raise JudgeFailed(str(exc)) from None
        refusal = _refusal(payload)
        if refusal is not None:
            raise JudgeFailed(f"The model declined to answer ({refusal}).")
        verdict = read_verdict(payload)
        if verdict is None:
            raise JudgeFailed("The model's answer was not the JSON verdict asked for.")
        return Verdict(verdict[0], verdict[1], self.config.model)


def _refusal(payload: object) -> str | None:
    """An OpenAI-style refusal (``message.refusal``), shortened, if the answer is one."""
    try:
        message = payload["choices"][0]["message"]  # type: ignore[index]
        said = message.get("refusal")
    except (KeyError, IndexError, TypeError, AttributeError):
        return None
    if isinstance(said, str) and said.strip():
        text = " ".join(said.split())
        return text if len(text) <= 120 else text[:119] + "…"
    return None


# -- kept verdicts ---------------------------------------------------------------------------


def verdicts_for(kept: Mapping[str, Verdict], finding: SemanticFinding) -> list[Verdict]:
    """Every kept verdict on ``finding`` (one per model), by model name."""
    prefix = f"{finding.key}|"
    return [v for k, v in sorted(kept.items()) if k.startswith(prefix)]


def config_from(url: str | None, model: str | None, key: str | None) -> JudgeConfig | None:
    """A configuration from its three settings, or ``None`` when URL or model is missing
    (raises ``ValueError`` when they are unusable)."""
    if not (url or "").strip() or not (model or "").strip():
        return None
    parts = urlsplit((url or "").strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError("the model's URL must start with http:// or https:// and name a host")
    if parts.username or parts.password or parts.query or parts.fragment:
        raise ValueError("the model's URL must not carry a user, password, query or fragment: "
                         "put the key in the key field")
    return JudgeConfig.model_validate({"base_url": (url or "").strip().rstrip("/"),
                                       "model": (model or "").strip(),
                                       "api_key": (key or "").strip() or None})


def describe_body(config: JudgeConfig, finding: SemanticFinding) -> str:
    """The request body as JSON text (what leaves the machine for one pair)."""
    return json.dumps(chat_body(config, finding.texts), ensure_ascii=False)


__all__ = ["NEAR_MISS", "Candidate", "JudgeClient", "JudgeFailed", "Verdict",
           "candidates", "config_from", "describe_body", "fingerprint", "host", "is_local",
           "near_misses", "verdict_key", "verdicts_for"]
