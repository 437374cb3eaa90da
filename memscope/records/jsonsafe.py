"""The edge: JSON text and values made safe once, where records are read.

After this module nothing later needs a guard of its own:

* text has no lone UTF-16 surrogates (``"\\ud800"`` escapes decode to them; they cannot
  be written as UTF-8): each is replaced by U+FFFD (:func:`safe_text`);
* free-form values (metadata, attributes, unknown keys) are nested at most
  :data:`FIELD_DEPTH` levels (:func:`clean_value`);
* numbers that must be computed with are bounded (:func:`bounded_number`);
* JSON text of any depth or number size decodes without ``RecursionError`` or Python's
  4,300-digit limit (:func:`load_json`), or fails with one sentence (:class:`JsonError`).
"""

from __future__ import annotations

import functools
import json
import math
import re
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

#: free-form values deeper than this (below their field) are cut
FIELD_DEPTH = 32
#: JSON text nested deeper than this is cut while decoding (only when it must be)
TEXT_DEPTH = 200
#: numbers used in computations (versions, counts) must stay within ± this (exact floats)
NUMBER_MAX = 2**53
CUT = "…"  # what a value nested too deeply becomes

_SURROGATE = re.compile("[\ud800-\udfff]")
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_DIGITS_LIMIT = 4300


class JsonError(ValueError):
    """JSON text that cannot be decoded; ``str()`` is one sentence."""


def has_surrogates(text: str) -> bool:
    """True when ``text`` holds UTF-16 surrogate code points (it cannot be UTF-8)."""
    return not text.isascii() and _SURROGATE.search(text) is not None


def safe_text(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD (a split pair is rejoined).

    >>> safe_text("a\\ud800b") == "a\\ufffdb", safe_text("ok") == "ok"
    (True, True)
    """
    if not has_surrogates(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


class Cleaning:
    """What :func:`clean_value` changed: surrogates replaced, values cut for depth."""

    __slots__ = ("cut", "surrogates")

    def __init__(self) -> None:
        self.surrogates = 0
        self.cut = 0

    def text(self, value: str) -> str:
        """``value`` made safe, counting a change."""
        fixed = safe_text(value)
        if fixed is not value:
            self.surrogates += 1
        return fixed


def clean_value(value: Any, seen: Cleaning | None = None, depth: int = FIELD_DEPTH) -> Any:
    """A JSON value with safe text (keys too) and containers below ``depth`` levels
    replaced by :data:`CUT`; ``seen`` counts what changed.

    >>> clean_value({"a": [[1]]}, depth=2)
    {'a': ['…']}
    """
    seen = seen if seen is not None else Cleaning()
    if isinstance(value, str):
        return seen.text(value)
    if isinstance(value, dict | list):
        if depth <= 0:
            seen.cut += 1
            return CUT
        if isinstance(value, list):
            return [clean_value(v, seen, depth - 1) for v in value]
        return {seen.text(k) if isinstance(k, str) else k: clean_value(v, seen, depth - 1)
                for k, v in value.items()}
    return value


def bounded_number(value: Any) -> bool:
    """True for an int or float that is finite and within ±:data:`NUMBER_MAX`
    (booleans are not numbers here).

    >>> bounded_number(3), bounded_number(10**400), bounded_number(float("nan"))
    (True, False, False)
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return -NUMBER_MAX <= value <= NUMBER_MAX


def describe_number(value: Any) -> str:
    """A short text for a number in a reason (a huge integer by its digit count)."""
    if isinstance(value, int) and not -10**30 < value < 10**30:
        return f"a {len(str(abs(value)))}-digit number"
    return repr(value)


def on_fresh_stack(func: Callable[[], T]) -> T:
    """``func()`` run on a new thread, so how deep it may recurse does not depend on how
    deep the caller already is (the same file decodes the same way in the command line,
    a test or a Streamlit script); its exception is raised here."""
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["value"] = func()
        except BaseException as exc:  # handed to the caller below
            box["error"] = exc

    worker = threading.Thread(target=run, name="memscope-json", daemon=True)
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    return box["value"]


def _prune(text: str, limit: int) -> tuple[str, int]:
    """``text`` with every container opening deeper than ``limit`` replaced by
    ``"…"``; the count of cut containers. Linear; no recursion."""
    out: list[str] = []
    depth, start, cut, last = 0, -1, 0, 0
    for match in _TOKEN.finditer(text):
        tok = match.group()
        if tok[0] == '"':
            continue
        if tok in "[{":
            depth += 1
            if depth == limit + 1:
                start = match.start()
        elif depth > 0:
            depth -= 1
            if depth == limit and start >= 0:
                out.append(text[last:start])
                out.append(json.dumps(CUT))
                last, start, cut = match.end(), -1, cut + 1
    if start >= 0:  # unclosed: leave the rest as is for the decoder to reject
        return text, 0
    out.append(text[last:])
    return "".join(out), cut


def load_json(text: str) -> tuple[Any, list[str]]:
    """Decode JSON text of any depth and number size; ``(value, notes)``.

    The fast path is :func:`json.loads`. Text nested deeper than :data:`TEXT_DEPTH` has
    the deeper containers replaced by ``"…"``, and an integer of more than 4,300 digits
    becomes ±infinity; each is said in ``notes``. Raises :class:`JsonError` (one
    sentence) for text that is not JSON.

    >>> load_json('[[[1]]]')
    ([[[1]]], [])
    >>> value, notes = load_json("[" * 100_000 + "]" * 100_000)
    >>> notes
    ['JSON nested deeper than 200 levels: 1 value was cut to "…".']
    """
    notes: list[str] = []
    huge: list[str] = []
    hook: Callable[[str], Any] | None = None
    pruned = False
    while True:  # at most three tries: as is, then pruned and/or with big integers
        huge.clear()
        try:
            value = on_fresh_stack(functools.partial(json.loads, text, parse_int=hook))
        except RecursionError:
            if pruned:  # pragma: no cover - pruned text is never deeper than TEXT_DEPTH
                raise JsonError(f"not JSON (nested deeper than {TEXT_DEPTH} levels)") from None
            text, cut = _prune(text, TEXT_DEPTH)
            pruned = True
            if not cut:
                raise JsonError(f"not JSON (nested deeper than {TEXT_DEPTH} levels and "
                                "unbalanced)") from None
            notes.append(f"JSON nested deeper than {TEXT_DEPTH} levels: {cut} value"
                         f"{' was' if cut == 1 else 's were'} cut to \"{CUT}\".")
        except json.JSONDecodeError as exc:
            raise JsonError(f"not JSON ({exc.msg} at line {exc.lineno})") from None
        except ValueError as exc:  # Python's limit on integer digits
            if hook is not None or "digits" not in str(exc):  # pragma: no cover
                raise JsonError(f"not JSON ({exc})") from None
            hook = _big_ints(huge)
        else:
            break
    if huge:
        notes.append(f"{len(huge)} integer{'s' if len(huge) > 1 else ''} of more than "
                     f"{_DIGITS_LIMIT} digits {'were' if len(huge) > 1 else 'was'} read as "
                     "infinity.")
    return value, notes


def _big_ints(seen: list[str]) -> Callable[[str], int | float]:
    """A ``parse_int`` that reads integers past Python's digit limit as ±infinity and
    lists them in ``seen``."""

    def parse_int(digits: str) -> int | float:
        if len(digits.lstrip("-")) <= _DIGITS_LIMIT:
            return int(digits)
        seen.append(digits[:12])
        return -math.inf if digits.startswith("-") else math.inf

    return parse_int
