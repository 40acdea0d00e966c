"""A fork server ("zygote") for the scripts the tests run once per DAG; tests/py/dag_pool.py
is its client.

Why: run_dag.py imports the `kubernetes` client package, jinja2 and the stand-ins in about
0.8 s of CPU, then evaluates a DAG in 70 ms (golden gpu_finetune; mostly Jinja compiling its
templates) to 400 ms (runtime_values; its yaml.safe_load), and the tests run hundreds of DAGs:
test_airflow_claims spent 72 of its 74 s on 106 such subprocesses. Served, its CPU time went
from 49 s to 10 s, test_airflow's from 41 s to 9 s, test_parity's from 39 s to 8 s (user+sys, on
a busy 2-core machine). A server does the imports once, and each run is a fork of that pristine
post-import process, so it is as isolated as a process of its own: module globals (_stub.DAGS,
run_dag.ENV.filters, the installed kubernetes models, ...) start clean in every child, as the
server itself runs nothing but its script's imports. A run sees the server's environment,
which is why the client keeps one server per script and environment (the stand-in reads
FLOWC_STUB_AIRFLOW and FLOWC_STUB_K8S_CLIENT at import time).

A script serves when started with `--serve` as its only argument: its `__main__` block
calls serve() before its own code and exit_served_run() after it (run_dag.py's is the
pattern). serve() returns only in each child, with sys.argv set to the request's command line,
so the child goes on to run the script's own code, with the exit status, traceback and exit
handling of a standalone run.

Protocol: each request is a JSON line on the server's stdin, {"args": [the command line after
the script's name], "cwd": the folder to run in}; the reply, on its stdout, a JSON line
{"returncode": N, "stdout": BYTES, "stderr": BYTES} (returncode as subprocess gives it,
-SIGNAL for a signal), then that many bytes of the run's stdout, then of its stderr. The
server exits at the end of its stdin.
"""
import atexit
import json
import os
import sys
import tempfile


def serve():
    """Serves requests until the end of stdin, then exits. Returns only in a child: its stdin
    is /dev/null, its stdout and stderr are files the server replies with, its sys.argv and
    folder those of the request."""
    devnull = os.open(os.devnull, os.O_RDONLY)
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            sys.exit(0)
        request = json.loads(line)
        out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        sys.stdout.flush()  # nothing buffered for the child to inherit and write again
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            os.dup2(devnull, 0)  # the client's requests are the server's alone
            os.dup2(out.fileno(), 1)
            os.dup2(err.fileno(), 2)
            os.close(devnull)
            out.close()
            err.close()
            os.chdir(request["cwd"])
            sys.argv[1:] = request["args"]
            return
        _, status = os.waitpid(pid, 0)
        captured = []
        for f in (out, err):
            f.seek(0)
            captured.append(f.read())
            f.close()
        header = {"returncode": os.waitstatus_to_exitcode(status),
                  "stdout": len(captured[0]), "stderr": len(captured[1])}
        sys.stdout.buffer.write(json.dumps(header).encode() + b"\n" + b"".join(captured))
        sys.stdout.buffer.flush()


def exit_served_run():
    """Ends a child whose run returned as the interpreter would (exit handlers run, stdout and
    stderr flushed, status 0), but without first tearing down every module: that touches, and
    so copies, nearly every page the child shares with its server, some 25 ms of CPU a run.
    A run that raises (SystemExit included) exits the interpreter's usual way."""
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
