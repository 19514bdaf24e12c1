# The two commands a newcomer needs: `make run` and `make test`. Each bootstraps .venv itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench soak lint clean dist image image-test deb catalogs

$(STAMP): pyproject.toml tools/bootstrap-venv.sh
	@tools/bootstrap-venv.sh $(PYTHON) $(VENV)
	@touch $(STAMP)

# MicroPython 1.27 on Node.js (package.json), so `make test` runs the Pico firmware under real
# MicroPython too. Node and npm come from apt when missing and we are root. Without them (no root,
# no apt) the check is skipped with a notice, except in CI, where it is required.
NPM_STAMP := node_modules/.installed
$(NPM_STAMP): package.json package-lock.json
	@if ! { command -v node >/dev/null && command -v npm >/dev/null; }; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm; \
	  fi; \
	fi; \
	if command -v node >/dev/null && command -v npm >/dev/null; then \
	  npm ci --no-audit --no-fund --loglevel=error && touch $(NPM_STAMP); \
	else \
	  echo "NOTICE: Node.js and npm are missing (apt-get install nodejs npm): the firmware check" \
	       "under real MicroPython is skipped; it still runs under CPython."; \
	fi

# The table's voice: espeak-ng speaks, sox checks in a test that a rendered sentence is not
# silence. From apt when missing and we are root; otherwise that test is skipped with a notice.
VOICE_STAMP := $(VENV)/.voice
$(VOICE_STAMP): $(STAMP)
	@if ! { command -v espeak-ng >/dev/null && command -v sox >/dev/null; }; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q espeak-ng sox; \
	  fi; \
	fi; \
	if command -v espeak-ng >/dev/null && command -v sox >/dev/null; then \
	  touch $(VOICE_STAMP); \
	else \
	  echo "NOTICE: espeak-ng or sox is missing (apt-get install espeak-ng sox): the voice" \
	       "check is skipped."; \
	fi

# Debian's chromium for the page's browser tests (tests/web, Playwright drives it; no browser is
# ever downloaded). Installed from apt when missing and we are root; otherwise those tests skip
# with a notice, except in CI, where they are required.
CHROMIUM_STAMP := $(VENV)/.chromium
$(CHROMIUM_STAMP): $(STAMP)
	@# fonts-nanum: Korean glyphs for the page drawn in Korean (tests/web/test_words.py)
	@if ! command -v chromium >/dev/null || ! fc-list 2>/dev/null | grep -qi nanum; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium \
	      fonts-nanum; \
	  fi; \
	fi; \
	if command -v chromium >/dev/null; then touch $(CHROMIUM_STAMP); else \
	  echo "NOTICE: chromium is missing (apt-get install chromium): the page's browser tests" \
	       "are skipped."; \
	fi

# The example game from outside (examples/memory, its own distribution): installed into the venv
# the way a maker installs a game, so `make test` plays it at the table, on the page, in self-play
# and in its scenarios, with nothing under tabletap/ changed for it (docs/ADDING-A-GAME.md).
MEMORY_STAMP := $(VENV)/.memory
$(MEMORY_STAMP): $(STAMP) examples/memory/pyproject.toml
	@$(BIN)/pip install --quiet --no-deps -e ./examples/memory
	@touch $@

run: $(STAMP)
	$(BIN)/tabletap sim run --play-by-play scenarios/magic-keys/demo-three-players.yaml

# The release checks (units, first-boot script, pi-gen stage) use shellcheck and systemd-analyze.
TOOLS_STAMP := build/.release-tools
$(TOOLS_STAMP):
	@if ! { command -v shellcheck >/dev/null && command -v systemd-analyze >/dev/null && command -v ssh-keygen >/dev/null; } \
	    && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -q shellcheck systemd openssh-client >/dev/null; \
	fi
	@mkdir -p build && touch $@

# The tests run on one worker a core (pytest-xdist), each test file whole on one worker: 8 min 40 s
# on one worker against about 5 min on two, on a 2-core machine (2026-12-07). `make test
# TEST_WORKERS=0` runs them in one process, in file order.
TEST_WORKERS ?= auto
test: $(STAMP) $(MEMORY_STAMP) $(NPM_STAMP) $(VOICE_STAMP) $(CHROMIUM_STAMP) $(TOOLS_STAMP)
	$(BIN)/ruff check .
	TABLETAP_REQUIRE_MICROPYTHON=$$( [ -f $(NPM_STAMP) ] || [ -n "$$CI" ] && echo 1 ) \
	TABLETAP_REQUIRE_BROWSER=$$( [ -f $(CHROMIUM_STAMP) ] || [ -n "$$CI" ] && echo 1 ) \
	  $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile
	TABLETAP_REQUIRE_BROWSER=$$( [ -f $(CHROMIUM_STAMP) ] || [ -n "$$CI" ] && echo 1 ) \
	  $(BIN)/pytest examples/memory/tests  # the example game's own tests, in a process of their own
	$(BIN)/python tools/scenarios.py --check
	$(BIN)/tabletap sim run scenarios/*/*.yaml examples/memory/scenarios/*.yaml

# The maker's release: a wheel (runtime dependencies only) and the Pi image built from it.
VERSION := $(shell sed -n 's/^version = "\(.*\)"/\1/p' pyproject.toml)
WHEEL := dist/tabletap-$(VERSION)-py3-none-any.whl
# TABLETAP_IMAGE_CACHE moves the image's build cache (image/build.sh); image-test follows it.
IMAGE := $(or $(TABLETAP_IMAGE_CACHE),build/image)/tabletap-$(VERSION)-arm64.img

# The message catalogs (docs/LANGUAGES.md): templates extracted from the source with Babel, each
# language's .po updated (a changed English sentence keeps its old translation, marked fuzzy)
# and compiled to .mo, which the wheel ships. `make test` checks they are complete.
catalogs: $(STAMP)
	$(BIN)/python tools/catalogs.py

dist: $(STAMP) catalogs
	rm -f dist/tabletap-*.whl
	$(BIN)/pip wheel --quiet --no-deps --wheel-dir dist .
	@ls -l $(WHEEL)

# Root only (mmdebstrap, chroot); installs its own tools with apt-get; see image/build.sh.
image: dist
	image/build.sh $(WHEEL) dist

# Boots the image under qemu-system-aarch64 and plays, cuts the power, resumes (minutes); then
# checks the built image's boot partition and root statically (every claimed board's root
# drivers, device trees, UART, I2C, SPI) and boots it as a Raspberry Pi 3 (-M raspi3b, from its
# own boot partition) playing a whole game with the emulated PN532 on the Pi's header UART.
image-test: $(STAMP)
	@image/host-tools.sh --no-binfmt
	@[ -f $(IMAGE) ] || { echo "no $(IMAGE): run make image first" >&2; exit 1; }
	$(BIN)/python image/boot_test.py $(IMAGE)
	TABLETAP_IMAGE=$(IMAGE) $(BIN)/pytest -q tests/image
	$(BIN)/python image/pi_boot_test.py $(IMAGE)

# The Debian package for Raspberry Pi OS Lite (bookworm, trixie; any Pi, the Pi 5 included):
# dist/tabletap_<version>_arm64.deb, its Python environment made at install from the wheels it
# carries (image/deb/). DEB_TEST=1 also installs it into an arm64 Debian root under qemu-user
# and runs `tabletap doctor --sim` and a scenario there (root; minutes).
deb: dist
	image/deb/build.sh $(WHEEL) dist
	@if [ -n "$(DEB_TEST)" ]; then image/deb/test.sh dist/tabletap_$(VERSION)_arm64.deb; fi

# valgrind for the bench's instruction count of the daemon's start (bench/live/instructions.py);
# from apt when missing and we are root, otherwise that one figure is left out with a notice.
VALGRIND_STAMP := $(VENV)/.valgrind
$(VALGRIND_STAMP): $(STAMP)
	@if ! command -v callgrind_control >/dev/null \
	    && [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q valgrind; \
	fi; \
	if command -v callgrind_control >/dev/null; then touch $(VALGRIND_STAMP); else \
	  echo "NOTICE: valgrind is missing (apt-get install valgrind): the start's instruction" \
	       "count is left out of the bench."; \
	fi

# espeak-ng for the voice's figure (bench voice), chromium for the page's, valgrind for the start's
# instructions, MicroPython on Node.js for the Pico's framing (bench serial): each installed as
# root when missing, as `make test` does.
bench: $(STAMP) $(VOICE_STAMP) $(CHROMIUM_STAMP) $(VALGRIND_STAMP) $(NPM_STAMP)
	$(BIN)/python -m bench

# SIGKILL real `tabletap run --sim` daemons at random moments, with reader, Pico-line and
# full-disk faults, a third of the cycles aiming their kill between a move's save and its answer
# (tools/soak.py); not part of `make test`: 1.5 to 3 s per cycle, by the load.
CYCLES ?= 1000
soak: $(STAMP)
	$(BIN)/python tools/soak.py --cycles $(CYCLES)

# Many evenings: GAMES complete games in a row through the real daemon, restarts between some;
# the archive, the journal and memory after each (tools/evenings.py; about 3 s a game). As root
# on the image's own state partition (a loop device), so what it holds and receives is real.
.PHONY: evenings writes
GAMES ?= 300
evenings: $(STAMP)
	$(BIN)/python tools/evenings.py --games $(GAMES)

# Bytes written to the state partition per game, per restart and per idle hour, and the years
# of evenings a cheap card lasts at that rate (tools/writes.py; root: a loop device).
IDLE ?= 300
writes: $(STAMP)
	$(BIN)/python tools/writes.py --games 10 --idle $(IDLE)

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache build dist *.egg-info node_modules
