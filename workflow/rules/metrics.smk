# Steps 2-4, one job each per partition: the per-run table (aggregated_metrics.md §2),
# the runs the metrics count (consolidated: a run's one scoring with one reviewer per
# run, two primaries and an arbiter under double review, multi-reviewer.md), the
# critical fails with their evidence; then the per-subject and per-family metrics of
# the partition's subject versions. A subject version's runs are all in one partition,
# so each of these tables is its partitions' rows (rule publish assembles them).


rule per_run:
    input:
        code=library("contracts", "formulas", "corpus"),
        runs=rules.load_partition.output.runs,
        critical_fails=rules.load_partition.output.critical_fails,
        golds=rules.load_golds.output[0],
        policy=REVIEW_POLICY_FILE,
        reviewers_schema=f"{SCHEMAS}/reviewers.schema.json",
    output:
        per_run=f"{PARTITION}/per_run.csv",
        criterion_scores=f"{PARTITION}/criterion_scores.csv",
        per_run_consolidated=f"{PARTITION}/per_run_consolidated.csv",
        pending_runs=f"{PARTITION}/pending_runs.csv",
        critical_fails=f"{PARTITION}/critical_fails.csv",
        # The consolidated runs as typed per-run rows: what the metrics are computed from.
        counted=f"{PARTITION}/counted.json",
        # Those runs summed per (subject, version, family), integers: what findings reads.
        tallies=f"{PARTITION}/tallies.json",
        # Each subject version's counted runs as integer sums per case: the bootstrap's.
        case_sums=f"{PARTITION}/case_sums.json",
        # Which scoring of each run counts, and the runs pending their review (the pages).
        consolidation=f"{PARTITION}/consolidation.json",
        # The review pairs (agreement), the reviews' problems and pending scorings (the
        # cross-check), the newest scoring (metadata).
        reviews=f"{PARTITION}/reviews.json",
    log:
        f"{LOGS}/per_run-{{partition}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        # subjects/reviewers.yaml (read here: it decides the roles of a run's scorings).
        reviewers=digest_of("reviewers"),
        corpus=CORPUS,
        benchmark_version=VERSION,
        max_file_bytes=MAX_FILE_BYTES,
        # The policy with the configuration's overrides: a changed setting reruns it.
        policy=POLICY,
    script:
        "../../scripts/per_run_table.py"


rule metrics_per_subject:
    input:
        code=library("contracts", "formulas"),
        counted=rules.per_run.output.counted,
    output:
        f"{PARTITION}/metrics_per_subject.csv",
    log:
        f"{LOGS}/metrics_per_subject-{{partition}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        alpha=config["alpha"],
    script:
        "../../scripts/metrics_per_subject.py"


rule metrics_per_family:
    input:
        code=library("contracts", "formulas"),
        counted=rules.per_run.output.counted,
    output:
        f"{PARTITION}/metrics_per_family.csv",
    log:
        f"{LOGS}/metrics_per_family-{{partition}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    script:
        "../../scripts/metrics_per_family.py"
