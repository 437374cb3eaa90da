"""The optional model check's settings: where the review queue's pairs may be sent.

A model is any OpenAI-compatible chat endpoint (a local server such as Ollama or
llama.cpp, or a hosted one). It is set, in this order of precedence, on the Connection
page (this form: for this browser session only), by ``MEMSCOPE_JUDGE_URL``,
``MEMSCOPE_JUDGE_MODEL`` and ``MEMSCOPE_JUDGE_KEY``, or in ``.streamlit/secrets.toml``'s
``[judge]`` table (``url``, ``model``, ``key``) — as ``memscope inspect --judge`` reads
them. The key is handled like a source's key: kept in the session's memory as a
``SecretStr``, sent only in the ``Authorization`` header, never logged, written to disk, put
in a URL or a cache key (:func:`memscope.reports.judging.fingerprint` stands in for it).
With nothing set, nothing is sent anywhere and the Audit page works as it always has.
"""

from __future__ import annotations

import os
from typing import Any

import streamlit as st
from pydantic import SecretStr

from components.state.context import flash
from components.state.session import slot
from components.widgets.safe import md_escape
from memscope.meaning.judge import JudgeConfig
from memscope.reports.judging import config_from, host, is_local

# -- the session slots this module owns (components.state.session collects them) --
JUDGE_URL = slot("judge_url", __name__,
                 "The judge form's base URL (widget key).")
JUDGE_MODEL = slot("judge_model", __name__,
                   "The judge form's model name (widget key).")
JUDGE_KEY_FIELD = slot("judge_key_field", __name__,
                       "The judge form's password field (widget key); emptied on Use.")
JUDGE_SET = slot("judge_set", __name__,
                 "(base URL, model) set on the Connection page for this session.")
JUDGE_KEY = slot("judge_key_secret", __name__,
                 "The judge's key typed on the Connection page (a SecretStr; this session "
                 "only).")


def _secret(name: str) -> str | None:
    env = os.environ.get(f"MEMSCOPE_JUDGE_{name.upper()}")
    if env:
        return env
    try:
        table: Any = st.secrets.get("judge")
    except Exception:  # no secrets file, or one Streamlit cannot read: nothing set there
        return None
    value = table.get(name) if hasattr(table, "get") else None
    return str(value) if value else None


def settings() -> tuple[JudgeConfig | None, str | None]:
    """The model to check with (``None`` when none is set) and, when the settings cannot
    be used, one sentence saying why."""
    typed = JUDGE_SET.get()
    key = JUDGE_KEY.get()
    try:
        if typed:
            url, model = typed
            return config_from(url, model, key.get_secret_value()
                               if isinstance(key, SecretStr) else None), None
        return config_from(_secret("url"), _secret("model"), _secret("key")), None
    except ValueError as exc:
        return None, f"The model settings cannot be used: {exc}."


def _use() -> None:
    """The form's Use button: keep URL and model, move the key out of the field."""
    url = str(JUDGE_URL.get() or "").strip()
    model = str(JUDGE_MODEL.get() or "").strip()
    key = str(JUDGE_KEY_FIELD.get() or "").strip()
    JUDGE_KEY_FIELD.set("")
    if not url or not model:
        flash("Give both the endpoint's URL and the model's name.", "error")
        return
    try:
        config_from(url, model, key)
    except ValueError as exc:
        flash(f"Not used: {exc}.", "error")
        return
    JUDGE_SET.set((url, model))
    if key:
        JUDGE_KEY.set(SecretStr(key))
    else:
        JUDGE_KEY.clear()
    flash(f"The review queue can now check pairs with {model}.", "success")


def _forget() -> None:
    JUDGE_SET.clear()
    JUDGE_KEY.clear()
    flash("The model set on this page is forgotten.", "success")


def judge_form() -> None:
    """The Connection page's "Check with a model" settings (optional)."""
    config, problem = settings()
    st.subheader("Check findings with a model (optional)")
    st.caption("The Audit page can send its suspected contradictions to a language model "
               "for a second opinion — any OpenAI-compatible chat endpoint, such as a local "
               "Ollama or llama.cpp server, or a hosted one. Nothing is sent until you ask "
               "there, and it says first what leaves this machine.")
    if problem:
        st.warning(md_escape(problem))
    elif config is not None:
        where = ("on this machine" if is_local(config)
                 else "elsewhere: memory text leaves this machine")
        origin = ("set on this page" if JUDGE_SET.get()
                  else "from the settings (MEMSCOPE_JUDGE_* or secrets.toml [judge])")
        st.caption(md_escape(f"In use: {config.model} at {host(config)} ({where}), {origin}"
                             + ("; with a key." if config.api_key is not None else ".")))
    else:
        st.caption("No model is set: the review queue uses the rules alone.")
    with st.form("judge_form"):
        left, right = st.columns(2)
        typed = JUDGE_SET.get()
        left.text_input("Endpoint URL", value=typed[0] if typed else "",
                        key=JUDGE_URL.name,
                        placeholder="http://127.0.0.1:11434/v1",
                        help="The base URL; Memscope posts to its /chat/completions.")
        right.text_input("Model", value=typed[1] if typed else "",
                         key=JUDGE_MODEL.name, placeholder="e.g. llama3.2")
        st.text_input("Key (optional)", type="password", key=JUDGE_KEY_FIELD.name,
                      help="Kept in this browser session's memory only; never logged, put "
                           "in a URL, cached under its value or written to disk. Leave "
                           "empty for a local server, or to use MEMSCOPE_JUDGE_KEY.")
        st.form_submit_button("Use this model", on_click=_use)
    if JUDGE_SET.get():
        st.button("Forget the model set here", on_click=_forget, key="judge-forget")
