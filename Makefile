# The two commands of README.md: `make run` (set up + run on the demo corpus) and
# `make test` (set up + run every test, linters included); `make test-fast` runs the unit
# tests only.
#
# Two virtual environments: .venv holds only what the workflow needs (Snakemake
# starts ~0.25 s faster without the test tools and executor plugins installed
# beside it), .venv-test adds the test tools.
PYTHON ?= python3
VENV ?= .venv
TEST_VENV ?= .venv-test
CORES ?= 4

.PHONY: run test test-fast verify bench dag clean-cache system-tools private-reports

# The library's bytecode, compiled ahead: every step's process imports the library, and
# without a __pycache__ (an environment with PYTHONDONTWRITEBYTECODE set, as on the
# project's machine, never writes one) each would compile it again (~0.1 s a process).
# Only changed files are compiled again; __pycache__/ is not committed.
COMPILE = -m compileall -q scripts/ro_metrics

$(VENV)/.installed: requirements.txt
	$(PYTHON) -m venv --clear $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -r requirements.txt
	touch $@

$(TEST_VENV)/.installed: requirements.txt requirements-dev.txt requirements-slurm.txt
	$(PYTHON) -m venv --clear $(TEST_VENV)
	$(TEST_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(TEST_VENV)/bin/python -m pip install --quiet -r requirements-dev.txt
	$(TEST_VENV)/bin/python -m pip install --quiet --no-deps --target $(TEST_VENV)/slurm-plugin \
		-r requirements-slurm.txt
	touch $@

run: $(VENV)/.installed
	$(VENV)/bin/python $(COMPILE)
	$(VENV)/bin/snakemake --cores $(CORES)

# Recompute the results from the inputs and compare them byte for byte with results/.
verify: $(VENV)/.installed
	$(VENV)/bin/python $(COMPILE)
	$(VENV)/bin/snakemake --cores $(CORES) verify

test: $(TEST_VENV)/.installed
	$(TEST_VENV)/bin/python $(COMPILE)
	$(TEST_VENV)/bin/python -m pytest

# The unit tests only (tests/unit/, marker `unit`: nothing starts Snakemake), with a
# lighter fuzz profile; under a minute. `make test` runs everything.
test-fast: $(TEST_VENV)/.installed
	$(TEST_VENV)/bin/python $(COMPILE)
	FUZZ_PROFILE=fuzz-quick $(TEST_VENV)/bin/python -m pytest -m unit

# The workflow as users run it: the runtime environment only.
# Debian's chromium and poppler-utils when missing (scripts/tools/install_system_tools.sh).
system-tools:
	scripts/tools/install_system_tools.sh

# Set up (the venv and chromium, which prints the PDFs), then build every evaluated
# version's private report packet (README, "Private reports").
private-reports: $(VENV)/.installed system-tools
	$(VENV)/bin/python $(COMPILE)
	$(VENV)/bin/snakemake --cores $(CORES) private_reports

bench: $(VENV)/.installed
	$(VENV)/bin/python $(COMPILE)
	$(VENV)/bin/python scripts/tools/bench.py

dag: $(VENV)/.installed
	$(VENV)/bin/snakemake all site --rulegraph | dot -Tsvg > docs/rulegraph.svg

clean-cache:
	rm -rf .cache .snakemake
