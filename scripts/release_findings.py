"""Rule findings: findings.json, family_heatmap.csv and the findings' charts.

Every fact of ../shared/spec/findings.md computed from the published tables (staged) and
the corpus' records, so a release report quotes computed values only
(docs/findings-json.md lists the keys): §§ 1–4 and 7 by ro_metrics.formulas.findings
from the per-run steps' tallies of the runs that count (combined_tallies; never the
per-run rows themselves),
§ 5 by formulas.answer_structure (the responses' AnswerShapes), § 6 by
formulas.cost_quality (operational_per_subject.csv when the corpus has telemetry), the
neighbour tests and bootstrap ranks from the uncertainty step's rankings.json, the
critical fails of the scorings that count with their evidence (the per-run steps'). The
charts (report.findings_charts): English `<stem>.svg` and Spanish `<stem>.es.svg`. The
step's last log line is its own wall and CPU
seconds from the start of main (`findings: ... in X s (CPU Y s)`): the bench's
findings_cold and findings_step rows read it, as the job shares the run with others.

On the path of every new scoring: no pandas (formulas.findings says why). Inputs that
do not fit together are named one per line, with the file, and nothing is written.

Versions with a withdrawn or invalidated annotation (annotations.csv) leave every
findings comparison: their rows are filtered out of every input before any fact is
computed (ranking.active); every annotation is listed under the key `annotations` (only
when there is one), for the report to show.
"""

import sys
import time
from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector, write_bytes_atomic
from ro_metrics.contracts.published import chart_file
from ro_metrics.contracts.records import (
    findings_bytes,
    read_answer_shapes,
    read_group_tallies,
    read_ranking_evidence,
    read_verdict,
)
from ro_metrics.contracts.tables import (
    CRITERION_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    FAMILY_HEATMAP_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
    PENDING_COLUMNS,
    SUBJECT_COLUMNS,
    assembled_rows,
    assembled_table,
    read_annotations,
    read_table,
    read_uncertainty,
    write_csv,
)
from ro_metrics.formulas.answer_structure import structure_facts
from ro_metrics.formulas.cost_quality import cost_facts
from ro_metrics.formulas.findings import (
    FindingsInputError,
    Leaderboard,
    combined_tallies,
    findings_document,
    keyed_inputs,
)
from ro_metrics.formulas.operational import cost_per_case
from ro_metrics.formulas.ranking import active, left_out
from ro_metrics.rendering.translations import LANGUAGES
from ro_metrics.report.findings_charts import findings_charts


def main(smk) -> None:
    without_cycle_collector()
    started, cpu_started = time.perf_counter(), time.process_time()
    log = step_logger("findings", smk.log[0])
    verdict = read_verdict(smk.input.verdict)
    annotations = read_annotations(smk.input.annotations)
    left = left_out(annotations)

    def comparing(records):
        # The records of versions in active comparisons (tuples or dicts alike).
        return [
            record
            for record in records
            if (_field(record, "subject_id"), _field(record, "subject_version")) not in left
        ]

    subjects = active(assembled_table(smk.input.metrics_per_subject, SUBJECT_COLUMNS), left)
    operational = None
    if verdict.has_telemetry:
        operational = comparing(
            read_table(smk.input.operational_per_subject, OPERATIONAL_SUBJECT_COLUMNS)
        )
    keyed = keyed_inputs(
        comparing(group for path in smk.input.tallies for group in read_group_tallies(path)),
        subjects,
        read_ranking_evidence(smk.input.rankings),
        # The critical fails of the scorings that count, with their evidence.
        [
            row
            for row in assembled_rows(smk.input.critical_fails, CRITICAL_FAIL_COLUMNS)
            if (row[0], row[1]) not in left
        ],
        comparing(shape for path in smk.input.shapes for shape in read_answer_shapes(path)),
        comparing(assembled_table(smk.input.criterion_scores, CRITERION_COLUMNS)),
        operational,
    )
    order = Leaderboard.of(keyed.subjects).order
    # A version's rows of uncertainty.csv and pending_runs.csv under its findings key.
    key_of = {(n["subject_id"], n["subject_version"]): key for key, n in keyed.names.items()}
    uncertainty = {
        (key_of.get((subject_id, version), version), metric): row
        for (subject_id, version, metric), row in read_uncertainty(smk.input.uncertainty).items()
    }
    pending_rows = [
        {
            **row,
            "subject_version": key_of.get(
                (row["subject_id"], row["subject_version"]), row["subject_version"]
            ),
        }
        for row in assembled_table(smk.input.pending_runs, PENDING_COLUMNS)
    ]
    tallies = combined_tallies(keyed.groups)
    # The family of every case with a scored run (§ 5).
    families = {case: family for family, cases in tallies.cases.items() for case in cases}
    try:
        structure = structure_facts(keyed.shapes, families, keyed.criterion_rows, order)
    except ValueError as error:  # a shape of a version with no row of the leaderboard
        log.error("%s: %s", " ".join(smk.input.shapes), error)
        sys.exit(1)
    try:
        findings = findings_document(
            benchmark_version=smk.params.benchmark_version,
            verdict=verdict,
            tallies=tallies,
            subjects=keyed.subjects,
            critical_rows=keyed.critical_rows,
            evidence=keyed.evidence,
            structure=structure,
            cost=cost_facts(keyed.operational_rows, keyed.subjects, order),
            costs=None
            if keyed.operational_rows is None
            else {row["subject_version"]: cost_per_case(row) for row in keyed.operational_rows},
            names=keyed.names,
            pending_rows=pending_rows,
            uncertainty=uncertainty,
        )
    except FindingsInputError as error:
        for name, message in error.problems:
            log.error("%s: %s", smk.input[name], message)
        log.error("findings: %d problem(s); nothing was written", len(error.problems))
        sys.exit(1)
    if annotations:
        # Every annotation, withdrawn and invalidated versions' included (lifecycle.md).
        findings.document["annotations"] = annotations
    write_bytes_atomic(smk.output.findings, findings_bytes(findings.document))
    write_csv(smk.output.heatmap, FAMILY_HEATMAP_COLUMNS, findings.heatmap_rows)
    charts = Path(smk.output.charts[0]).parent
    for code in LANGUAGES:
        for stem, svg in sorted(findings_charts(findings.document, code).items()):
            write_bytes_atomic(charts / chart_file(stem, code), svg.encode("utf-8"))
    log.info(
        "findings: %d versions, %d scored runs in %.3f s (CPU %.3f s)",
        findings.document["n_versions"],
        findings.document["n_scored_runs"],
        time.perf_counter() - started,
        time.process_time() - cpu_started,
    )


def _field(record, name: str) -> str:
    return record[name] if isinstance(record, dict) else getattr(record, name)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
