# `snakemake snapshot`: the published results frozen into HISTORY/<date>/ (config
# snapshot_date, else the date of the newest scoring, which metadata.json records).
# take_snapshot writes a dated folder only when there is none: its inputs are ancient()
# (newer results never rewrite a snapshot) and its output protected() (Snakemake refuses
# to overwrite one). The target `snapshot` then checks that the folder holds exactly
# the published results, naming every difference if it does not.


def snapshot_of_results(wildcards):
    """The snapshot folder of the published results: config snapshot_date, else the date
    of the newest scoring their metadata.json records (take_snapshot checks that the
    results it copies are of that date)."""
    if config["snapshot_date"]:
        return f"{HISTORY}/{config['snapshot_date']}"
    metadata = Path(RESULTS) / "metadata.json"
    if not metadata.is_file():
        raise WorkflowError(f"snapshot: no published results in {RESULTS}; run snakemake first")
    return f"{HISTORY}/{read_json(metadata)['newest_scoring_utc'][:10]}"


rule take_snapshot:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "history"),
        # Paths of their own (ancient() flags the objects it is given: publish's outputs
        # would become ancient for every step that reads them).
        published=ancient([f"{RESULTS}/{entry.name}" for entry in PUBLISHED]),
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
