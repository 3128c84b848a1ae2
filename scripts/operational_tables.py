"""Rule operational: operational_per_subject.csv and operational_per_family.csv (telemetry.md).

Reads the runner's batch logs (logs/batch_logs/*.csv) and which responses exist, and
counts the latest passing call of each run that has a response
(ro_metrics.corpus.telemetry). It reruns when the telemetry or the set of responses
changes, never for a scoring.

Problems of the telemetry are not raised here: they go, with the calls that need a
check against their responses, into the step's summary (records.OperationalSummary),
and the cross-check reports them with every other problem of the corpus. Without
telemetry both tables are written empty (header only) and not published.
"""

import hashlib
from pathlib import Path

from ro_metrics.contracts.files import step_logger, without_cycle_collector
from ro_metrics.contracts.records import OperationalSummary, Problem, write_operational_summary
from ro_metrics.contracts.tables import (
    OPERATIONAL_FAMILY_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
    write_csv,
)
from ro_metrics.corpus.layout import response_paths, telemetry_entries
from ro_metrics.corpus.telemetry import (
    read_batch_logs,
    response_keys,
    select_calls,
    telemetry_call,
)
from ro_metrics.formulas.operational import operational_rows


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("operational", smk.log[0])
    corpus = Path(smk.params.corpus)
    entries = telemetry_entries(corpus)
    logs = read_batch_logs(entries, smk.params.corpus)

    problems, calls, n_failed = [], [], 0
    for path, batch_log in logs.items():
        problems += [Problem(path, message) for message in batch_log.problems]
        calls += batch_log.calls
        n_failed += batch_log.n_failed
    # Without telemetry no response lacks "its" call: there is nothing to match.
    responses = (
        response_keys(response_paths(corpus, smk.params.benchmark_version)) if entries else set()
    )
    selection = select_calls(calls, responses)
    write_csv(
        smk.output.per_subject,
        OPERATIONAL_SUBJECT_COLUMNS,
        operational_rows(selection.counted, per_family=False),
    )
    write_csv(
        smk.output.per_family,
        OPERATIONAL_FAMILY_COLUMNS,
        operational_rows(selection.counted, per_family=True),
    )
    digest = hashlib.sha256(
        "".join(f"{path}\t{result.digest}\n" for path, result in logs.items()).encode()
    )
    summary = OperationalSummary(
        has_telemetry=bool(entries),
        n_files=len(entries),
        digest=digest.hexdigest(),
        problems=problems,
        counted=[telemetry_call(call) for call in selection.counted],
        without_usage=[telemetry_call(call) for call in selection.without_usage],
        without_response=[telemetry_call(call) for call in selection.without_response],
        without_call=selection.without_call,
        n_superseded=selection.n_superseded,
        n_failed=n_failed,
    )
    write_operational_summary(smk.output.summary, summary)
    log.info(
        "%d batch log(s), %d problem(s); %d passing calls "
        "counted, %d superseded by a later passing call of the same run, %d without token "
        "counts or latency, %d without a response; %d failed calls; %d responses without "
        "a passing call",
        len(entries),
        len(problems),
        len(selection.counted),
        selection.n_superseded,
        len(selection.without_usage),
        len(selection.without_response),
        n_failed,
        len(selection.without_call),
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
