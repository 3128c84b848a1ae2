# The critical fails' evidence, the leaderboard, the changes report and the results
# folder: one job (its script's docstring says why), its two independent parts on two cores.
rule publish:
    input:
        # Under double review: the consolidated runs and those pending their review.
        **(
            {
                "per_run_consolidated": rules.per_run.output.consolidated,
                "pending_runs": rules.per_run.output.pending,
                **rules.agreement.output,
            }
            if DOUBLE_REVIEW
            else {}
        ),
        modules=modules("published_results.py"),
        verdict=rules.cross_check.output.verdict,
        per_run=rules.per_run.output.csv,
        per_run_table=rules.per_run.output.table,
        # Its newest scoring, the page's date (computed once, by step 2).
        per_run_summary=rules.per_run.output.summary,
        metrics_per_subject=rules.metrics_per_subject.output[0],
        metrics_per_family=rules.metrics_per_family.output[0],
        uncertainty=rules.uncertainty.output.table,
        # The neighbour tests: the page's "separable" between adjacent ranks.
        rankings=rules.uncertainty.output.rankings,
        criterion_scores=rules.per_run.output.criteria,
        input_files=rules.cross_check.output.input_files,
        # The partitions' critical fails; their evidence is found here (cheap: a critical
        # fail disqualifies, so they are few) for critical_fails.csv and the page.
        critical_fails=expand(
            f"{CACHE}/load/partition-{{partition}}.critical.json", partition=PARTITIONS
        ),
        operational_per_subject=rules.operational.output.per_subject,
        operational_per_family=rules.operational.output.per_family,
        # findings.md's facts, heatmap and charts (rule findings), copied.
        findings=rules.findings.output.findings,
        family_heatmap=rules.findings.output.heatmap,
        charts=rules.findings.output.charts,
        # The labels of the pages, of changes.md and of the changes section (a data file).
        labels=LABELS,
        # The pages' templates (the leaderboard page and its components).
        templates=TEMPLATES,
        # The snapshots: the changes report compares with one, the page links them, and
        # taking one can change which is compared with.
        history=snapshot_metadata_files,
        # What metadata.json records of the rubric, methods and schemas (provenance).
        uncertainty_methods=f"{workflow.basedir}/system/rubric/{VERSION}/uncertainty_methods.md",
        rubric=f"{workflow.basedir}/system/rubric/{VERSION}/aggregated_metrics.md",
        schemas=expand(
            f"{SCHEMAS}/{{kind}}.schema.json",
            kind=["response", "evaluation", "gold", "registry"],
        ),
    output:
        # Under double review only (publish removes them from results/ otherwise).
        **(
            {
                "per_run_consolidated": report(
                    update(f"{RESULTS}/per_run_consolidated.csv"),
                    caption="../report/per_run_consolidated.rst",
                    category="Metrics",
                ),
                "pending_runs": report(
                    update(f"{RESULTS}/pending_runs.csv"),
                    caption="../report/pending_runs.rst",
                    category="Metrics",
                ),
                **{
                    name: update(f"{RESULTS}/{Path(path).name}")
                    for name, path in rules.agreement.output.items()
                },
            }
            if DOUBLE_REVIEW
            else {}
        ),
        # update(): if this job fails, Snakemake restores the previous published file.
        # report(): the files of `snakemake --report`, each with its caption.
        per_run=report(
            update(f"{RESULTS}/per_run.csv"),
            caption="../report/per_run.rst",
            category="Metrics",
        ),
        metrics_per_subject=report(
            update(f"{RESULTS}/metrics_per_subject.csv"),
            caption="../report/metrics_per_subject.rst",
            category="Metrics",
        ),
        metrics_per_family=report(
            update(f"{RESULTS}/metrics_per_family.csv"),
            caption="../report/metrics_per_family.rst",
            category="Metrics",
        ),
        coverage=report(
            update(f"{RESULTS}/coverage.csv"),
            caption="../report/coverage.rst",
            category="Metrics",
        ),
        uncertainty=report(
            update(f"{RESULTS}/uncertainty.csv"),
            caption="../report/uncertainty.rst",
            category="Metrics",
        ),
        criterion_scores=report(
            update(f"{RESULTS}/criterion_scores.csv"),
            caption="../report/criterion_scores.rst",
            category="Metrics",
        ),
        input_files=report(
            update(f"{RESULTS}/input_files.csv"),
            caption="../report/input_files.rst",
            category="Changes",
        ),
        changes_csv=report(
            update(f"{RESULTS}/changes.csv"),
            caption="../report/changes_csv.rst",
            category="Changes",
        ),
        changes_md=report(
            update(f"{RESULTS}/changes.md"),
            caption="../report/changes_md.rst",
            category="Changes",
        ),
        critical_fails=report(
            update(f"{RESULTS}/critical_fails.csv"),
            caption="../report/critical_fails.rst",
            category="Leaderboard",
        ),
        leaderboard_csv=report(
            update(f"{RESULTS}/leaderboard.csv"),
            caption="../report/leaderboard_csv.rst",
            category="Leaderboard",
        ),
        leaderboard_html=report(
            update(f"{RESULTS}/leaderboard.html"),
            caption="../report/leaderboard_html.rst",
            category="Leaderboard",
        ),
        leaderboard_md=report(
            update(f"{RESULTS}/leaderboard.md"),
            caption="../report/leaderboard_md.rst",
            category="Leaderboard",
        ),
        leaderboard_es_html=report(
            update(f"{RESULTS}/leaderboard.es.html"),
            caption="../report/leaderboard_es_html.rst",
            category="Leaderboard",
        ),
        metadata=update(f"{RESULTS}/metadata.json"),
        findings=update(f"{RESULTS}/findings.json"),
        family_heatmap=report(
            update(f"{RESULTS}/family_heatmap.csv"),
            caption="../report/family_heatmap.rst",
            category="Findings",
        ),
        # The findings' charts: <stem>.svg in English, <stem>.es.svg in Spanish.
        charts=[update(f"{RESULTS}/charts/{name}") for name in FINDINGS_CHARTS],
        # Beside it, the scratch files of the leaderboard and the changes report.
        figures=report(
            directory(f"{STAGED}/reliability"),
            patterns=["{name}.svg"],
            caption="../report/reliability.rst",
            category="Reliability diagrams",
            labels={"subject version": "{name}"},
        ),
    log:
        f"{LOGS}/publish.log",
    conda:
        "../envs/metrics.yaml"
    # The changes report in a forked process beside the leaderboard.
    threads: 2
    resources:
        mem_mb=2048,
    params:
        alpha=config["alpha"],
        bootstrap_seed=config["bootstrap_seed"],
        bootstrap_replicates=config["bootstrap_replicates"],
        benchmark_version=VERSION,
        strict=config["strict"],
        snapshot_date=config["snapshot_date"],
        changes_since=config["changes_since"],
        history=HISTORY,
        diagram_cache=f"{CACHE}/diagrams",
        # operational_*.csv: written when the corpus has telemetry, removed otherwise.
        optional=OPTIONAL_PUBLISHED,
        double_review=DOUBLE_REVIEW,
        # Published under double review only: removed from results/ otherwise.
        review_published=[
            f"{RESULTS}/per_run_consolidated.csv",
            f"{RESULTS}/pending_runs.csv",
            *(f"{RESULTS}/{Path(path).name}" for path in rules.agreement.output),
        ],
    script:
        "../../scripts/published_results.py"


# The published files: every output of publish but the diagrams' folder (the report's).
PUBLISHED_FILES = [path for path in rules.publish.output if path != rules.publish.output.figures]
