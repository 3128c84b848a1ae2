"""The published CSV format: the fast path of tables.csv_bytes writes exactly what
csv.writer writes (quoting only where a cell needs it), whatever the cells; a table
assembled from its partitions' fragments (tables.assembled_bytes) is what write_csv
writes of the rows in subject order, whether its lines are joined or its rows parsed."""

import csv
import io

import pytest

from ro_metrics.contracts.tables import PublishedTableError, assembled_bytes, csv_bytes, write_csv


@pytest.mark.parametrize(
    "rows",
    [
        [["a", 1, 2.5, True]],
        [["a,b", 1, 0.1, False]],
        [['say "x"', 1, 1.0, True]],
        [["two\nlines", 1, 1e-05, True]],
        [["cr\rhere", 2, 3.0, False]],
        [["", 0, 0.0, False], ["x", -1, -2.5, True]],
        [],
    ],
)
def test_csv_bytes_is_what_csv_writer_writes(rows):
    header = ["name", "n", "value", "flag"]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n", quoting=csv.QUOTE_MINIMAL)
    writer.writerow(header)
    writer.writerows(rows)
    assert csv_bytes(header, rows) == buffer.getvalue().encode("utf-8")


# Two partitions' fragments: partition 0 holds subjects "b" and "d", partition 1 "a" and
# "c"; each fragment's rows in their own order (here not sorted within a subject).
FRAGMENTS = [
    [["b", "2", "x"], ["b", "1", "y"], ["d", "1", "z"]],
    [["a", "9", "w"], ["c", "1", "v"], ["c", "0", "u"]],
]
# The published table: subjects in order, each subject's rows in its fragment's order.
EXPECTED = [
    ["a", "9", "w"],
    ["b", "2", "x"],
    ["b", "1", "y"],
    ["c", "1", "v"],
    ["c", "0", "u"],
    ["d", "1", "z"],
]
HEADER = ["subject_id", "n", "text"]


def fragments(tmp_path, parts):
    paths = []
    for index, rows in enumerate(parts):
        path = tmp_path / f"fragment-{index}.csv"
        write_csv(path, HEADER, rows)
        paths.append(path)
    return paths


def test_fragments_without_quotes_are_joined_by_subject(tmp_path):
    paths = fragments(tmp_path, [*FRAGMENTS, []])
    assert assembled_bytes(paths, HEADER) == (
        b"subject_id,n,text\r\na,9,w\r\nb,2,x\r\nb,1,y\r\nc,1,v\r\nc,0,u\r\nd,1,z\r\n"
    )


def test_a_quoted_cell_gives_the_same_table_by_parsing(tmp_path):
    quoted = [[row[0], row[1], 'a "b", c\nd' if row[2] == "y" else row[2]] for row in FRAGMENTS[0]]
    expected = [[row[0], row[1], 'a "b", c\nd' if row[2] == "y" else row[2]] for row in EXPECTED]
    paths = fragments(tmp_path, [quoted, FRAGMENTS[1]])
    assert assembled_bytes(paths, HEADER) == csv_bytes(HEADER, expected)
    assert b'"a ""b"", c\nd"' in assembled_bytes(paths, HEADER)


def test_only_headers_give_the_header(tmp_path):
    assert assembled_bytes(fragments(tmp_path, [[], []]), HEADER) == b"subject_id,n,text\r\n"


def test_a_fragment_with_another_header_is_refused(tmp_path):
    paths = fragments(tmp_path, FRAGMENTS)
    write_csv(paths[1], ["subject_id", "n", "other"], FRAGMENTS[1])
    with pytest.raises(PublishedTableError, match=r"fragment-1\.csv: header"):
        assembled_bytes(paths, HEADER)
