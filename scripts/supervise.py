"""Run the processes of a server and keep them running, as systemd's ``Restart=`` or supervisord
would: ``scripts/serve`` runs it (``.venv/bin/python scripts/supervise.py ...``). Standard library
only.

    supervise.py --main "CMD"                 the server: when it ends, everything is stopped and
                                              this exits with its status (128 + N for signal N)
                 --keep "NAME=CMD"            started again whenever it ends, whatever the status:
                                              after 1 s, doubling to 60 s while it keeps ending
                                              within a minute of its start, 1 s again once it ran
                                              a minute; the main process serves on meanwhile
                 --every "NAME=SECONDS=CMD"   run that long after the previous run ended (its
                                              output discarded); a failed run is reported, and
                                              the next one runs as planned

A kept or periodic process that cannot even be started (``Popen`` raises ``OSError``: no memory,
no more processes, a missing program) is reported and tried again as if it had ended at once
(the kept one's back-off, the periodic one's next run): the main process serves on. The main
process failing to start stops everything; this then exits 127.

``CMD`` is split as a shell would (``shlex``) and run without a shell. SIGINT or SIGTERM stops
everything: each child is sent SIGTERM and waited for, up to :data:`GRACE` seconds (then SIGKILL); a
second signal sends SIGKILL at once. This then exits 0. The children stay in the supervisor's
process group (a terminal's Ctrl-C reaches them all) and on Linux are sent SIGTERM if the
supervisor itself is killed, so none is left behind. Each start and end is reported on stderr as
``supervise: the worker started (pid 1234)``.
"""

from __future__ import annotations

import argparse
import ctypes
import shlex
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field

FIRST_DELAY = 1.0  # seconds before a kept process is started again
MAX_DELAY = 60.0  # the longest wait before starting it again
STEADY = 60.0  # seconds a kept process must run for its next restart to wait FIRST_DELAY again
GRACE = 30.0  # seconds the children have to end after SIGTERM before they are killed
TICK = 0.1  # seconds between looks at the children


def say(message: str) -> None:
    print(f"supervise: {message}", file=sys.stderr, flush=True)


def _die_with_parent() -> None:  # pragma: no cover - runs in the child between fork and exec
    """Ask Linux to send this child SIGTERM when the supervisor dies (prctl PR_SET_PDEATHSIG)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def describe(status: int) -> str:
    """``Popen.returncode`` in words: "exit status 1", "killed by SIGKILL"."""
    if status < 0:
        try:
            return f"killed by {signal.Signals(-status).name}"
        except ValueError:
            return f"killed by signal {-status}"
    return f"exit status {status}"


@dataclass
class Child:
    """One process the supervisor runs. ``kind``: "main", "keep" or "every"; ``every``: seconds
    between runs (kind "every"); ``next_start``: the ``time.monotonic()`` of its next start."""

    name: str
    argv: list[str]
    kind: str
    every: float = 0.0
    process: subprocess.Popen | None = None
    started: float = 0.0
    next_start: float = 0.0
    delay: float = FIRST_DELAY
    starts: int = field(default=0)

    def start(self, now: float) -> None:
        quiet = self.kind == "every"
        self.process = subprocess.Popen(
            self.argv,
            stdout=subprocess.DEVNULL if quiet else None,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        self.started = now
        self.starts += 1
        say(f"the {self.name} started (pid {self.process.pid})")

    def try_start(self, now: float) -> bool:
        """Start a kept or periodic process; if it cannot be started (``OSError`` from ``Popen``,
        or ``SubprocessError`` from the child before its program ran) report it and plan the next
        try as :meth:`ended` would. Returns whether it started."""
        try:
            self.start(now)
        except (OSError, subprocess.SubprocessError) as error:
            self.process = None
            if self.kind == "keep":
                say(f"the {self.name} could not be started ({error}); trying again in {self.delay:g} s")
                self.back_off(now)
            else:
                say(f"the {self.name} could not be started ({error}); the next run is in {self.every:g} s")
                self.next_start = now + self.every
            return False
        return True

    def back_off(self, now: float) -> None:
        """Plan a kept process's next start after :attr:`delay`, and double the delay after that."""
        self.next_start = now + self.delay
        self.delay = min(self.delay * 2, MAX_DELAY)

    def ended(self, now: float) -> int | None:
        """The exit status if the process ended since the last look (and plan its next start), else None."""
        if self.process is None or (status := self.process.poll()) is None:
            return None
        self.process = None
        if self.kind == "keep":
            if now - self.started >= STEADY:
                self.delay = FIRST_DELAY
            say(f"the {self.name} ended ({describe(status)}); starting it again in {self.delay:g} s")
            self.back_off(now)
        elif self.kind == "every":
            if status != 0:
                say(f"the {self.name} failed ({describe(status)}); the next run is in {self.every:g} s")
            self.next_start = now + self.every
        return status


class Supervisor:
    """Runs ``children`` until the main one ends or a signal asks it to stop (see the module)."""

    def __init__(self, children: list[Child]):
        self.children = children
        self.signals = 0

    def on_signal(self, signum, frame) -> None:
        self.signals += 1
        if self.signals > 1:
            self.send(signal.SIGKILL)

    def send(self, signum: int) -> None:
        for child in self.children:
            if child.process is not None and child.process.poll() is None:
                try:
                    child.process.send_signal(signum)
                except ProcessLookupError:
                    pass

    def run(self) -> int:
        """Start the children and look after them; returns the exit status for this process."""
        signal.signal(signal.SIGTERM, self.on_signal)
        signal.signal(signal.SIGINT, self.on_signal)
        now = time.monotonic()
        for child in self.children:
            if child.kind == "every":
                child.next_start = now + child.every
            elif child.kind == "keep":
                child.try_start(now)
            else:
                try:
                    child.start(now)
                except (OSError, subprocess.SubprocessError) as error:
                    say(f"the {child.name} could not be started ({error}); stopping the rest")
                    self.stop()
                    return 127
        status = 0
        while not self.signals:
            now = time.monotonic()
            main_ended = False
            for child in self.children:
                ended = child.ended(now)
                if ended is not None and child.kind == "main":
                    say(f"the {child.name} ended ({describe(ended)}); stopping the rest")
                    status = ended if ended >= 0 else 128 - ended
                    main_ended = True
                elif child.process is None and child.kind != "main" and now >= child.next_start:
                    child.try_start(now)
            if main_ended:
                break
            time.sleep(TICK)
        self.stop()
        return status

    def stop(self) -> None:
        """SIGTERM to every child still running, SIGKILL to those left after GRACE seconds."""
        self.send(signal.SIGTERM)
        deadline = time.monotonic() + GRACE
        for child in self.children:
            if child.process is None:
                continue
            try:
                child.process.wait(timeout=max(deadline - time.monotonic(), 0))
            except subprocess.TimeoutExpired:
                say(f"the {child.name} did not stop in {GRACE:g} s; killing it")
                child.process.kill()
                child.process.wait()


def parse(argv: list[str]) -> list[Child]:
    """The children named by the command line (see the module); raises SystemExit on a bad one."""
    parser = argparse.ArgumentParser(description="Run a server's processes and keep them running.")
    parser.add_argument("--main", required=True, help="the server's command: its end ends everything")
    parser.add_argument("--main-name", default="app server", help="what to call it in messages")
    parser.add_argument("--keep", action="append", default=[], metavar="NAME=CMD", help="started again whenever it ends")
    parser.add_argument("--every", action="append", default=[], metavar="NAME=SECONDS=CMD", help="run periodically")
    options = parser.parse_args(argv)
    children = [Child(options.main_name, shlex.split(options.main), "main")]
    for spec in options.keep:
        name, sep, command = spec.partition("=")
        if not sep or not name or not command.strip():
            parser.error(f"--keep {spec!r}: expected NAME=COMMAND")
        children.append(Child(name, shlex.split(command), "keep"))
    for spec in options.every:
        name, sep, rest = spec.partition("=")
        seconds, sep2, command = rest.partition("=")
        try:
            every = float(seconds)
        except ValueError:
            every = 0.0
        if not (sep and sep2 and name and command.strip()) or every <= 0:
            parser.error(f"--every {spec!r}: expected NAME=SECONDS=COMMAND with SECONDS above 0")
        children.append(Child(name, shlex.split(command), "every", every=every))
    return children


def main(argv: list[str] | None = None) -> int:
    return Supervisor(parse(sys.argv[1:] if argv is None else argv)).run()


if __name__ == "__main__":
    sys.exit(main())
