"""Runs the tests' DAG scripts in fork servers rather than in a fresh interpreter each.

run(script, args, env) gives what subprocess.run([PYTHON, script, *args], capture_output=True,
text=True, env=env) would, for a script that serves its runs when started with `--serve`
(airflow_stub/run_dag.py, pod_readers.py airflow-spelled, test_airflow_claims.py --version):
airflow_stub/fork_server.py says why (the kubernetes package's import, once per server
rather than once per run) and how. One server per script and environment (the stand-in reads
FLOWC_STUB_* at import time, and a run sees its server's environment), started on first use
and kept; all are stopped (stdin closed, then reaped) when this process exits. A run's folder
is the caller's at the time of the call.
"""
import atexit
import json
import locale
import os
import subprocess
import sys
import tempfile

PYTHON = "/usr/bin/python3"
# A server holds some 55 MB; test_airflow_claims goes through 8 environments one after the
# other, so the least recently used is stopped beyond this many.
MAX_SERVERS = 4
_servers = {}  # (script, environment items) -> Popen, the most recently used last


def run(script, args, env=None):
    """subprocess.run([PYTHON, script, *args], capture_output=True, text=True, env=env),
    through the script's server: a CompletedProcess. Should the server die, the run fails
    with the server's status and stderr (a new server serves the next run)."""
    env = dict(os.environ if env is None else env)
    key = (script, tuple(sorted(env.items())))
    server = _servers.pop(key, None)
    if server is None:
        if len(_servers) >= MAX_SERVERS:
            oldest = next(iter(_servers))
            _close(_servers.pop(oldest))
        server = _start(script, env)
    _servers[key] = server
    command = [PYTHON, script, *args]
    request = json.dumps({"args": list(args), "cwd": os.getcwd()}) + "\n"
    try:
        server.stdin.write(request.encode())
        server.stdin.flush()
        header = server.stdout.readline()
        reply = json.loads(header) if header else None
        if reply is not None:
            out = _read(server.stdout, reply["stdout"])
            err = _read(server.stdout, reply["stderr"])
    except (BrokenPipeError, EOFError, ValueError):  # ValueError: a header cut short
        reply = None
    if reply is None:
        del _servers[key]
        return subprocess.CompletedProcess(command, *_died(server))
    return subprocess.CompletedProcess(command, reply["returncode"], _text(out), _text(err))


def _start(script, env):
    # The server's own stderr (its traceback, should it fail) goes to a file read when it
    # dies: a pipe nobody reads could fill up and block it.
    log = tempfile.TemporaryFile()
    server = subprocess.Popen([PYTHON, script, "--serve"], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=log, env=env)
    server.log = log
    return server


def _read(stream, size):
    data = stream.read(size)
    if len(data) != size:
        raise EOFError
    return data


def _text(data):
    """Bytes as subprocess.run(text=True) decodes them (Popen._translate_newlines)."""
    encoding = "utf-8" if sys.flags.utf8_mode else locale.getencoding()
    return data.decode(encoding).replace("\r\n", "\n").replace("\r", "\n")


def _died(server):
    """(returncode, stdout, stderr) for a run its server did not answer."""
    returncode = _stop(server)
    server.log.seek(0)
    log = server.log.read().decode(errors="replace")
    server.log.close()
    return (returncode or 1, "",
            f"the fork server `{' '.join(server.args)}` died (status {returncode}) "
            f"before answering; its stderr:\n{log}")


def _stop(server):
    """Closes the server's stdin, which ends it, and reaps it; its exit status."""
    for stream in (server.stdin, server.stdout):
        try:
            stream.close()
        except OSError:  # a request it never read
            pass
    try:
        return server.wait(timeout=30)
    except subprocess.TimeoutExpired:  # busy with a run that does not end
        server.kill()
        return server.wait()


def _close(server):
    _stop(server)
    server.log.close()


@atexit.register
def _stop_all():
    while _servers:
        _close(_servers.popitem()[1])
