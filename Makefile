# The two commands of README.md: `make run` (set up + run on the demo corpus) and
# `make test` (set up + run every test, linters included). Both create .venv/ once.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
CORES ?= 4

.PHONY: run test bench dag clean-cache

$(BIN)/.installed: requirements.txt requirements-dev.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $@

run: $(BIN)/.installed
	$(BIN)/snakemake --cores $(CORES)

test: $(BIN)/.installed
	$(BIN)/python -m pytest

bench: $(BIN)/.installed
	$(BIN)/python scripts/bench.py

dag: $(BIN)/.installed
	$(BIN)/snakemake --rulegraph | dot -Tsvg > docs/rulegraph.svg

clean-cache:
	rm -rf .cache .snakemake
