"""Credentials never appear in logs, URLs, exception messages, reprs or cache keys."""

from __future__ import annotations

import logging
import pickle

import pytest
from pydantic import SecretStr, ValidationError
from sandbox_fixture import FAST, running_sandbox, spomory, supermemory

from memscope.sources import (
    SourceError,
    SpomoryConfig,
    SupermemoryConfig,
    credential_fingerprint,
)

SM_KEY = "sm-SECRET-0123456789abcdef"
SP_KEY = "sp-SECRET-fedcba9876543210"


@pytest.fixture
def sandbox(tmp_path):
    with running_sandbox(tmp_path, supermemory_keys=(SM_KEY,), spomory_keys=(SP_KEY,)) as sb:
        yield sb


def _exercise(sandbox) -> list[str]:
    """Successes, retries and failures of both clients; returns every error message."""
    messages = []
    sm = supermemory(sandbox, page_limit=4)
    sandbox.faults.update(status_sequence=[429, 503], drops=1)
    sm.load()
    sm.forget("mem_trip")
    sm.history("mem_fe_v3")
    sandbox.faults.update(timeouts=1, hang_s=0.5, status_sequence=[], drops=0)
    for call in (lambda: supermemory(sandbox, timeout_s=0.2).load(),
                 lambda: supermemory(sandbox, api_key="sm-wrong-key-1234").load(),
                 lambda: spomory(sandbox, api_key="sp-wrong-key-1234").load()):
        with pytest.raises(SourceError) as err:
            call()
        messages += [str(err.value), repr(err.value), str(err.value.args)]
    sp = spomory(sandbox)
    sp.forget(next(iter(sp.load().dataset.relations)))
    sp.search("张三")
    return messages


def test_keys_never_reach_logs_urls_messages_or_reprs(sandbox, caplog):
    for name in ("", "httpx", "httpcore", "memscope", "memscope.sources.http"):
        caplog.set_level(logging.DEBUG, logger=name)
    messages = _exercise(sandbox)
    logged = "\n".join(f"{r.name} {r.getMessage()}" for r in caplog.records)
    assert "HTTP Request: POST" in logged  # httpx really logged at DEBUG/INFO
    assert "retrying" in logged
    for key in (SM_KEY, SP_KEY):
        assert key not in logged
        assert all(key not in m for m in messages)
        assert all(key not in r.target for r in sandbox.requests)
    assert {r.auth for r in sandbox.requests if r.path.startswith("/v1/")} == {"x-api-key"}
    assert {r.auth for r in sandbox.requests if r.path.startswith("/v3/")} == {"bearer"}


def test_httpx_loggers_are_quiet_by_default():
    import memscope.sources  # noqa: F401 - importing sets the levels

    assert logging.getLogger("httpx").level == logging.WARNING
    assert logging.getLogger("httpcore").level == logging.WARNING


def test_reprs_and_cache_keys_hide_the_key(sandbox):
    sm, sp = supermemory(sandbox), spomory(sandbox)
    texts = [repr(sm), str(sm), repr(sm.config), str(sm.config), repr(sm.cache_key()),
             repr(sp), repr(sp.config), repr(sp.cache_key()), repr(sm._http), sm.label,
             repr(sm.config.model_dump())]
    for text in texts:
        assert SM_KEY not in text and SP_KEY not in text
    assert "**********" in repr(sm.config)
    assert credential_fingerprint(SM_KEY) in sm.cache_key()
    assert len(credential_fingerprint(SM_KEY)) == 16


def test_a_server_echoing_the_key_is_redacted(sandbox):
    sandbox.faults.update(status_sequence=[400], error_details=f"bad key {SM_KEY}")
    with pytest.raises(SourceError) as err:
        supermemory(sandbox).load()
    assert SM_KEY not in str(err.value) and "bad key ***" in str(err.value)


def test_validation_errors_do_not_echo_the_key():
    with pytest.raises(ValidationError) as err:
        SupermemoryConfig(api_key=SecretStr(f" {SM_KEY} with space"), base_url="https://x")
    assert SM_KEY not in str(err.value)
    with pytest.raises(ValidationError) as err:
        SpomoryConfig(api_key=SecretStr(SP_KEY), base_url=f"https://user:{SP_KEY}@host")
    assert SP_KEY not in str(err.value)
    with pytest.raises(ValidationError):
        SpomoryConfig(api_key=SecretStr(SP_KEY), base_url=f"https://host/?key={SP_KEY}")


def test_load_results_carry_no_key(sandbox):
    result = supermemory(sandbox, page_limit=4).load()
    blob = pickle.dumps(result)
    assert SM_KEY.encode() not in blob


def test_key_is_stripped_and_sent_only_as_a_header(sandbox):
    src = supermemory(sandbox, api_key=f"  {SM_KEY}\n", page_limit=4, **FAST)
    assert src.load().complete
