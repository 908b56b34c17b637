"""The demo's port is chosen as the README says: ``scripts/demo --port 8001`` (or ``PORT=8001``)
serves on that port with links and QR codes pointing there; a port that is no port is refused
before anything is set up.

``scripts/demo`` runs in a copy of the project whose ``scripts/setup`` and ``.venv/bin/python`` are
stand-ins recording what they are asked, so nothing is installed, migrated or served."""

import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FAKE_PYTHON = """#!/usr/bin/env bash
echo "python $* PUBLIC_URL=$PUBLIC_URL" >> "$(dirname "$0")/../../calls.log"
"""


def fake_project(tmp_path: Path) -> Path:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "demo", tmp_path / "scripts" / "demo")
    (tmp_path / "scripts" / "setup").write_text("#!/usr/bin/env bash\necho setup >> calls.log\n")
    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    (tmp_path / ".venv" / "bin" / "python").write_text(FAKE_PYTHON)
    for script in ("scripts/demo", "scripts/setup", ".venv/bin/python"):
        (tmp_path / script).chmod(0o755)
    return tmp_path


def run(project: Path, command: str, **env):
    environment = {k: v for k, v in os.environ.items() if k not in ("PORT", "PUBLIC_URL", "DATABASE_URL", "DATA_DIR")}
    return subprocess.run(["bash", "-c", command], cwd=project, env={**environment, **env}, capture_output=True, text=True, timeout=60)


def calls(project: Path) -> str:
    log = project / "calls.log"
    return log.read_text() if log.exists() else ""


def readme_port_command() -> str:
    """The command the README gives for another port."""
    readme = (ROOT / "README.md").read_text()
    found = re.search(r"`(scripts/demo --port \d+)`", readme)
    assert found, "the README says how to choose the demo's port"
    return found.group(1)


def test_the_readme_command_serves_the_demo_on_that_port(tmp_path):
    project = fake_project(tmp_path)
    command = readme_port_command()
    port = command.rsplit(" ", 1)[1]
    result = run(project, command)
    assert result.returncode == 0, result.stderr
    log = calls(project)
    assert f"runserver 127.0.0.1:{port} PUBLIC_URL=http://127.0.0.1:{port}" in log
    assert f"Serving the demo on http://127.0.0.1:{port}/" in result.stdout


def test_the_port_variable_and_the_default(tmp_path):
    project = fake_project(tmp_path)
    assert run(project, "scripts/demo", PORT="8123").returncode == 0
    assert "runserver 127.0.0.1:8123 PUBLIC_URL=http://127.0.0.1:8123" in calls(project)
    (project / "calls.log").unlink()
    assert run(project, "scripts/demo --port=8124").returncode == 0
    assert "runserver 127.0.0.1:8124" in calls(project)
    (project / "calls.log").unlink()
    assert run(project, "scripts/demo").returncode == 0
    assert "runserver 127.0.0.1:8000 PUBLIC_URL=http://127.0.0.1:8000" in calls(project)


def test_a_port_that_is_no_port_is_refused_before_setting_up(tmp_path):
    project = fake_project(tmp_path)
    for command in ("scripts/demo --port x", "scripts/demo --port 70000", "scripts/demo --port", "scripts/demo --prot 8001"):
        result = run(project, command)
        assert result.returncode == 2, command
        assert result.stderr.strip(), command
    assert calls(project) == ""  # nothing was set up
    assert "--port" in run(project, "scripts/demo --help").stdout
