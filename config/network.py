"""What the settings need to know about the machine they run on: its address on the venue's
network, its secret key and the release of the code. Plain Python, read once at start."""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
from pathlib import Path

DEFAULT_PORT = 8000


def lan_address() -> str:
    """This machine's address on its local network, e.g. ``"192.168.1.23"``, as phones on the same
    Wi-Fi reach it; ``"127.0.0.1"`` when there is no network.

    A UDP socket is "connected" towards a documentation address (RFC 5737): no packet is sent, the
    kernel only picks the interface and the source address it would use.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))
        return probe.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        probe.close()


def public_url(configured: str | None, port: str | None) -> str:
    """The site's public address without a trailing slash: ``configured`` (``PUBLIC_URL``) if
    given, else ``http://<LAN address>:<port>`` (``PORT``, default 8000). Raises ``ValueError``
    for an address that is not ``http://`` or ``https://``."""
    if configured and configured.strip():
        url = configured.strip().rstrip("/")
        if not url.startswith(("http://", "https://")):
            raise ValueError(f"PUBLIC_URL must start with http:// or https://, not {url!r}")
        return url
    return f"http://{lan_address()}:{int(port or DEFAULT_PORT)}"


def default_hosts(public_host: str | None) -> list[str]:
    """The host names the server answers to unless ``ALLOWED_HOSTS`` says otherwise: the public
    host, this machine's name (also as ``<name>.local``, as phones resolve it by mDNS) and the
    loopback names."""
    name = socket.gethostname()
    hosts = [public_host or "", name, f"{name}.local", "127.0.0.1", "localhost", "[::1]"]
    return list(dict.fromkeys(h for h in hosts if h))


def stored_secret_key(path: Path) -> str:
    """The secret key kept in ``path``, created with 50 random characters on first use (the
    file readable by its owner only), so sessions survive a restart without anyone choosing one."""
    try:
        return path.read_text().strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another process of the same start won the race: use its key
        return path.read_text().strip()
    with os.fdopen(fd, "w") as handle:
        handle.write(key)
    return key


def release() -> str:
    """A name for the running code, part of every cache key so a new release never serves pages
    cached by the old one: ``RELEASE`` if set, else the git commit, else ``"dev"``."""
    if os.environ.get("RELEASE"):
        return os.environ["RELEASE"]
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short=12", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            timeout=5,
        )
    except (OSError, subprocess.SubprocessError):
        return "dev"
    return out.stdout.strip() if out.returncode == 0 and out.stdout.strip() else "dev"
