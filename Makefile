# The two commands a newcomer runs: `make run` and `make test`. Both create .venv first.
# `make check` is the quick one a developer runs after every change.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# uv, pinned with its hashes in requirements-uv.txt, in a venv of its own: it installs
# .venv from uv.lock and refreshes the lock.
UV_VENV := .uv
UV      := $(UV_VENV)/bin/uv

# uv's environment for every command below: the project's environment is $(VENV), made
# with $(PYTHON); uv never downloads a Python of its own (PyPI is all it reaches).
export UV_PROJECT_ENVIRONMENT := $(VENV)
export UV_PYTHON_DOWNLOADS := never

# pytest's worker processes (pytest-xdist). More than this machine's two cores: most of
# the suite waits (on sockets, timers, other processes), and a waiting worker leaves its
# core to another. --dist load --maxschedchunk 1: each worker is handed the next test in
# the suite's order as it finishes one, and tests/conftest.py puts the slow tier first,
# so the run ends on short tests rather than waiting on one worker's long ones. (Without
# --maxschedchunk, xdist first hands each worker a contiguous block of a sixteenth of the
# suite: two workers got the slow tier's longest ~200 tests each and ran them alone for
# the last 3 minutes of a 9 1/2 minute run, the other two long done (ci17); with it, the
# four ended within 4 s of each other (ci19). (worksteal split the order into one
# contiguous quarter per worker: the slow tier all in the first worker's, run last.
# loadgroup, which would hand out one test at a time, cannot group a module's tests under
# pytest 9: it renames a test through an attribute pytest no longer reads.)
# 6 tried once, beside load 10-20 (where more workers mostly take a bigger share of a
# saturated machine): the tests' span 1,224 s against 4's 1,329 s, 9 % more CPU, and two
# tests failed by timing; 4 kept.
WORKERS ?= 4
# make check's: its fast tier waits on nothing much (the engine, the bots, the trust
# layer's checks: CPU), so as many workers as cores. Each worker collects the whole suite
# (~3.4 s of CPU), and more workers than cores only share them: beside load 7-8 the fast
# tier took 1 min 52 s and 111 s of CPU with 2 workers, 1 min 54 s and 119 s with 3,
# 2 min 12 s and 135 s with 4.
CHECK_WORKERS ?= 2
PYTEST  := QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n $(WORKERS) --dist load --maxschedchunk 1
# Byte-code caches on (__pycache__/ is ignored by git): with PYTHONDONTWRITEBYTECODE=1 in
# the shell, every test worker and every `parlour` process the suite starts would compile
# the project's sources again (collecting the suite: 12 s of CPU instead of 4).
unexport PYTHONDONTWRITEBYTECODE

# What .venv holds: Parlour (editable), its dependencies and the test and package extras,
# exactly as uv.lock has them (anything else in .venv is removed).
EXTRAS := --extra test --extra package

.PHONY: run test check bench demo screenshots package check-package deb check-deb clean lock

$(UV): requirements-uv.txt
	test -x $(UV_VENV)/bin/python || $(PYTHON) -m venv $(UV_VENV)
	$(UV_VENV)/bin/python -m pip install --quiet --require-hashes --no-deps -r requirements-uv.txt
	touch $(UV)

# --locked: stop, rather than re-resolve, if uv.lock no longer matches pyproject.toml
# (then `make lock`).
$(STAMP): pyproject.toml uv.lock $(UV)
	$(UV) sync --quiet --locked $(EXTRAS) --python $(PYTHON)
	touch $(STAMP)

# Refresh uv.lock: every release to the newest that pyproject.toml allows, for every
# platform. Commit the result; `make` installs from it.
lock: $(UV)
	$(UV) lock --upgrade

run: $(STAMP)
	$(PY) -m app

demo: $(STAMP)
	$(PY) -m engine.demo

# The type check ([tool.mypy] in pyproject.toml: engine/ and net/), the
# whole suite, and the packaged bundle and its .deb built and checked (what CI runs).
# First, as root on Debian, what the window tests need from the system (Xvfb, openbox,
# Qt's X11 libraries) and the tests across houses (iptables and conntrack, for the home
# routers' NAT); elsewhere a missing piece is named and those tests say why they skip.
#
# The bundle and the .deb (check-package, check-deb: about a minute, PyInstaller on one
# thread, then mostly waiting on the bundle's window and a hand across houses) run
# beside the type check and the suite, not after them: mypy is one thread too, and the
# suite leaves cores idle as it waits. They cannot collide: the bundle is built in
# build/ and dist/, which no test reads; its X server takes a free display (Xvfb
# -displayfd) and its network checks run in a namespace of their own (unshare); the
# installed .deb's /usr/bin/parlour is run by nothing in the suite. Their output goes
# to $(PACKAGE_LOG), printed when both are done; either failing fails the target.
PACKAGE_LOG := build/check-package.log
# mypy runs beside the suite too (one thread, ~6 s of CPU, and the suite's start waits
# on its workers' collection): its output here, printed when the suite is done.
MYPY_LOG := build/mypy.log
# tests/warm_bytecode.py: on a clean clone, the test modules' asserts rewritten and the
# sources compiled once before the workers start, rather than by each of them at once
# (four workers starting cold: 33.5 s of CPU; warmed first: 11 + 14.5 s). Nothing to do,
# and nothing done, once the caches are there.
# (a line that names $(MAKE) itself runs even under `make -n`: this one would run the suite)
SUBMAKE = $(MAKE) --no-print-directory
test: $(STAMP)
	-$(PY) packaging/xdesktop.py --install
	-$(PY) packaging/apt_install.py "the tests across houses (NAT routers)" iptables conntrack
	@mkdir -p build
	@echo "check-package, check-deb: beside the type check and the suite (output: $(PACKAGE_LOG))"
	@($(SUBMAKE) check-package && $(SUBMAKE) check-deb) \
		> $(PACKAGE_LOG) 2>&1 & packaging=$$!; \
	$(PY) -m mypy > $(MYPY_LOG) 2>&1 & typing=$$!; \
	$(PY) tests/warm_bytecode.py; \
	$(PYTEST); tested=$$?; \
	wait $$typing; typed=$$?; \
	echo "---- mypy (ran beside the suite; $(MYPY_LOG)) ----"; \
	cat $(MYPY_LOG); \
	wait $$packaging; packaged=$$?; \
	echo "---- check-package, check-deb (ran beside the suite; $(PACKAGE_LOG)) ----"; \
	cat $(PACKAGE_LOG); \
	echo "make test: mypy $$([ $$typed = 0 ] && echo passed || echo FAILED)," \
		"the suite $$([ $$tested = 0 ] && echo passed || echo FAILED)," \
		"the bundle and the .deb $$([ $$packaged = 0 ] && echo passed || echo FAILED)"; \
	[ $$typed = 0 ] && [ $$tested = 0 ] && [ $$packaged = 0 ]

# The type check and the fast tier: every test not in the slow tier (tests/conftest.py,
# "The tiers": whole tables played through sessions, processes, namespaces or the
# window, or many private deals' hands), in about a minute; its property tests on fewer
# examples (hypothesis's "quick" profile). `make test` runs both tiers at "ci".
check: $(STAMP)
	$(PY) -m mypy
	$(PY) tests/warm_bytecode.py
	HYPOTHESIS_PROFILE=quick QT_QPA_PLATFORM=offscreen $(PY) -m pytest -n $(CHECK_WORKERS) \
		--dist load -m "not slow" -q

# The bench extra (OpenSpiel, for the ratio to its spades) comes from uv.lock too.
bench: $(STAMP)
	$(UV) sync --quiet --locked $(EXTRAS) --extra bench
	$(PY) -m engine.bench --seconds 5

screenshots: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m app.screenshots screenshots

# A one-folder PyInstaller bundle dist/parlour/ and dist/parlour-<version>-linux-x86_64.tar.gz
# (packaging/README.md), from what .venv holds (uv.lock's releases, PyInstaller among
# them), and (as root on Debian) the X11 libraries the bundle carries.
package: $(STAMP)
	$(PY) packaging/build.py --install-deps

# Build the bundle (no archive: CI only needs the folder), hold it to its size budget
# (MB, unpacked), run its self-test, then what the self-test cannot see (offscreen): every
# library resolved in the bundle or left to the system by the exclude list, the lobby
# opened on a real X server (screenshot in dist/), a missing system library named, a hand
# played across houses by code (mailbox and relay on 127.0.0.1, in a network namespace).
check-package: $(STAMP)
	$(PY) packaging/build.py --no-archive --max-mb 100 --install-deps
	dist/parlour/parlour --self-test
	$(PY) packaging/check_bundle.py dist/parlour --shot dist/check-package-lobby.png

# dist/parlour_<version>_amd64.deb: the bundle under /opt/parlour, /usr/bin/parlour, the
# menu entry and icons; Depends: the packages of the libraries it leaves to the system.
deb: $(STAMP)
	$(PY) packaging/build.py --no-archive --install-deps
	$(PY) packaging/deb.py

# The .deb of the bundle check-package built, installed with apt-get, self-tested and
# removed again, nothing left behind (as root, as in CI; skipped, saying so, otherwise).
check-deb: $(STAMP)
	$(PY) packaging/deb.py --check

clean:
	rm -rf $(VENV) $(UV_VENV) build dist .pytest_cache .hypothesis
