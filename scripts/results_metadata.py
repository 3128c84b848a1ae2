"""Rule metadata: metadata.json, what produced the published results.

The parameters, the workflow's version, the digests of the rubric, methods and schemas
it follows, its tools' versions, the digest of every input (the cross-check's verdict)
and the newest scoring of the corpus (the leaderboard's "Last update" and the default
date of a snapshot) (ro_metrics.history.metadata). Never a clock: the same inputs give
the same bytes.
"""

from ro_metrics.contracts.files import step_logger, write_json
from ro_metrics.contracts.records import read_partition_reviews, read_verdict
from ro_metrics.contracts.vocabulary import newest_timestamp
from ro_metrics.history.metadata import metadata


def main(smk) -> None:
    log = step_logger("metadata", smk.log[0])
    verdict = read_verdict(smk.input.verdict)
    newest = [read_partition_reviews(path).newest_scoring_utc for path in smk.input.reviews]
    newest = [timestamp for timestamp in newest if timestamp]
    document = metadata(
        verdict,
        newest_timestamp(newest) if newest else "",
        smk.params,
        smk.input.rubric,
        smk.input.uncertainty_methods,
        list(smk.input.schemas),
        dict(zip(smk.params.optional_inputs, smk.input.optional_inputs, strict=True)),
    )
    write_json(smk.output[0], document, pretty=True)
    log.info("metadata: inputs %s", document["inputs"])


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
