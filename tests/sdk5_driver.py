"""Drive the official Supermemory SDK 5.0.1 against the sandbox, in its own process.

The 5.x SDK is named ``supermemory`` like the 3.x one installed in the venv, so the tests
run this script with ``PYTHONPATH=.venv/sdk5`` (``make test`` builds that folder)::

    SUPERMEMORY_API_KEY=… python tests/sdk5_driver.py http://127.0.0.1:8765 < steps.json

The key comes from the environment only (never argv). ``steps.json`` is a list of steps:

- ``{"op": "list", "args": {"namespace": …, "type": "memories", "page": 1}}`` calls the
  SDK (no retries) and reports ``{"status", "model", "problems", "json"}``: the raw JSON it
  received, validated against the SDK's response model;
- ``{"validate": "ListResponse", "json": …}`` validates any JSON against a model;
- ``{"about": true}`` reports which ``supermemory`` was imported (file, version);
- ``{"declared": "list"}`` reports the wire names the SDK's raw client sends for an op:
  ``{"query": […], "body": […], "required": […]}``, read from the SDK's own source.

A validation problem is a missing required field or a wrong type (pydantic), a field the
model does not declare (Fern models accept extras, so every key is checked against the
aliases), or a value outside an enum the model lists. One JSON list is printed.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import json
import os
import re
import sys
import typing
from typing import Any

import pydantic
import supermemory
from supermemory import types as sdk_types

#: op -> (client attribute path, positional arguments, response model)
OPS: dict[str, tuple[str, tuple[str, ...], str]] = {
    "namespaces_list": ("namespaces.list", (), "NamespaceList"),
    "namespaces_get": ("namespaces.get", ("namespace",), "NamespaceDetails"),
    "list": ("list", ("namespace", "type"), "ListResponse"),
    "memory_get": ("memories.get", ("namespace", "id"), "MemoryDetails"),
    "document_get": ("documents.get", ("namespace", "id"), "Document"),
    "forget": ("memories.forget", ("namespace",), "ForgetResult"),
    "forget_semantic": ("memories.forget_matching", ("namespace",), "ForgetResult"),
    "search": ("search", ("namespace",), "SearchResponse"),
    "profile": ("profile", ("namespace",), "ProfileResponse"),
    "add": ("add", ("namespace",), "DocumentRef"),
}


def _raw_method(client: Any, path: str) -> Any:
    *owners, name = path.split(".")
    target = client
    for owner in owners:
        target = getattr(target, owner)
    return getattr(target.with_raw_response, name)


def _aliases(model: type[pydantic.BaseModel]) -> dict[str, Any]:
    return {(f.alias or name): f.annotation for name, f in model.model_fields.items()}


def _literal_values(annotation: Any) -> tuple[Any, ...] | None:
    """The allowed values of a ``Union[Literal[…], Any]`` enum, else ``None``."""
    if typing.get_origin(annotation) is typing.Literal:
        return typing.get_args(annotation)
    if typing.get_origin(annotation) is typing.Union:
        for arg in typing.get_args(annotation):
            found = _literal_values(arg)
            if found is not None:
                return found
    return None


def _walk(annotation: Any, value: Any, path: str, out: list[str]) -> None:
    """Every key of ``value`` is declared where ``annotation`` is a model; enums hold."""
    if value is None:
        return
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        _walk(args[0], value, path, out)
    elif inspect.isclass(annotation) and issubclass(annotation, pydantic.BaseModel):
        _walk_model(annotation, value, path, out)
    elif origin in (list, typing.List, typing.Sequence) and isinstance(value, list):  # noqa: UP006
        for i, item in enumerate(value):
            _walk(args[0], item, f"{path}[{i}]", out)
    elif origin in (dict, typing.Dict) and isinstance(value, dict):  # noqa: UP006
        for key, item in value.items():
            _walk(args[1], item, f"{path}.{key}", out)
    elif origin is typing.Union:
        _walk_union(annotation, value, path, out)


def _walk_model(model: type[pydantic.BaseModel], value: Any, path: str,
                out: list[str]) -> None:
    if not isinstance(value, dict):
        return  # pydantic reports the wrong type
    declared = _aliases(model)
    for key, item in value.items():
        if key not in declared:
            out.append(f"{path}.{key}: not a field of the SDK's {model.__name__}")
        else:
            _walk(declared[key], item, f"{path}.{key}", out)


def _walk_union(annotation: Any, value: Any, path: str, out: list[str]) -> None:
    allowed = _literal_values(annotation)
    if allowed is not None and isinstance(value, str):
        if value not in allowed:
            out.append(f"{path}: {value!r} is not one of {list(allowed)}")
        return
    args = typing.get_args(annotation)
    models = [a for a in args if inspect.isclass(a) and issubclass(a, pydantic.BaseModel)]
    for arg in models[:1] or [a for a in args if typing.get_origin(a) in (list, dict)][:1]:
        _walk(arg, value, path, out)


def problems(model_name: str, data: Any) -> list[str]:
    """Why ``data`` is not exactly an SDK ``model_name`` (empty: it is)."""
    model = getattr(sdk_types, model_name)
    try:
        model.model_validate(data)
    except pydantic.ValidationError as exc:
        return [f"{'.'.join(str(p) for p in err['loc'])}: {err['msg']}"
                for err in exc.errors()]
    out: list[str] = []
    _walk(model, data, "$", out)
    return out


def declared(op: str) -> dict[str, list[str]]:
    """The query and body wire names the SDK's raw client sends for ``op``, and which of
    them the method requires (parameters without a default)."""
    path, positional, _ = OPS[op]
    *owners, name = path.split(".")
    module = "raw_client" if not owners else f"{owners[0]}.raw_client"
    raw = importlib.import_module(f"supermemory.{module}")
    cls = next(c for n, c in vars(raw).items() if n.startswith("Raw") and inspect.isclass(c))
    method = getattr(cls, name)
    source = inspect.getsource(method)
    out: dict[str, list[str]] = {"query": [], "body": [], "required": []}
    wire: dict[str, str] = {}
    for part, block in (("query", "params"), ("body", "json")):
        found = re.search(block + r"=\{(.*?)\n            \}", source, re.S)
        for key, py_name in re.findall(r'"(\w+)":\s*(?:convert_and_respect_annotation_metadata'
                                       r'\(\s*object_=)?(\w+)', found.group(1) if found else ""):
            out[part].append(key)
            wire[py_name] = key
    for param in inspect.signature(method).parameters.values():
        if param.name not in ("self", *positional) and param.default is inspect.Parameter.empty \
                and param.kind is inspect.Parameter.KEYWORD_ONLY:
            out["required"].append(wire.get(param.name, param.name))
    return out


def call(client: Any, op: str, args: dict[str, Any]) -> dict[str, Any]:
    """Run one SDK operation; its raw answer and how it validated."""
    path, positional, model = OPS[op]
    args = dict(args)
    try:
        response = _raw_method(client, path)(*[args.pop(p) for p in positional], **args)
    except TypeError as exc:  # an argument the SDK does not take
        return {"op": op, "error": "TypeError", "status": None, "body": str(exc),
                "problems": [f"the SDK does not take these arguments: {exc}"]}
    except importlib.import_module("supermemory.core.api_error").ApiError as exc:
        body = exc.body
        if isinstance(body, pydantic.BaseModel):
            body = body.model_dump(mode="json", by_alias=True, exclude_unset=True)
        return {"op": op, "error": type(exc).__name__, "status": exc.status_code,
                "body": body if isinstance(body, dict | list | str) else str(body),
                "problems": problems("ErrorResponse", body) if isinstance(body, dict)
                else [f"the error body is not an object: {body!r}"]}
    raw = response.http_response.json()
    return {"op": op, "status": response.status_code, "model": model,
            "problems": problems(model, raw), "json": raw}


def main() -> int:
    base_url = sys.argv[1]
    client = supermemory.Supermemory(api_key=os.environ["SUPERMEMORY_API_KEY"],
                                     base_url=base_url, max_retries=0, timeout=10)
    results = []
    for step in json.load(sys.stdin):
        if "about" in step:
            results.append({"file": supermemory.__file__,
                            "version": importlib.metadata.version("supermemory")})
        elif "declared" in step:
            results.append(declared(step["declared"]))
        elif "validate" in step:
            results.append({"model": step["validate"],
                            "problems": problems(step["validate"], step["json"])})
        else:
            results.append(call(client, step["op"], step.get("args") or {}))
    json.dump(results, sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
