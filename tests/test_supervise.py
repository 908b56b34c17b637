"""``scripts/supervise.py``, which scripts/serve runs: a kept process (the worker) is started again
whenever it ends, with back-off, while the main one (the app server) serves on; the main one's
end ends everything; a failed periodic run (a backup) is reported and the next one still runs; a
SIGTERM stops everything and leaves nothing behind. Each test is bounded to a few seconds."""

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


def test_a_bad_command_line_is_refused():
    refused = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "supervise.py"), "--main", "true", "--every", "backup=soon=true"],
        capture_output=True, text=True, timeout=30,
    )
    assert refused.returncode == 2 and "NAME=SECONDS=COMMAND" in refused.stderr
