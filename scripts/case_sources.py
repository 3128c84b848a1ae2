"""Rule case_sources (one job per family of cases): a record of what the family's case
pages are made from besides its partitions' rows (workflow/rules/site.smk says why it
is a job): its parameters, the digest of the family's corpus entries among them (its
inputs, the golds and the code, rerun it too). Its date is what matters: the case pages
job of the family reruns after it.
"""

from ro_metrics.contracts.files import step_logger, write_json


def main(smk) -> None:
    log = step_logger("case_sources", smk.log[0])
    write_json(smk.output[0], dict(smk.params.items()), pretty=True)
    log.info("the sources of the %s case pages recorded", smk.wildcards.family)


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
