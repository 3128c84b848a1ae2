"""Rule operational: operational_per_subject.csv and operational_per_family.csv (telemetry.md).

Reads the runner's batch logs (logs/batch_logs/*.csv, listed in their own manifest)
and the list of response paths, and counts the latest passing call of each run that
has a response (ro_metrics.corpus.telemetry). Its inputs change with the telemetry and
with the set of responses, never with a scoring, so a new scoring does not rerun it.

Problems of the telemetry are not raised here: they go, with the calls that need a
check against their responses, into the step's summary (records.OperationalSummary),
and the cross-check reports them with every other problem of the corpus. Without
telemetry both tables are written empty (header only) and the summary says so:
publish then publishes neither.
"""

import hashlib
from pathlib import Path

from ro_metrics.contracts.files import read_json, step_logger, without_cycle_collector, write_json
from ro_metrics.contracts.records import OperationalSummary, Problem, write_operational_summary
from ro_metrics.contracts.tables import (
    OPERATIONAL_FAMILY_COLUMNS,
    OPERATIONAL_SUBJECT_COLUMNS,
    write_csv,
)
from ro_metrics.corpus.layout import read_manifest, read_response_paths
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
    # The cached file checks are valid only for this code: its stamp's digests.
    fingerprint = hashlib.sha256(Path(smk.input.modules).read_bytes()).hexdigest()
    cache = {}
    if Path(smk.output.files).is_file():
        previous = read_json(smk.output.files)
        if previous.get("fingerprint") == fingerprint:
            cache = previous["files"]
    entries = read_manifest(smk.input.telemetry)
    logs, read = read_batch_logs(entries, smk.params.corpus, cache)
    write_json(smk.output.files, {"fingerprint": fingerprint, "files": logs})

    problems, calls, n_failed = [], [], 0
    for path, (*_, batch_log) in logs.items():
        problems += [Problem(path, message) for message in batch_log.problems]
        calls += batch_log.calls
        n_failed += batch_log.n_failed
    # Without telemetry no response lacks "its" call: there is nothing to match.
    responses = response_keys(read_response_paths(smk.input.responses)) if entries else set()
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
        "".join(f"{path}\t{result[3].digest}\n" for path, result in logs.items()).encode()
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
        "%d batch log(s) (%d read, the others unchanged), %d problem(s); %d passing calls "
        "counted, %d superseded by a later passing call of the same run, %d without token "
        "counts or latency, %d without a response; %d failed calls; %d responses without "
        "a passing call",
        len(entries),
        read,
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
