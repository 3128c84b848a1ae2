"""The published CSV format: the fast path of tables.csv_bytes writes exactly what
csv.writer writes (quoting only where a cell needs it), whatever the cells."""

import csv
import io

import pytest

from ro_metrics.contracts.tables import csv_bytes


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
