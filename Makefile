# Two commands on a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
FRONTEND := components/graph_view/frontend
STAMP  := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt $(FRONTEND)/pyproject.toml 2>/dev/null | sha1sum | cut -c1-12)
LOCKENV := $(VENV)/lock-env
PORT   ?= 8501

.PHONY: run test install lint bench screens chromium postgresql clean help lock sdk5 mem0 upstream

help:
	@echo "make run    - set up and open Memscope on the embedded demo store"
	@echo "make test   - set up (incl. Chromium and PostgreSQL) and run every test"
	@echo "make lint   - ruff and the type check (basedpyright)"
	@echo "make bench  - print the benchmarks' figures"
	@echo "make screens - every page and dialog (light, dark, presenter; two sizes) in screens/"
	@echo "make lock   - rewrite constraints.txt after a dependency change"

$(PY):
	$(PYTHON) -m venv $(VENV)

# Reinstalls whenever pyproject.toml or constraints.txt (the lock) changes. The graph's
# browser files are a package of their own (see $(FRONTEND)/pyproject.toml).
$(STAMP): pyproject.toml constraints.txt $(FRONTEND)/pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -c constraints.txt -e '.[test]' -e ./$(FRONTEND)
	rm -f $(VENV)/.installed-*
	touch $@

install: $(STAMP)

run: install
	$(PY) -m memscope seed
	$(PY) -m memscope warm
	$(PY) serve.py --server.port $(PORT)

chromium:
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then \
	  true; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing Debian's chromium for the browser tests…"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	else \
	  echo "The browser tests need Chromium: install Debian's 'chromium' package (sudo apt-get install chromium)."; \
	  exit 1; \
	fi

# The storage tests start their own throwaway cluster with these binaries (as the
# 'postgres' user when run as root); no server is configured or used system-wide.
postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1; then \
	  true; \
	elif [ "$$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then \
	  echo "Installing Debian's postgresql for the storage tests…"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null; \
	else \
	  echo "The storage tests need PostgreSQL's server: install Debian's 'postgresql' package (sudo apt-get install postgresql)."; \
	  exit 1; \
	fi

# The official Supermemory SDK 5.x for the v5 contract tests, in its own folder: it is
# named `supermemory` like the 3.x SDK in the venv, so tests/sdk5_driver.py runs it in a
# subprocess with PYTHONPATH=$(SDK5). Its dependencies (httpx, pydantic) are the venv's.
SDK5       := $(VENV)/sdk5
SDK5_STAMP := $(SDK5)/.installed-5.0.1

$(SDK5_STAMP): | $(PY)
	rm -rf $(SDK5)
	$(PY) -m pip install --quiet --no-deps --target $(SDK5) supermemory==5.0.1
	touch $@

sdk5: $(SDK5_STAMP)

# mem0ai 2.2.1 (its MemoryClient) for the mem0 contract tests, without its dependencies:
# MemoryClient needs httpx, requests and pydantic (the venv's); tests/mem0_driver.py runs it
# in a subprocess with PYTHONPATH=$(MEM0), telemetry off and no socket beyond 127.0.0.1.
MEM0       := $(VENV)/mem0
MEM0_STAMP := $(MEM0)/.installed-2.2.1

$(MEM0_STAMP): | $(PY)
	rm -rf $(MEM0)
	$(PY) -m pip install --quiet --no-deps --target $(MEM0) mem0ai==2.2.1
	touch $@

mem0: $(MEM0_STAMP)

# The upstream graph (@supermemory/memory-graph 0.2.3, React, esbuild from the npm
# registry, bundled into the git-ignored bench/out/upstream/ once) for the side-by-side
# screenshots tests/test_map_browser.py writes beside ours. Optional: without npm, or
# when the registry cannot be reached, the test says it skipped the pair.
upstream: install
	@if command -v npm >/dev/null 2>&1; then \
	  $(PY) -c "import sys; sys.path.insert(0, 'bench'); import upstream; upstream.ensure_bundle()" \
	  || echo "The upstream graph could not be bundled: its side-by-side screenshots are skipped."; \
	else \
	  echo "npm is missing: the upstream side-by-side screenshots are skipped (install nodejs and npm)."; \
	fi

# pytest-xdist: three worker processes on two cores (much of a browser test is waiting on
# its server and Chromium: a fresh clone's whole run took 12.0 min with three against
# 13.9 min with two), each test file whole on one worker (its module-scoped server, store
# and browser stay one). `make test TEST_WORKERS=0` runs everything in one process. The
# 25 slowest steps are listed at the end.
TEST_WORKERS ?= 3

test: install chromium postgresql lint sdk5 mem0 upstream
	MEMSCOPE_REQUIRE_POSTGRES=1 $(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile --durations=25

lint: install
	$(VENV)/bin/ruff check .
	$(VENV)/bin/basedpyright

# The lock: every package of a fresh install of pyproject.toml (with the test extras), at
# the newest versions its pins allow, frozen into constraints.txt.
lock:
	rm -rf $(LOCKENV)
	$(PYTHON) -m venv $(LOCKENV)
	$(LOCKENV)/bin/python -m pip install --quiet --upgrade pip
	$(LOCKENV)/bin/python -m pip install --quiet -e '.[test]'
	{ echo "# The exact versions Memscope is tested with (Python 3.11). make installs with"; \
	  echo "# 'pip install -c constraints.txt'. Do not edit: after changing the dependencies"; \
	  echo "# in pyproject.toml, run 'make lock' (a fresh venv, pip install -e '.[test]',"; \
	  echo "# pip freeze) and commit this file."; \
	  $(LOCKENV)/bin/python -m pip freeze --exclude-editable; } > constraints.txt.new
	mv constraints.txt.new constraints.txt
	rm -rf $(LOCKENV)

bench: install
	$(PY) bench/build.py
	$(PY) bench/layout.py
	$(PY) bench/fetch.py
	$(PY) bench/scale.py

# The contact sheet: every page and the main dialogs on the demo store, in light, dark and
# presenter mode at 1400x900 and 1920x1080, into the git-ignored screens/ with an index.html.
screens: install chromium
	$(PY) bench/screens.py --out screens

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache *.egg-info

# Many more generated inputs than `make test` runs (random, not derandomized):
# MEMSCOPE_FUZZ_EXAMPLES sets how many per property (default 3000).
.PHONY: fuzz
fuzz: install
	MEMSCOPE_FUZZ=1 $(PY) -m pytest -q -p no:randomly --timeout=0 tests/test_properties.py --hypothesis-show-statistics
