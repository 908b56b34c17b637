"""``scripts/supervise.py``, which scripts/serve runs: a kept process (the worker) is started again
whenever it ends, with back-off, while the main one (the app server) serves on; the main one's
end ends everything; a failed periodic run (a backup) is reported and the next one still runs; a
SIGTERM stops everything and leaves nothing behind; a kept or periodic process that cannot even be
started (a missing program, no memory, no more processes) is tried again with the same back-off,
while the app server serves on. Each test is bounded to a few seconds."""

import errno
import importlib.util
import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SLEEPER = f"{shlex.quote(sys.executable)} -c 'import time; time.sleep(120)'"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table in /proc")


def children(pid: int) -> dict[int, str]:
    """The running child processes of ``pid``: {pid: command line}."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[1]) == pid and fields[0] != "Z":
            found[int(entry.name)] = cmdline
    return found


def alive(pid: int) -> bool:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return fields[0] != "Z"


def wait_for(condition, seconds=10.0, what="the condition"):
    deadline = time.monotonic() + seconds
    while not (result := condition()):
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
    return result


@pytest.fixture
def supervise(tmp_path):
    """``supervise(*args)``: start the supervisor with ``args``; its stderr is in ``.log``."""
    started = []

    def start(*args):
        log = tmp_path / "supervise.log"
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "scripts" / "supervise.py"), *args],
            stderr=log.open("w"), start_new_session=True,
        )
        process.log = log
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def kept(process, marker="kept") -> int:
    return wait_for(lambda: next((p for p, cmd in children(process.pid).items() if marker in cmd), None), what=marker)


def test_a_killed_kept_process_is_started_again_while_the_main_one_serves_on(supervise):
    server = supervise("--main", SLEEPER, "--keep", f"worker={SLEEPER} kept")
    main = wait_for(lambda: next((p for p, c in children(server.pid).items() if "kept" not in c), None), what="main")
    first = kept(server)
    os.kill(first, signal.SIGKILL)
    second = wait_for(lambda: next((p for p in children(server.pid) if p not in (first, main)), None), 5, "a restart")
    assert alive(main) and server.poll() is None
    assert "the worker ended (killed by SIGKILL); starting it again in 1 s" in server.log.read_text()

    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=10) == 0
    assert not alive(main) and not alive(second)  # nothing left behind


def test_a_kept_process_ending_at_once_waits_longer_each_time(supervise):
    server = supervise("--main", SLEEPER, "--keep", "crashing=false")
    wait_for(lambda: "again in 2 s" in server.log.read_text(), 5, "the second restart")
    assert server.poll() is None
    log = server.log.read_text()
    assert log.index("again in 1 s") < log.index("again in 2 s") and "again in 4 s" not in log


def test_the_main_process_ending_ends_everything_with_its_status(supervise):
    server = supervise("--main", f"{shlex.quote(sys.executable)} -c 'import time, sys; time.sleep(1); sys.exit(3)'",
                       "--keep", f"worker={SLEEPER} kept")
    worker = kept(server)
    assert server.wait(timeout=10) == 3
    assert not alive(worker)
    assert "the app server ended (exit status 3); stopping the rest" in server.log.read_text()


def test_a_failed_periodic_run_is_reported_and_the_next_one_runs(supervise, tmp_path):
    runs = tmp_path / "runs"
    server = supervise("--main", SLEEPER, "--every", f"backup run=0.3=sh -c 'echo run >> {runs}; exit 2'")
    wait_for(lambda: runs.exists() and len(runs.read_text().split()) >= 3, 5, "three runs")
    assert server.poll() is None
    assert "the backup run failed (exit status 2); the next run is in 0.3 s" in server.log.read_text()
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=10) == 0


def test_a_kept_or_periodic_program_that_cannot_be_started_is_tried_again_while_the_main_one_serves_on(supervise):
    # Popen raises (here: no such file) when the kept process is started and every time again.
    server = supervise("--main", SLEEPER, "--keep", "worker=/nonexistent/run_worker", "--every", "backup run=0.3=/nonexistent/backup")
    wait_for(lambda: "the worker could not be started" in (log := server.log.read_text()) and "trying again in 2 s" in log
             and log.count("the backup run could not be started") >= 2, 8, "two tries of each")
    log = server.log.read_text()
    assert "the worker could not be started ([Errno 2] No such file or directory: '/nonexistent/run_worker'); trying again in 1 s" in log
    assert log.index("trying again in 1 s") < log.index("trying again in 2 s")
    assert "the backup run could not be started ([Errno 2] No such file or directory: '/nonexistent/backup'); the next run is in 0.3 s" in log
    main = next(iter(children(server.pid)))
    assert server.poll() is None and alive(main)  # the app server serves on
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=10) == 0 and not alive(main)


def load_supervise(monkeypatch):
    """scripts/supervise.py as a module (it is a script, not in a package)."""
    spec = importlib.util.spec_from_file_location("supervise_under_test", ROOT / "scripts" / "supervise.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_a_kept_process_refused_by_the_system_is_started_once_it_can_be(monkeypatch, capsys):
    # No more processes (EAGAIN) twice, then the fork works: the worker runs, the main one never stopped.
    module = load_supervise(monkeypatch)
    real_popen = module.subprocess.Popen
    refusals = [OSError(errno.EAGAIN, os.strerror(errno.EAGAIN)), OSError(errno.ENOMEM, os.strerror(errno.ENOMEM))]

    def popen(argv, **kwargs):
        if "kept" in argv and refusals:
            raise refusals.pop(0)
        return real_popen(argv, **kwargs)

    monkeypatch.setattr(module.subprocess, "Popen", popen)
    main = module.Child("app server", [sys.executable, "-c", "import time; time.sleep(1.5)"], "main")
    worker = module.Child("worker", [*shlex.split(SLEEPER), "kept"], "keep", delay=0.1)
    supervisor = module.Supervisor([main, worker])
    previous = signal.getsignal(signal.SIGTERM), signal.getsignal(signal.SIGINT)
    try:
        assert supervisor.run() == 0  # the main one's own status, after its 1.5 s
    finally:
        signal.signal(signal.SIGTERM, previous[0])
        signal.signal(signal.SIGINT, previous[1])
    log = capsys.readouterr().err
    assert f"the worker could not be started ([Errno {errno.EAGAIN}] {os.strerror(errno.EAGAIN)}); trying again in 0.1 s" in log
    assert f"the worker could not be started ([Errno {errno.ENOMEM}] {os.strerror(errno.ENOMEM)}); trying again in 0.2 s" in log
    assert worker.starts == 1 and "the worker started" in log and main.starts == 1
    assert "the app server ended (exit status 0); stopping the rest" in log
    assert worker.process.poll() is not None  # stopped with the rest


def test_the_main_program_failing_to_start_ends_the_supervisor(supervise):
    server = supervise("--main", "/nonexistent/gunicorn", "--keep", f"worker={SLEEPER} kept")
    assert server.wait(timeout=10) == 127
    log = server.log.read_text()
    assert "the app server could not be started ([Errno 2] No such file or directory: '/nonexistent/gunicorn'); stopping the rest" in log
    assert "the worker started" not in log


def test_a_bad_command_line_is_refused():
    refused = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "supervise.py"), "--main", "true", "--every", "backup=soon=true"],
        capture_output=True, text=True, timeout=30,
    )
    assert refused.returncode == 2 and "NAME=SECONDS=COMMAND" in refused.stderr
