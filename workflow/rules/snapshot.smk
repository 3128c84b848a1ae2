# `snakemake snapshot`: the published results frozen into HISTORY/<date>/ (config
# snapshot_date, else the date of the newest scoring, which metadata.json records).
# take_snapshot writes a dated folder only when there is none: its inputs are ancient()
# (newer results never rewrite a snapshot) and its output protected() (Snakemake refuses
# to overwrite one). The target `snapshot` then checks that the folder holds exactly
# the published results, naming every difference if it does not.


def snapshot_of_results(wildcards):
    """The snapshot folder of this run's results, dated by its metadata (a checkpoint:
    its newest scoring is known once the metadata step has run)."""
    metadata = checkpoints.metadata.get().output[0]
    date = config["snapshot_date"] or read_json(metadata)["newest_scoring_utc"][:10]
    return f"{HISTORY}/{date}"


rule take_snapshot:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "history"),
        published=ancient(rules.publish.output),
    output:
        protected(directory(f"{HISTORY}/{{date}}")),
    log:
        f"{LOGS}/take_snapshot-{{date}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        results=RESULTS,
    script:
        "../../scripts/snapshot_folder.py"


rule snapshot:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "history"),
        snapshot=snapshot_of_results,
        published=rules.publish.output,
    log:
        f"{LOGS}/snapshot.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        results=RESULTS,
    script:
        "../../scripts/snapshot_check.py"
