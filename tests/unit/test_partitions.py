"""How the corpus is split into partitions: the count `auto` chooses, each partition's
listing and its digest (what reruns its jobs), and the inputs digest that does not
depend on the partitions."""

import hashlib
from types import SimpleNamespace

import pytest

from ro_metrics.contracts.records import InputDigest
from ro_metrics.corpus.cross_check import digests_of_groups
from ro_metrics.corpus.layout import (
    auto_partitions,
    partition_entries,
    partition_of,
    scan_corpus,
)


@pytest.mark.parametrize(
    ("n_files", "expected"),
    [
        (0, 1),
        (726, 1),  # the benchmark's real size (12 × 31 × 1: 372 responses, 354 scorings)
        (4_000, 1),
        (4_001, 2),
        (8_000, 2),
        (8_001, 4),
        (16_001, 8),
        (29_551, 8),  # size M
        (175_801, 8),  # size L
        (10_000_000, 8),
    ],
)
def test_auto_partitions_one_per_4000_files_as_a_power_of_two_up_to_8(n_files, expected):
    assert auto_partitions(n_files) == expected


def make_corpus(root, subjects: dict[str, int]):
    """`subjects`: name → number of responses (each scored once)."""
    for name, count in subjects.items():
        for kind in ("responses", "scoring"):
            folder = root / kind / "v1.0" / name
            folder.mkdir(parents=True, exist_ok=True)
            for index in range(count):
                (folder / f"RO-NOWE-{index:03d}__run-1.json").write_text("{}")


def test_each_partition_lists_its_subjects_files_and_reruns_when_one_changes(tmp_path):
    corpus = tmp_path / "corpus"
    make_corpus(corpus, {"atlas-7b": 3, "fjord-13b": 2, "zephyr-2b": 1})
    files = sorted(path.relative_to(corpus).as_posix() for path in corpus.rglob("*.json"))

    scan = scan_corpus(corpus, "v1.0", 8)
    assert scan.n_partitions == 8
    assert sorted(scan.partitions) == ["0", "1", "2", "3", "4", "5", "6", "7"]
    # Every file in the listing of its subject's partition, sorted.
    for pid in scan.partitions:
        listed = [entry.path for entry in partition_entries(corpus, "v1.0", pid, 8)]
        assert listed == [path for path in files if partition_of(path.split("/")[2], 8) == pid]

    # auto: 12 files, one partition holding every entry, sorted.
    scan = scan_corpus(corpus, "v1.0", "auto")
    assert scan.n_partitions == 1
    paths = [entry.path for entry in partition_entries(corpus, "v1.0", "0", 1)]
    assert paths == files

    # A changed file changes its partition's digest only.
    before = scan_corpus(corpus, "v1.0", 8)
    fjord = partition_of("fjord-13b", 8)
    (corpus / "scoring/v1.0/fjord-13b/RO-NOWE-000__run-1.json").write_text('{"x": 1}')
    after = scan_corpus(corpus, "v1.0", 8)
    assert {
        pid for pid in before.partitions if before.partitions[pid] != after.partitions[pid]
    } == {fjord}
    assert (before.golds, before.layout, before.telemetry) == (
        after.golds,
        after.layout,
        after.telemetry,
    )
    # A new response changes which responses exist (the operational step's digest) too.
    (corpus / "responses/v1.0/fjord-13b/RO-NOWE-009__run-1.json").write_text("{}")
    assert scan_corpus(corpus, "v1.0", 8).responses != after.responses


def test_inputs_digest_groups_do_not_depend_on_the_load_partitions():
    atlas = InputDigest("responses/v1.0/atlas-7b/RO-NOWE-001__run-1.json", "ab")
    fjord = InputDigest("scoring/v1.0/fjord-13b/RO-NOWE-001__run-1__eval-R01.json", "cd")
    zephyr = InputDigest("responses/v1.0/zephyr-2b/RO-NOWE-002__run-1.json", "ef")
    empty = hashlib.sha256(b"").hexdigest()
    # CRC-32 mod 8: atlas-7b and zephyr-2b in group 1, fjord-13b in group 0.
    expected = [empty] * 8
    expected[0] = hashlib.sha256(f"{fjord.path}\tcd\n".encode()).hexdigest()
    expected[1] = hashlib.sha256(f"{atlas.path}\tab\n{zephyr.path}\tef\n".encode()).hexdigest()
    one_partition = [SimpleNamespace(file_digests=[atlas, zephyr, fjord])]
    three_partitions = [SimpleNamespace(file_digests=[z]) for z in (zephyr, fjord, atlas)]
    assert digests_of_groups(one_partition) == expected
    assert digests_of_groups(three_partitions) == expected


@pytest.mark.parametrize(
    ("folder", "n_partitions", "expected"),
    [
        # zlib.crc32(b"atlas-7b") = 3,229,900,841 = 8 · 403,737,605 + 1
        # = 16 · 201,868,802 + 9 = 100 · 32,299,008 + 41; ids padded to the width of
        # the largest (n - 1).
        ("atlas-7b", 1, "0"),
        ("atlas-7b", 2, "1"),
        ("atlas-7b", 8, "1"),
        ("atlas-7b", 10, "1"),
        ("atlas-7b", 16, "09"),
        ("atlas-7b", 100, "41"),
    ],
)
def test_partition_of_is_the_crc_remainder_written_as_partition_ids_writes_it(
    folder, n_partitions, expected
):
    assert partition_of(folder, n_partitions) == expected
