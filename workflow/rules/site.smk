# `snakemake --cores 4 site`: the static site in SITE (config `site`), built from the
# published results, in English (the site root) and Spanish (es/). Its pages are made
# by partition: each subject partition's version pages, each family's case pages, the
# front pages (the index, the findings page, the report's page); rule site_folder then
# puts them together into SITE, which it owns whole (a page whose input disappeared
# disappears with it).


rule version_pages:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "report", "site"),
        published=rules.load_partition.output.published,
        # Which scoring of each run counts (one with one reviewer per run).
        consolidation=rules.per_run.output.consolidation,
        golds=rules.load_golds.output[0],
        # A gate only: pages are built from a corpus the cross-check accepted. The
        # verdict is rewritten by every run that changes anything, so its date must
        # not re-run the pages of the partitions that did not change (ancient). A path
        # of its own: ancient() flags the object it is given, and the rule's output
        # object would make the verdict ancient for every step that reads it.
        verdict=ancient(f"{CACHE}/verdict.json"),
    output:
        pages=directory(f"{CACHE}/site/versions-{{partition}}"),
        # Each version's row of the index's matrix, in every language.
        matrix=f"{PARTITION}/matrix.json",
        # The partition's rows of each case page, by the case's family.
        case_rows=expand(
            f"{PARTITION}/case_rows-{{family}}.json", family=FAMILIES, allow_missing=True
        ),
    log:
        f"{LOGS}/version_pages-{{partition}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        alpha=config["alpha"],
        benchmark_version=VERSION,
    script:
        "../../scripts/version_pages.py"


rule case_pages:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "report", "site"),
        case_rows=expand(
            f"{PARTITION}/case_rows-{{family}}.json", partition=PARTITIONS, allow_missing=True
        ),
        golds=rules.load_golds.output[0],
    output:
        directory(f"{CACHE}/site/cases-{{family}}"),
    log:
        f"{LOGS}/case_pages-{{family}}.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        benchmark_version=VERSION,
    script:
        "../../scripts/case_pages.py"


rule front_pages:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "report", "site"),
        published=rules.publish.output,
        matrix=expand(rules.version_pages.output.matrix, partition=PARTITIONS),
        golds=rules.load_golds.output[0],
    output:
        directory(f"{CACHE}/site/front"),
    log:
        f"{LOGS}/front_pages.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=1024,
    params:
        results=RESULTS,
        alpha=config["alpha"],
        benchmark_version=VERSION,
    script:
        "../../scripts/front_pages.py"


rule site_folder:
    input:
        code=library("contracts", "formulas", "rendering", "leaderboard", "report", "site"),
        versions=expand(rules.version_pages.output.pages, partition=PARTITIONS),
        cases=expand(rules.case_pages.output[0], family=FAMILIES),
        front=rules.front_pages.output[0],
    output:
        directory(SITE),
    log:
        f"{LOGS}/site_folder.log",
    conda:
        "../envs/metrics.yaml"
    threads: 1
    resources:
        mem_mb=512,
    script:
        "../../scripts/site_folder.py"
