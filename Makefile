# The two commands a newcomer needs: `make run` and `make test`. Each bootstraps .venv itself.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench lint clean

$(STAMP): pyproject.toml tools/bootstrap-venv.sh
	@tools/bootstrap-venv.sh $(PYTHON) $(VENV)
	@touch $(STAMP)

run: $(STAMP)
	$(BIN)/tabletap sim run --play-by-play scenarios/magic-keys/demo-three-players.yaml

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/pytest
	$(BIN)/tabletap sim run scenarios/*/*.yaml

bench: $(STAMP)
	$(BIN)/python -m bench

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) .pytest_cache build *.egg-info
