# `snakemake snapshot`: the published results frozen into HISTORY/<date>/ (config
# snapshot_date, else the date of the newest scoring, which the published metadata.json
# records). Every snapshot folder is the output of take_snapshot, which writes one only
# when there is none: the target `snapshot` asks for the folder only then, and checks an
# existing one against the published results (the same content says so; other content
# is refused with every differing file named).
#
# An existing snapshot is never an output to remake: a rerun trigger of take_snapshot
# (a change of its code, its parameters or the set of published files, publish running
# before it) or --force would have Snakemake delete the folder and write it again, and
# protected() would stop neither root (Snakemake tests write access) nor a fresh clone
# (git keeps no write bits). So take_snapshot refuses to be planned over an existing
# folder (no_snapshot_yet in common.smk).


rule take_snapshot:
    input:
        no_snapshot_yet,
        code=library("contracts", "formulas", "rendering", "leaderboard", "history"),
        # Not ancient(): take_snapshot is only ever planned for a missing folder.
        published=rules.publish.output,
    output:
        directory(f"{HISTORY}/{{date}}"),
    log:
        f"{LOGS}/take_snapshot-{{date}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        # Each published file's path below the results folder (rules.publish.output's order).
        names=[entry.name for entry in PUBLISHED],
        # Given, the date is the user's; else the results copied must be of this date.
        snapshot_date=config["snapshot_date"],
        # What a refusal suggests: the same command, to run again.
        settings=RUN_SETTINGS,
    script:
        "../../scripts/snapshot_folder.py"


rule snapshot:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "history"),
        published=rules.publish.output,
        taken=snapshot_to_take,
    log:
        f"{LOGS}/snapshot.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    params:
        names=[entry.name for entry in PUBLISHED],
        history=HISTORY,
        snapshot_date=config["snapshot_date"],
        # What a refusal suggests: the same command under another date.
        settings=RUN_SETTINGS,
    script:
        "../../scripts/snapshot_check.py"
