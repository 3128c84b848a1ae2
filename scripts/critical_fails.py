"""Rule critical_fails: results/critical_fails.csv, the evidence of every critical fail.

One row per critical fail of every scored run (the partitions' records.CriticalFail),
sorted by (subject_id, subject_version, case_id, run_id, reviewer_id), then by the
fail's position in the scoring. Its quote is always the model's own words, checked
against the response: exact, close or none (ro_metrics.formulas.evidence). Runs only
after the cross-check accepted the corpus (its verdict is an input).
"""

from collections import Counter

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import read_critical_fails
from ro_metrics.contracts.tables import CRITICAL_FAIL_COLUMNS, write_csv
from ro_metrics.formulas.evidence import critical_fail_rows


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("critical_fails", smk.log[0])
    fails = [fail for path in smk.input.critical_fails for fail in read_critical_fails(path)]
    rows = critical_fail_rows(fails)
    write_csv(smk.output[0], CRITICAL_FAIL_COLUMNS, rows)
    matches = Counter(row[CRITICAL_FAIL_COLUMNS.index("match")] for row in rows)
    log.info(
        "%d critical fails written (%s)",
        len(rows),
        ", ".join(f"{kind} {matches[kind]}" for kind in ("exact", "close", "none")),
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
