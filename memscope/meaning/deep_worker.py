"""A low-priority process that embeds a store's texts with the deep model
(:mod:`memscope.meaning.deep`), and the pool of them a build uses.

``python -m memscope.meaning.deep_worker`` lowers its own priority (``nice`` 19: the
app's threads always win the CPU), verifies the pinned files and loads the model once,
then answers on its standard streams, pipes only (no socket):

- it first writes one frame: JSON ``{"dim": 384, "model": …}``, or ``{"error": sentence}``
  (then exits 1);
- then, for each frame read (a JSON list of texts), it writes one frame of raw
  little-endian float32 rows (``len(texts) × dim``); it exits on end of input.

A frame is a 4-byte big-endian length and that many bytes. :class:`Worker` is the other
end; :func:`embed_all` spreads texts over up to two of them (one per core).
"""

from __future__ import annotations

import contextlib
import json
import os
import queue
import re
import struct
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, Any

import numpy as np

from memscope.meaning.embed import EmbedderUnavailable

#: texts sent to a worker at a time
CHUNK = 32
#: at most this many workers (and never more than the machine's cores)
WORKERS_MAX = 2
_HEADER = struct.Struct(">I")
#: environment variables a worker is not given (keys, passwords, tokens, secrets)
_SECRET = re.compile(r"KEY|PASSWORD|PASSWD|TOKEN|SECRET|CREDENTIAL", re.I)
_ROOT = Path(__file__).resolve().parent.parent.parent


def _read_frame(stream: IO[bytes]) -> bytes | None:
    """One frame's bytes; None at end of input (a cut frame counts as the end)."""
    head = stream.read(_HEADER.size)
    if len(head) < _HEADER.size:
        return None
    size = _HEADER.unpack(head)[0]
    body = stream.read(size)
    return body if len(body) == size else None


def _write_frame(stream: IO[bytes], body: bytes) -> None:
    stream.write(_HEADER.pack(len(body)) + body)
    stream.flush()


def serve(stdin: IO[bytes], stdout: IO[bytes]) -> int:
    """The worker's loop (see the module's docstring); returns the exit code."""
    from memscope.meaning import deep

    try:
        model = deep.load()
    except EmbedderUnavailable as exc:
        _write_frame(stdout, json.dumps({"error": str(exc)}).encode())
        return 1
    _write_frame(stdout, json.dumps({"dim": deep.DIM, "model": deep.MODEL}).encode())
    while (frame := _read_frame(stdin)) is not None:
        texts = json.loads(frame.decode("utf-8"))
        if not isinstance(texts, list):
            return 2
        rows = deep.passages(model, [t if isinstance(t, str) else "" for t in texts])
        _write_frame(stdout, rows.astype("<f4", copy=False).tobytes())
    return 0


def main() -> int:
    """Run as ``python -m memscope.meaning.deep_worker``."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(19)
    os.environ["OMP_NUM_THREADS"] = "1"
    try:
        return serve(sys.stdin.buffer, sys.stdout.buffer)
    except (BrokenPipeError, KeyboardInterrupt):  # the app went away: nothing to say
        return 0


class Worker:
    """One worker process (started at construction; raises
    :class:`~memscope.meaning.embed.EmbedderUnavailable` when its model cannot load)."""

    def __init__(self) -> None:
        # the app's environment without its credentials: a worker needs none of them
        env = {k: v for k, v in os.environ.items() if not _SECRET.search(k)}
        env["OMP_NUM_THREADS"] = "1"
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(_ROOT), env.get("PYTHONPATH", "")) if p)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "memscope.meaning.deep_worker"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, env=env, cwd=_ROOT)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in, self._out = self.proc.stdin, self.proc.stdout
        frame = _read_frame(self._out)
        hello: dict[str, Any] = json.loads(frame.decode()) if frame else {}
        if "dim" not in hello:
            self.close()
            raise EmbedderUnavailable(str(hello.get(
                "error", "The deeper offline text model could not start: Ask uses the "
                         "quicker model.")))
        self.dim = int(hello["dim"])
        self.model = str(hello.get("model", ""))

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        """``texts``' rows (raises :class:`RuntimeError` when the worker died)."""
        try:
            _write_frame(self._in, json.dumps(list(texts), ensure_ascii=False).encode(
                "utf-8", "replace"))
            frame = _read_frame(self._out)
        except (BrokenPipeError, OSError) as exc:
            raise RuntimeError("a deep meaning worker stopped") from exc
        if frame is None or len(frame) != len(texts) * self.dim * 4:
            raise RuntimeError("a deep meaning worker stopped or answered wrongly")
        return np.frombuffer(frame, dtype="<f4").astype(np.float32).reshape(
            len(texts), self.dim)

    def close(self) -> None:
        """End the process (end of input, then a kill if it does not exit soon)."""
        with contextlib.suppress(OSError):
            self._in.close()
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        with contextlib.suppress(OSError):
            self._out.close()


def workers_wanted() -> int:
    """How many workers a build starts: one per core, at most :data:`WORKERS_MAX`."""
    return max(1, min(os.cpu_count() or 1, WORKERS_MAX))


def embed_all(workers: Sequence[Worker], texts: Sequence[str],
              on_chunk: Callable[[list[int], np.ndarray], None]) -> None:
    """Embed ``texts`` over ``workers`` in chunks of :data:`CHUNK`, calling
    ``on_chunk(indices, rows)`` as each chunk comes back (from the workers' feeding
    threads, one call at a time). The first failure is raised once all have stopped."""
    chunks: queue.SimpleQueue[list[int]] = queue.SimpleQueue()
    for start in range(0, len(texts), CHUNK):
        chunks.put(list(range(start, min(start + CHUNK, len(texts)))))
    lock = threading.Lock()
    errors: list[BaseException] = []

    def feed(worker: Worker) -> None:
        while not errors:
            try:
                idx = chunks.get_nowait()
            except queue.Empty:
                return
            try:
                rows = worker.embed([texts[i] for i in idx])
                with lock:
                    on_chunk(idx, rows)
            except BaseException as exc:  # raised again below
                errors.append(exc)
                return

    threads = [threading.Thread(target=feed, args=(w,), name="memscope-deep-feed",
                                daemon=True) for w in workers]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]


if __name__ == "__main__":
    raise SystemExit(main())
