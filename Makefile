# The two commands a newcomer needs: `make run` and `make test`. Each bootstraps .venv itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml tools/bootstrap-venv.sh
	@tools/bootstrap-venv.sh $(PYTHON) $(VENV)
	@touch $(STAMP)

# MicroPython 1.27 on Node.js (package.json), so `make test` runs the Pico firmware under real
# MicroPython too. Node and npm come from apt when missing and we are root.
NPM_STAMP := node_modules/.installed
$(NPM_STAMP): package.json package-lock.json
	@command -v node >/dev/null && command -v npm >/dev/null || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get update -q && apt-get install -y -q nodejs npm; \
	  else echo "make test needs Node.js and npm: apt-get install nodejs npm" >&2; exit 1; fi; }
	npm ci --no-audit --no-fund --loglevel=error
	@touch $(NPM_STAMP)

run: $(STAMP)
	$(BIN)/tabletap sim run --play-by-play scenarios/magic-keys/demo-three-players.yaml

test: $(STAMP) $(NPM_STAMP)
	$(BIN)/ruff check .
	TABLETAP_REQUIRE_MICROPYTHON=1 $(BIN)/pytest
	$(BIN)/tabletap sim run scenarios/*/*.yaml

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info node_modules
