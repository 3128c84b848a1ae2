"""ro_metrics.contracts.files.forked: the publish job's second process."""

import os

import pytest

from ro_metrics.contracts.files import forked


def _pid_and_square(value: int) -> tuple[int, int]:
    return os.getpid(), value * value


class _Refused(Exception):
    pass


def _refuse(message: str):
    raise _Refused(message)


def test_the_result_comes_back_from_another_process():
    result = forked(_pid_and_square, 12)
    pid, square = result()
    assert square == 144
    assert pid != os.getpid()


def test_what_the_forked_process_raised_is_raised_by_the_waiting_one():
    result = forked(_refuse, "the snapshot cannot be read")
    with pytest.raises(_Refused, match=r"^the snapshot cannot be read$"):
        result()


def test_a_forked_process_that_exits_is_reported_as_its_exit():
    result = forked(os._exit, 3)  # no result: the process ended without one
    with pytest.raises(RuntimeError, match="ended without a result"):
        result()


def test_a_sys_exit_in_the_forked_process_reaches_the_waiting_one():
    result = forked(_exit_with, 2)
    with pytest.raises(SystemExit) as stopped:
        result()
    assert stopped.value.code == 2


def _exit_with(code: int):
    raise SystemExit(code)
