"""Step 1a: load and check the responses and scorings of one partition of subjects.

Reads the files listed in the partition's manifest, validates each against its JSON
Schema and against its path, and checks what can be checked inside one subject:
every scoring has its response, with the same subject_version, and at most one
scoring exists per (case, subject, run). Problems are collected, not raised: the
cross-check step reports those of every partition together.
"""

import hashlib
from collections import defaultdict
from pathlib import Path

from corpus_files import CorpusFileError, SchemaCheck, decode_json, strict_integer_problems
from corpus_layout import (
    FILE,
    RESPONSE_NAME_RE,
    SCORING_NAME_RE,
    SUBJECT_ID_RE,
    read_manifest,
    responses_dir,
)
from step_io import step_logger, write_json

CRITERIA = (
    "main_hypothesis",
    "key_signals",
    "alternatives",
    "recommended_action",
    "requested_data",
    "decision_change_condition",
)
PROGRESS_EVERY = 20000


class PartitionLoader:
    def __init__(self, corpus: Path, version: str, response_schema, scoring_schema, log):
        self.corpus = corpus
        self.version = version
        self.response_check = SchemaCheck(response_schema)
        self.scoring_check = SchemaCheck(scoring_schema)
        self.log = log
        self.problems = []
        self.responses = {}
        self.scorings = []
        self.file_digests = []

    def problem(self, path: str, message: str) -> None:
        self.problems.append({"path": path, "message": message})

    def load(self, entries) -> None:
        response_top = responses_dir(self.version) + "/"
        for done, entry in enumerate(entries, start=1):
            if entry.kind != FILE:
                self.problem(entry.path, "unexpected folder (not part of the corpus layout)")
                continue
            parts = entry.path.split("/")
            if len(parts) != 4:
                self.problem(entry.path, "unexpected file outside a subject folder")
                continue
            if entry.path.startswith(response_top):
                self.load_response(entry.path, parts[2], parts[3])
            else:
                self.load_scoring(entry.path, parts[2], parts[3])
            if done % PROGRESS_EVERY == 0:
                self.log.info("%d of %d files checked", done, len(entries))
        self.check_scorings()

    def read_document(self, path: str, check: SchemaCheck):
        try:
            with open(f"{self.corpus}/{path}", "rb") as handle:
                raw = handle.read()
        except OSError as error:
            self.problem(path, f"cannot be read: {error.strerror}")
            return None
        self.file_digests.append(f"{path}\t{hashlib.sha256(raw).hexdigest()}\n")
        try:
            document = decode_json(raw)
        except CorpusFileError as error:
            self.problem(path, str(error))
            return None
        problems = check.problems(document)
        for message in problems:
            self.problem(path, message)
        return None if problems else document

    def subject_folder_problem(self, path: str, folder: str) -> bool:
        if SUBJECT_ID_RE.fullmatch(folder):
            return False
        self.problem(path, f"folder name {folder!r} is not a valid subject_id")
        return True

    def load_response(self, path: str, folder: str, name: str) -> None:
        match = RESPONSE_NAME_RE.fullmatch(name)
        if not match:
            self.problem(path, "file name is not <case_id>__<run_id>.json")
            return
        if self.subject_folder_problem(path, folder):
            return
        document = self.read_document(path, self.response_check)
        if document is None:
            return
        found = self.path_problems(
            path,
            {
                "subject_id": (document["subject_id"], folder),
                "case_id": (document["case_id"], match["case_id"]),
                "run_id": (document["run_id"], match["run_id"]),
            },
        )
        found += self.version_problems(path, document["benchmark_version"])
        for message in strict_integer_problems(document, [("confidence",)]):
            self.problem(path, message)
            found = True
        if found:
            return
        self.responses[(folder, match["case_id"], match["run_id"])] = {
            "path": path,
            "subject_version": document["subject_version"],
            "confidence": document["confidence"],
            "track": document.get("track", "classic"),
        }

    def load_scoring(self, path: str, folder: str, name: str) -> None:
        match = SCORING_NAME_RE.fullmatch(name)
        if not match:
            self.problem(path, "file name is not <case_id>__<run_id>__eval-<reviewer_id>.json")
            return
        if self.subject_folder_problem(path, folder):
            return
        document = self.read_document(path, self.scoring_check)
        if document is None:
            return
        ref = document["response_ref"]
        found = self.path_problems(
            path,
            {
                "response_ref.subject_id": (ref["subject_id"], folder),
                "response_ref.case_id": (ref["case_id"], match["case_id"]),
                "response_ref.run_id": (ref["run_id"], match["run_id"]),
                "reviewer_id": (document["reviewer_id"], match["reviewer_id"]),
            },
        )
        found += self.version_problems(path, document["benchmark_version"])
        integer_paths = [("criterion_scores", key, "score") for key in CRITERIA]
        for message in strict_integer_problems(document, integer_paths):
            self.problem(path, message)
            found = True
        if found:
            return
        self.scorings.append(
            {
                "path": path,
                "subject_id": folder,
                "subject_version": ref["subject_version"],
                "case_id": match["case_id"],
                "run_id": match["run_id"],
                "reviewer_id": document["reviewer_id"],
                "scoring_timestamp_utc": document["scoring_timestamp_utc"],
                "criterion_scores": [
                    document["criterion_scores"][key]["score"] for key in CRITERIA
                ],
                "fail_severities": sorted(
                    fail["severity"] for fail in document["automatic_fails_triggered"]
                ),
                "correctness": float(document["correctness"]),
            }
        )

    def path_problems(self, path: str, pairs: dict) -> int:
        found = 0
        for field, (in_file, in_path) in pairs.items():
            if in_file != in_path:
                self.problem(path, f"{field} is {in_file!r} but the file's path says {in_path!r}")
                found += 1
        return found

    def version_problems(self, path: str, version: str) -> int:
        if version == self.version:
            return 0
        self.problem(
            path,
            f"benchmark_version is {version!r} but this run is configured for {self.version!r}",
        )
        return 1

    def check_scorings(self) -> None:
        by_run = defaultdict(list)
        for scoring in self.scorings:
            by_run[(scoring["subject_id"], scoring["case_id"], scoring["run_id"])].append(scoring)
        kept = []
        for key, scorings in sorted(by_run.items()):
            if len(scorings) > 1:
                paths = sorted(scoring["path"] for scoring in scorings)
                for path in paths:
                    others = ", ".join(other for other in paths if other != path)
                    self.problem(
                        path,
                        f"{len(paths)} scorings for the same (case, subject, run) "
                        f"{key[1]}/{key[0]}/{key[2]}; v1.0 allows one and never "
                        f"averages (also: {others})",
                    )
                continue
            scoring = scorings[0]
            response = self.responses.get(key)
            if response is None:
                response_path = f"{responses_dir(self.version)}/{key[0]}/{key[1]}__{key[2]}.json"
                if not (self.corpus / response_path).is_file():
                    self.problem(scoring["path"], f"its response {response_path} does not exist")
                # An existing but invalid response is reported on its own.
                continue
            if response["subject_version"] != scoring["subject_version"]:
                self.problem(
                    scoring["path"],
                    f"response_ref.subject_version is {scoring['subject_version']!r} "
                    f"but its response {response['path']} has "
                    f"{response['subject_version']!r}",
                )
                continue
            scoring["confidence"] = response["confidence"]
            kept.append(scoring)
        self.scorings = kept

    def result(self, partition: str) -> dict:
        digest = hashlib.sha256("".join(sorted(self.file_digests)).encode("utf-8"))
        responses = [
            [subject_id, response["subject_version"], case_id, run_id, response["track"]]
            for (subject_id, case_id, run_id), response in sorted(self.responses.items())
        ]
        return {
            "partition": partition,
            "n_files": len(self.file_digests),
            "digest": digest.hexdigest(),
            "problems": sorted(self.problems, key=lambda p: (p["path"], p["message"])),
            "responses": responses,
            "scored_runs": sorted(
                self.scorings,
                key=lambda s: (s["subject_id"], s["case_id"], s["run_id"], s["reviewer_id"]),
            ),
        }


def main(smk) -> None:
    log = step_logger("load_partition", smk.log[0])
    entries = read_manifest(smk.input.manifest)
    loader = PartitionLoader(
        Path(smk.params.corpus),
        smk.params.benchmark_version,
        smk.input.response_schema,
        smk.input.scoring_schema,
        log,
    )
    loader.load(entries)
    result = loader.result(smk.wildcards.partition)
    write_json(smk.output[0], result)
    log.info(
        "partition %s: %d files, %d responses, %d scored runs, %d problems",
        smk.wildcards.partition,
        result["n_files"],
        len(result["responses"]),
        len(result["scored_runs"]),
        len(result["problems"]),
    )


if __name__ == "__main__":
    main(snakemake)  # noqa: F821 - injected by Snakemake's script directive
