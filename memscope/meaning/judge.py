"""The optional judge: an OpenAI-compatible chat endpoint that confirms or rejects the
offline audit's suspected contradictions.

The offline rule (:mod:`memscope.meaning.claims`) is the default and stands on its own;
a judge is used only when the user configures one (a base URL, a model, a key — as for
the memory services). Each suspected contradiction is sent as one chat request
(``POST {base_url}/chat/completions``) asking whether both statements can hold; the
answer is read as JSON ``{"conflict": bool, "reason": str}``. A rejected pair is dropped,
a confirmed one keeps its score and gains the judge's sentence; when the endpoint fails or
answers something else, the offline finding is kept as it was and :attr:`Judged.failed`
says why in one sentence. The key is sent only in the ``Authorization`` header and never
appears in a message or a ``repr``. Other kinds pass through unchanged.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

import httpx
from pydantic import BaseModel, ConfigDict, Field, SecretStr

from memscope.meaning.findings import SemanticFinding

#: at most this many candidates are sent per run (the best scores first)
LIMIT = 50
_REASON_MAX = 200
_SYSTEM = ("You check a personal assistant's memory store. Two statements were stored "
           "about the same subject. Say whether both can be true at the same time. Answer "
           'with JSON only: {"conflict": true or false, "reason": "one short sentence"}.')
_OBJECT = re.compile(r"\{.*\}", re.S)


class JudgeConfig(BaseModel):
    """Where the judge is. ``repr`` shows the key as ``**********``."""

    model_config = ConfigDict(frozen=True, extra="forbid", hide_input_in_errors=True)

    base_url: str = Field(min_length=1)
    model: str = Field(min_length=1)
    api_key: SecretStr | None = None
    timeout_s: float = Field(default=20.0, gt=0, le=300)


@dataclass(frozen=True)
class Judged:
    """The findings after the judge, and what it did."""

    findings: list[SemanticFinding]
    confirmed: int
    rejected: int
    #: one sentence when some candidates could not be judged (they were kept), else None
    failed: str | None


def chat_body(config: JudgeConfig, texts: Sequence[str]) -> dict[str, object]:
    """The chat request asking whether the two ``texts`` can both hold."""
    return {"model": config.model, "temperature": 0,
            "messages": [{"role": "system", "content": _SYSTEM},
                         {"role": "user", "content": f"Statement A: {texts[0]}\n"
                                                     f"Statement B: {texts[1]}"}]}


def read_verdict(payload: object) -> tuple[bool, str] | None:
    """``(conflict, one-line reason)`` from a chat completion's decoded JSON, or ``None``
    when it holds no such verdict."""
    try:
        content = payload["choices"][0]["message"]["content"]  # type: ignore[index]
        match = _OBJECT.search(content)
        verdict = json.loads(match.group(0)) if match else None
    except (ValueError, KeyError, IndexError, TypeError):
        return None
    if not isinstance(verdict, dict) or not isinstance(verdict.get("conflict"), bool):
        return None
    reason = verdict.get("reason")
    text = " ".join(reason.split())[:_REASON_MAX] if isinstance(reason, str) else ""
    return verdict["conflict"], text


def _ask(client: httpx.Client, config: JudgeConfig, finding: SemanticFinding
         ) -> tuple[bool, str] | None:
    """The judge's verdict on one pair, or ``None`` when its answer cannot be read."""
    response = client.post("/chat/completions", json=chat_body(config, finding.texts))
    response.raise_for_status()
    try:
        payload = response.json()
    except ValueError:
        return None
    return read_verdict(payload)


def judge_findings(findings: Sequence[SemanticFinding], config: JudgeConfig, *,
                   transport: httpx.BaseTransport | None = None) -> Judged:
    """Send the suspected contradictions (at most :data:`LIMIT`, best scores first) to
    the judge; keep every other finding as it is, in the same order."""
    candidates = sorted((f for f in findings if f.kind == "suspected_contradiction"),
                        key=lambda f: (-f.score, f.nodes))[:LIMIT]
    headers = {"Content-Type": "application/json"}
    if config.api_key is not None:
        headers["Authorization"] = f"Bearer {config.api_key.get_secret_value()}"
    verdicts: dict[str, tuple[bool, str]] = {}
    failures = 0
    problem = ""
    with httpx.Client(base_url=config.base_url.rstrip("/"), headers=headers,
                      timeout=config.timeout_s, transport=transport) as client:
        for finding in candidates:
            try:
                verdict = _ask(client, config, finding)
            except httpx.HTTPStatusError as exc:
                verdict, problem = None, f"it answered HTTP {exc.response.status_code}"
            except httpx.HTTPError:
                verdict, problem = None, "it could not be reached"
            if verdict is None:
                failures += 1
                problem = problem or "its answer was not the JSON verdict asked for"
                continue
            verdicts[finding.key] = verdict
    out: list[SemanticFinding] = []
    confirmed = rejected = 0
    for finding in findings:
        verdict = verdicts.get(finding.key)
        if verdict is None:
            out.append(finding)
        elif verdict[0]:
            confirmed += 1
            said = f" The judge ({config.model}) agreed: {verdict[1]}" if verdict[1] else (
                f" The judge ({config.model}) agreed.")
            out.append(replace(finding, reason=finding.reason + said))
        else:
            rejected += 1
    failed = None
    if failures:
        failed = (f"The judge could not check {failures} of {len(candidates)} suspected "
                  f"contradictions ({problem}); they are kept as the offline rule found them.")
    return Judged(out, confirmed, rejected, failed)


__all__ = ["LIMIT", "JudgeConfig", "Judged", "chat_body", "judge_findings", "read_verdict"]
