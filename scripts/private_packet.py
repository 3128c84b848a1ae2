"""Rule private_report (one job per subject version): the version's private packet in
<results>/private/<subject_id>/<subject_version>/ (shared/spec/private-reports.md):
report.html (and report.es.html when config private_report_languages asks for it),
report.pdf (and report.es.pdf), and <subject_version>.zip.

Reads the published results (metrics_per_subject.csv, metrics_per_family.csv,
uncertainty.csv, leaderboard.csv, critical_fails.csv, per_run.csv; under double review
also per_run_consolidated.csv) and the version's own responses and scorings, nothing
else of the corpus: no gold, no other version's file (the rule's inputs, private.smk).
The report shows the version in the leaderboard's view of the published data
(private/private_view.py); the ZIP holds its own artifacts (private/packet_zip.py). The
inputs digest, in the report and its footer, is that of exactly these inputs.
"""

from pathlib import Path

from ro_metrics.contracts.files import (
    step_logger,
    tell,
    without_cycle_collector,
    write_bytes_atomic,
)
from ro_metrics.contracts.published import (
    ANNOTATIONS,
    CRITICAL_FAILS,
    LEADERBOARD_CSV,
    METRICS_PER_FAMILY,
    METRICS_PER_SUBJECT,
    PER_RUN,
    PER_RUN_CONSOLIDATED,
    UNCERTAINTY,
)
from ro_metrics.contracts.tables import (
    CONSOLIDATED_COLUMNS,
    CRITICAL_FAIL_COLUMNS,
    FAMILY_COLUMNS,
    PER_RUN_COLUMNS,
    SUBJECT_COLUMNS,
    read_annotations,
    read_leaderboard,
    read_table,
    read_uncertainty,
)
from ro_metrics.corpus.decoding import decode_json
from ro_metrics.leaderboard.leaderboard_view import leaderboard_view
from ro_metrics.private.packet_zip import (
    inputs_digest,
    packet_zip,
    rows_bytes,
    scoring_bytes,
    sha256,
    version_rows,
)
from ro_metrics.private.private_page import PdfError, print_pdf, render_report
from ro_metrics.private.private_view import private_report
from ro_metrics.rendering.reliability_diagram import diagram_text, inline
from ro_metrics.rendering.reliability_svg import reliability_svg_text
from ro_metrics.rendering.translations import language

# The published tables whose version rows the ZIP holds, each with its columns.
ZIPPED_TABLES = (
    (PER_RUN.name, PER_RUN_COLUMNS),
    (METRICS_PER_SUBJECT.name, SUBJECT_COLUMNS),
    (METRICS_PER_FAMILY.name, FAMILY_COLUMNS),
    (CRITICAL_FAILS.name, CRITICAL_FAIL_COLUMNS),
)


def main(smk) -> None:
    without_cycle_collector()
    log = step_logger("private_report", smk.log[0])
    subject_id, subject_version = smk.wildcards.subject_id, smk.wildcards.subject_version
    corpus = Path(smk.params.corpus)
    published = {Path(path).name: Path(path) for path in smk.input.published}

    # Every input's digest, by a name that does not depend on where it lies.
    own = {
        Path(path).resolve().relative_to(corpus.resolve()).as_posix(): Path(path).read_bytes()
        for path in [*smk.input.responses, *smk.input.scorings]
    }
    digests = {name: sha256(content) for name, content in own.items()}
    digests |= {name: sha256(path.read_bytes()) for name, path in published.items()}
    digest = inputs_digest(digests)

    # Under double review the ZIP also holds the version's consolidated runs.
    zipped = [*ZIPPED_TABLES]
    if PER_RUN_CONSOLIDATED.name in published:
        zipped.append((PER_RUN_CONSOLIDATED.name, CONSOLIDATED_COLUMNS))
    tables = {name: read_table(published[name], columns) for name, columns in zipped}
    board = read_leaderboard(published[LEADERBOARD_CSV.name])
    view = leaderboard_view(
        benchmark_version=smk.params.benchmark_version,
        alpha=smk.params.alpha,
        last_update="",
        subjects=tables[METRICS_PER_SUBJECT.name],
        uncertainty=read_uncertainty(published[UNCERTAINTY.name]),
        tracks={(row["subject_id"], row["subject_version"]): row["track"] for row in board},
        registry={row["subject_id"]: {"provider": row["provider"] or None} for row in board},
        families=tables[METRICS_PER_FAMILY.name],
        critical_fails=tables[CRITICAL_FAILS.name],
        # Withdrawn and invalidated versions: marked, unranked, in no comparison.
        annotations=(
            read_annotations(published[ANNOTATIONS.name]) if ANNOTATIONS.name in published else []
        ),
    )
    scorings = [decode_json(own[name]) for name in sorted(own) if name.startswith("scoring/")]
    own_rows = {
        name: version_rows(rows, subject_id, subject_version) for name, rows in tables.items()
    }
    try:
        report = private_report(
            view,
            subject_id,
            subject_version,
            per_run=own_rows[PER_RUN.name],
            scorings=scorings,
            families=tables[METRICS_PER_FAMILY.name],
            inputs_digest=digest,
            # The runs the metrics count: per_run.csv's, or under double review the
            # consolidated ones.
            counted=own_rows.get(PER_RUN_CONSOLIDATED.name, own_rows[PER_RUN.name]),
        )
    except ValueError as error:
        # One line, no traceback: the published results do not have the version.
        raise SystemExit(f"private report: {error}") from None

    # The rule lists pages and PDFs in the order of its languages.
    outputs = zip(smk.params.languages, smk.output.pages, smk.output.pdfs, strict=True)
    for code, page, pdf in outputs:
        t = language(code)
        # The reliability diagram of the version's runs, as the leaderboard draws it.
        title = f"{subject_id} · {subject_version}"
        svg = reliability_svg_text(report.calibration, title, diagram_text(t))
        html = render_report(report, t, diagram_svg=inline(svg), bins=report.calibration)
        write_bytes_atomic(page, html.encode("utf-8"))
        try:
            print_pdf(Path(page), Path(pdf), log)
        except PdfError as error:
            raise SystemExit(str(error)) from None

    files = {
        f"responses/{Path(name).name}": content
        for name, content in own.items()
        if name.startswith("responses/")
    }
    files |= {
        f"scorings/{Path(name).name}": scoring_bytes(document)
        for name, document in zip(
            sorted(name for name in own if name.startswith("scoring/")), scorings, strict=True
        )
    }
    for name, columns in zipped:
        files[name] = rows_bytes(columns, own_rows[name])
    write_bytes_atomic(smk.output.zip, packet_zip(subject_version, files))
    message = (
        f"private report of {subject_id} {subject_version}: {len(report.runs)} runs, "
        f"{len(files) + 1} files in its ZIP, inputs {digest[:12]}"
    )
    log.info(message)
    tell(message)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
