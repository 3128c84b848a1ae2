"""decoding.read_whole_file (the read of every corpus file) and write_json's bytes.

read_whole_file is given the size the corpus scan recorded; the file may have changed
since. It must return exactly the file's bytes as they are when it is read, and fail
with the same error as Python's open(path, "rb").read().
"""

import os

import pytest

from ro_metrics.contracts.files import write_json
from ro_metrics.corpus.decoding import read_checked, read_whole_file

CONTENT = b'{"a": [1, 2, 3], "text": "d\xc3\xa9j\xc3\xa0 vu"}\n'


@pytest.mark.parametrize(
    "recorded_size",
    [
        len(CONTENT),  # unchanged since the scan
        0,  # grew from empty
        10,  # grew
        len(CONTENT) - 1,  # grew by one byte: the read of size + 1 bytes is then full
        len(CONTENT) + 1,  # shrank by one byte
        10 * len(CONTENT),  # shrank
    ],
)
def test_every_byte_is_read_whatever_size_the_scan_recorded(tmp_path, recorded_size):
    path = tmp_path / "file.json"
    path.write_bytes(CONTENT)
    assert read_whole_file(path, recorded_size) == CONTENT
    assert read_whole_file(str(path), recorded_size) == CONTENT


def test_an_empty_file_reads_as_no_bytes(tmp_path):
    path = tmp_path / "empty.json"
    path.write_bytes(b"")
    assert read_whole_file(path, 0) == b""
    assert read_whole_file(path, 100) == b""


def test_a_file_larger_than_one_read_chunk_is_read_whole(tmp_path):
    # 3 MiB + 5 bytes: the first read (size 0 + 1) then three reads of 1 MiB and a
    # last one of 4 bytes.
    content = bytes(range(256)) * (3 * 2**12) + b"12345"
    path = tmp_path / "large.json"
    path.write_bytes(content)
    assert len(content) == 3 * 2**20 + 5
    assert read_whole_file(path, 0) == content
    assert read_whole_file(path, len(content)) == content


def _error_of(read, path) -> str:
    with pytest.raises(OSError) as raised:
        read(path)
    return raised.value.strerror


def _buffered_read(path) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def test_the_errors_are_those_of_a_buffered_open(tmp_path):
    (tmp_path / "file.json").write_bytes(CONTENT)
    cases = {
        tmp_path: "Is a directory",
        tmp_path / "missing.json": "No such file or directory",
        tmp_path / "file.json" / "below": "Not a directory",
    }
    for path, strerror in cases.items():
        assert _error_of(lambda p: read_whole_file(p, 0), path) == strerror
        assert _error_of(_buffered_read, path) == strerror


def test_an_unreadable_path_is_a_problem_of_the_guarded_read(tmp_path):
    checked = read_checked(tmp_path, 0, 2**20, lambda raw: raw, schema=None)
    assert checked.problems == ["cannot be read: Is a directory"]
    assert checked.digest == ""
    assert checked.document is None


def test_write_json_writes_the_compact_sorted_text_and_one_newline(tmp_path):
    path = tmp_path / "out.json"
    write_json(path, {"b": [1, (2, 3)], "a": {"d": "é", "c": None}})
    assert path.read_bytes() == '{"a":{"c":null,"d":"é"},"b":[1,[2,3]]}\n'.encode()
    assert not [name for name in os.listdir(tmp_path) if name != "out.json"]
