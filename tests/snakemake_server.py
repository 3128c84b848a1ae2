"""A Snakemake with its imports done, that the tests' runs are forked from.

`support.run_workflow` starts one per test process: `python -P snakemake_server.py FD`,
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

The jobs of a forked run are forked too. A rule's script is a process of its own,
`python <script>` (Snakemake's `sys.executable`, through the shell): ~0.2 s of imports
before its first line (the script preamble's unpickling imports snakemake.io and
snakemake.logging; then pandas for the changes report), ~10 jobs a run. So this
server also forks a job server, which listens on a Unix socket and forks a child for
each job; the forked Snakemake's `sys.executable` is a small launcher (JOB_LAUNCHER)
that hands the job's argv, cwd, environment and standard streams to it, forwards
SIGTERM, SIGINT and SIGHUP, and exits with the job's status (anything but a script, such as
a cluster executor's `python -m snakemake`, it hands to the interpreter itself). The
child is what `python <script>` is after its imports: the script run as __main__ with
its argv, its exit status that of SystemExit or 1 on an uncaught exception (with its
traceback on stderr). Runs started from the command line (killed runs, plugin runs,
the bench, verify's nested run) start their jobs the plain way.
"""

import atexit
import contextlib
import importlib
import json
import os
import runpy
import select
import shutil
import signal
import socket
import sys
import tempfile

import snakemake.cli
import snakemake.workflow

# What snakemake.cli.main() imports on a run of this workflow (listed with
# `python -X importtime`; a name missing here costs its import in each run, no more).
PREIMPORTED = [
    "numpy",
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
# What the rules' scripts import before their first line or on their way: the script
# preamble (snakemake.io, snakemake.iocontainers, snakemake.logging), then the
# library's third-party imports (pandas for the changes report). Imported by the job
# server only.
JOB_PREIMPORTED = [
    "snakemake.io",
    "snakemake.iocontainers",
    "snakemake.logging",
    "snakemake.shell",
    "pandas",
    "difflib",
    "unicodedata",
]
for name in PREIMPORTED:
    with contextlib.suppress(ImportError):
        importlib.import_module(name)

MAX_REQUEST = 1 << 20

# `python <script>` as Snakemake runs it, handed to the job server: argv, cwd,
# environment and the standard streams go over the socket; the answer is the job's
# pid, then its exit status (none if it was killed: then 1, as Snakemake sees a failure).
JOB_LAUNCHER = """#!{python} -IS
import json, os, signal, socket, sys
if len(sys.argv) < 2 or sys.argv[1].startswith("-"):
    # Not a script (`python -m snakemake ...` of a cluster executor's job): the
    # interpreter itself.
    os.execv({python!r}, [{python!r}, *sys.argv[1:]])
connection = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
connection.connect({path!r})
request = json.dumps({{"argv": sys.argv, "cwd": os.getcwd(), "env": dict(os.environ)}})
socket.send_fds(connection, [request.encode()], [0, 1, 2])
pid = json.loads(connection.recv(4096))["pid"]
for name in ("SIGTERM", "SIGINT", "SIGHUP"):
    signal.signal(getattr(signal, name), lambda number, frame: os.kill(pid, number))
answer = connection.recv(4096)
sys.exit(json.loads(answer)["returncode"] if answer else 1)
"""


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


def finish(code: int, tell=None) -> None:
    """End a forked child as the process would end: its exit functions, its streams
    flushed, then `tell(code)` if given (the job's answer to its launcher)."""
    try:
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
        if tell is not None:
            tell(code)
    finally:
        os._exit(code)


def become(request: dict, streams: list[int]) -> None:
    """Take the request's standard streams, cwd, environment and argv."""
    for target, fd in enumerate(streams):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = request["argv"]


def run_job(connection: socket.socket) -> None:
    """In the job server's child: become `python <script>`, tell the launcher its pid
    and then its exit status, and exit with it."""
    message, fds, _, _ = socket.recv_fds(connection, MAX_REQUEST, 3)
    request = json.loads(message)
    become(request, fds)
    script = request["argv"][1]
    # The one difference from `python <script>`: the script's own folder
    # (.snakemake/scripts/) is not first on the module path. Nothing is imported from
    # there; the preamble adds the scripts' folder, where the library is.
    sys.argv = request["argv"][1:]
    signal.signal(signal.SIGINT, signal.default_int_handler)
    connection.send(json.dumps({"pid": os.getpid()}).encode())
    code = exit_status(lambda: runpy.run_path(script, run_name="__main__"))
    finish(code, lambda code: connection.send(json.dumps({"returncode": code}).encode()))


def serve_jobs(listener: socket.socket, parent_gone: int) -> None:
    """The job server's loop: a child per connection, until the server's pipe closes."""
    for name in JOB_PREIMPORTED:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children reaped by the kernel
    while True:
        ready, _, _ = select.select([listener, parent_gone], [], [])
        if parent_gone in ready:
            os._exit(0)
        connection, _ = listener.accept()
        if os.fork() == 0:
            listener.close()
            os.close(parent_gone)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            run_job(connection)
        connection.close()


def start_job_server(folder: str) -> str:
    """Fork the job server; the path of its launcher."""
    path = os.path.join(folder, "jobs.socket")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    listener.listen(64)
    parent_gone, keep = os.pipe()
    if os.fork() == 0:
        os.close(keep)
        serve_jobs(listener, parent_gone)
    listener.close()
    os.close(parent_gone)
    launcher = os.path.join(folder, "python")
    with open(launcher, "w", encoding="utf-8") as handle:
        handle.write(JOB_LAUNCHER.format(python=sys.executable, path=path))
    os.chmod(launcher, 0o700)
    return launcher


def run_child(request: dict, stdout: int, stderr: int, launcher: str) -> None:
    """In the forked child: become `snakemake <argv>` in cwd, and exit with its status."""
    become(request, [os.open(os.devnull, os.O_RDONLY), stdout, stderr])
    # Snakemake takes its run directory from the cwd when snakemake.workflow is imported.
    snakemake.workflow.Workflow._rundir = os.getcwd()
    # The interpreter of the rules' scripts: the job server's launcher.
    sys.executable = launcher
    signal.signal(signal.SIGINT, signal.default_int_handler)
    finish(exit_status(snakemake.cli.main))


def serve(connection: socket.socket, launcher: str) -> None:
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
            run_child(request, *fds, launcher)
        for fd in fds:
            os.close(fd)
        connection.send(json.dumps({"pid": pid}).encode())
        _, status = os.waitpid(pid, 0)
        connection.send(json.dumps({"returncode": os.waitstatus_to_exitcode(status)}).encode())


if __name__ == "__main__":
    # Not a TemporaryDirectory: its cleanup runs at exit, and the forked children run
    # the exit functions they inherit.
    folder = tempfile.mkdtemp(prefix="snakemake-server-")
    try:
        serve(socket.socket(fileno=int(sys.argv[1])), start_job_server(folder))
    finally:
        shutil.rmtree(folder, ignore_errors=True)
