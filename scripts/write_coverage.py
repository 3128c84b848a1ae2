"""results/coverage.csv: responses, scored runs and unscored responses per subject version.

The spec's n_unscored, reported beside the metrics so coverage gaps are visible
without dragging any denominator. Every registered version has a row.
"""

from step_io import read_json, step_logger, write_csv

COVERAGE_COLUMNS = ["subject_id", "subject_version", "n_responses", "n_scored", "n_unscored"]


def main(smk) -> None:
    log = step_logger("coverage", smk.log[0])
    rows = read_json(smk.input.checked)["coverage"]
    write_csv(smk.output[0], COVERAGE_COLUMNS, rows)
    log.info("%d subject versions written", len(rows))


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
