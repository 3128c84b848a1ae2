"""The conda files carry exactly the pins of the pip path that CI installs, and the
Snakefile requires the Snakemake pinned there."""

import re

import yaml

from workflow_runs import REPO

# conda-forge names of the PyPI packages whose names differ.
CONDA_NAME = {"fastjsonschema": "python-fastjsonschema"}


def pip_pins(name: str) -> dict[str, str]:
    pins = {}
    for line in (REPO / name).read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-r"):
            continue
        package, version = re.fullmatch(r"([A-Za-z0-9_.-]+)==(\S+)", line).groups()
        package = package.lower()
        pins[CONDA_NAME.get(package, package)] = version
    return pins


def conda_pins(path) -> dict[str, str]:
    dependencies = yaml.safe_load((REPO / path).read_text("utf-8"))["dependencies"]
    return dict(entry.split("=", 1) for entry in dependencies if entry != "pip")


def test_environment_yml_equals_requirements():
    expected = pip_pins("requirements.txt") | pip_pins("requirements-dev.txt")
    expected |= pip_pins("requirements-slurm.txt")
    pins = conda_pins("environment.yml")
    assert pins.pop("python") == "3.11"
    assert pins == expected


def test_rule_environment_equals_runtime_requirements():
    expected = pip_pins("requirements.txt")
    expected.pop("snakemake")  # the rules run inside Snakemake, they do not import it
    expected.pop("psutil")  # only scripts/tools/bench.py uses it
    expected.pop("pygments")  # only `snakemake --report` uses it
    pins = conda_pins("workflow/envs/metrics.yaml")
    assert pins.pop("python") == "3.11"
    assert pins == expected


def test_the_snakefile_requires_the_pinned_snakemake():
    # The oldest Snakemake the tests run on is the pinned one: an older one may lack
    # what tests/unit/test_snakemake_internals.py checks.
    snakefile = (REPO / "Snakefile").read_text("utf-8")
    [required] = re.findall(r'^min_version\("([^"]+)"\)$', snakefile, re.MULTILINE)
    assert required == pip_pins("requirements.txt")["snakemake"]
