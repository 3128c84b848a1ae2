"""A Snakemake with its imports done, that the tests' runs are forked from.

`workflow_runs.run_workflow` starts one per test process: `python -P snakemake_server.py FD`,
FD one end of a Unix socket pair (-P: this folder stays off sys.path, which is then the
interpreter's, as in the `snakemake` console script). Snakemake's command line spends
~1 s of its ~1.3 s start importing (snakemake.cli, then what its main() imports: the
report plugin's numpy, PIL and docutils, jsonschema, nbformat, ...); the suite starts
it ~150 times. This process imports all of that once. For each request (a JSON line:
argv, cwd, env; with it, over SCM_RIGHTS, the two file descriptors for the run's stdout
and stderr) it forks; the child is then what `snakemake` on the command line is after
its imports: same interpreter, same sys.path, a fresh process with the request's cwd,
environment, argv and standard streams, running `snakemake.cli.main()` to its exit
status. The server answers with the child's pid (a test may kill it), then its exit status.

Never imported here: the workflow's own modules (ro_metrics and the scripts). Each test
runs a copy of the workflow, whose modules must come from that copy; so this file
imports nothing of the repository and is not imported by the tests.

A run whose Snakemake must find other plugins (PYTHONPATH) is not forked from here:
Snakemake collects its plugins when snakemake.cli is imported.

The rules' jobs are not forked: each is `python <script>` as on the command line, so a
job's imports and its hash seed are its own. The forked runs share this process's hash
seed; `tests/workflow/test_command_line.py` runs the workflow from the command line
under two seeds, and RO_TESTS_COMMAND_LINE=1 runs every workflow test that way
(workflow_runs.run_workflow).
"""

import contextlib
import importlib
import json
import os
import signal
import socket
import sys

import snakemake.cli
import snakemake.workflow

# What snakemake.cli.main() imports on a run of this workflow (listed with
# `python -X importtime`; a name missing here costs its import in each run, no more).
PREIMPORTED = [
    "numpy",
    # Snakemake imports it to record and store a job's params when it is installed.
    "pandas",
    "PIL.Image",
    "docutils.core",
    "requests",
    "jinja2",
    "yaml",
    "smart_open",
    "pygments",
    "yte",
    "platformdirs",
    "dpath",
    "nbformat",
    "jsonschema",
    "fastjsonschema",
    "snakemake.assets",
    "snakemake.profiles",
    "snakemake.report.html_reporter",
    "snakemake.script",
    "snakemake.storage",
    "snakemake.utils",
]
for name in PREIMPORTED:
    with contextlib.suppress(ImportError):
        importlib.import_module(name)

MAX_REQUEST = 1 << 20


def exit_status(run) -> int:
    """Run a callable as a process's main code would: its exit status."""
    try:
        run()
        return 0
    except SystemExit as stop:
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        return 1


def become(request: dict, streams: list[int]) -> None:
    """Take the request's standard streams, cwd, environment and argv."""
    for target, fd in enumerate(streams):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = request["argv"]


def run_child(request: dict, stdout: int, stderr: int) -> None:
    """In the forked child: become `snakemake <argv>` in cwd; SystemExit with its status,
    which ends the child as it ends the command line (exit functions, streams flushed)."""
    become(request, [os.open(os.devnull, os.O_RDONLY), stdout, stderr])
    # Snakemake takes its run directory from the cwd when snakemake.workflow is imported,
    # which happened in the server; no public setting gives it later
    # (tests/unit/test_snakemake_internals.py checks the attribute on this Snakemake).
    snakemake.workflow.Workflow._rundir = os.getcwd()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    sys.exit(exit_status(snakemake.cli.main))


def serve(connection: socket.socket) -> None:
    """Requests and answers are packets of a SOCK_SEQPACKET pair: one message each."""
    while True:
        message, fds, _, _ = socket.recv_fds(connection, MAX_REQUEST, 2)
        if not message:
            return
        request = json.loads(message)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            connection.close()
            run_child(request, *fds)
        for fd in fds:
            os.close(fd)
        connection.send(json.dumps({"pid": pid}).encode())
        _, status = os.waitpid(pid, 0)
        connection.send(json.dumps({"returncode": os.waitstatus_to_exitcode(status)}).encode())


if __name__ == "__main__":
    serve(socket.socket(fileno=int(sys.argv[1])))
