"""What the environment switches in the settings, read in a fresh interpreter as a
server would start: plain http:// at a venue works, an https:// PUBLIC_URL turns on Secure cookies
and HSTS, DEBUG is off unless a development command switches it on, errors reach stderr."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from config import network

ROOT = Path(__file__).resolve().parent.parent.parent

SHOW = """
import django, json
django.setup()
from django.conf import settings as s
print(json.dumps({k: getattr(s, k, None) for k in (
    "DEBUG", "PUBLIC_URL", "ALLOWED_HOSTS", "CSRF_TRUSTED_ORIGINS", "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE",
    "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS", "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER")}
    | {"cache": s.CACHES["default"]["BACKEND"], "secret": s.SECRET_KEY}))
"""


def settings_with(tmp_path, **env) -> dict:
    clean = {k: v for k, v in os.environ.items() if k not in ("DEBUG", "PUBLIC_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS")}
    clean |= {"DJANGO_SETTINGS_MODULE": "config.settings", "DATA_DIR": str(tmp_path), **env}
    out = subprocess.run([sys.executable, "-c", SHOW], cwd=ROOT, env=clean, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_venue_laptop_serves_plain_http_on_its_lan_address(tmp_path):
    s = settings_with(tmp_path, PORT="8123")
    assert s["DEBUG"] is False
    assert s["PUBLIC_URL"] == f"http://{network.lan_address()}:8123"
    assert network.lan_address() in s["ALLOWED_HOSTS"] and "127.0.0.1" in s["ALLOWED_HOSTS"]
    assert not s["SESSION_COOKIE_SECURE"] and not s["CSRF_COOKIE_SECURE"] and not s["SECURE_SSL_REDIRECT"]
    assert not s["SECURE_HSTS_SECONDS"]
    assert s["cache"].endswith("LocMemCache")
    # the secret key is made once and kept: a restart keeps everybody logged in
    assert len(s["secret"]) >= 50 and settings_with(tmp_path)["secret"] == s["secret"]
    assert oct((tmp_path / "secret_key").stat().st_mode & 0o777) == "0o600"


def test_an_https_public_url_switches_on_secure_cookies_and_hsts(tmp_path):
    s = settings_with(tmp_path, PUBLIC_URL="https://tarock.example.org/", REDIS_URL="redis://127.0.0.1:6379/3")
    assert s["PUBLIC_URL"] == "https://tarock.example.org"
    assert s["ALLOWED_HOSTS"][0] == "tarock.example.org"
    assert s["CSRF_TRUSTED_ORIGINS"] == ["https://tarock.example.org"]
    assert s["SESSION_COOKIE_SECURE"] and s["CSRF_COOKIE_SECURE"] and s["SECURE_SSL_REDIRECT"]
    assert s["SECURE_HSTS_SECONDS"] == 365 * 24 * 3600 and s["SECURE_HSTS_PRELOAD"] is False
    assert s["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert s["cache"].endswith("RedisCache")
    assert settings_with(tmp_path, PUBLIC_URL="https://t.example.org", HSTS_PRELOAD="1")["SECURE_HSTS_PRELOAD"] is True


def test_a_public_url_without_scheme_is_refused_at_start():
    with pytest.raises(ValueError, match="PUBLIC_URL must start with http"):
        network.public_url("tarock.example.org", None)


def test_runserver_switches_debug_on(tmp_path):
    """The development server shows Django's debug pages (DEBUG on) without anyone setting DEBUG."""
    import socket
    import time
    import urllib.error
    import urllib.request

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if k != "DEBUG"}
    env |= {"DATA_DIR": str(tmp_path), "DATABASE_URL": f"sqlite:///{tmp_path / 'dev.sqlite3'}"}
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/no-such-page/", timeout=5)
            except urllib.error.HTTPError as error:
                status, body = error.code, error.read().decode()
                break
            except (urllib.error.URLError, ConnectionError):
                assert time.monotonic() < deadline and server.poll() is None, "runserver did not start"
                time.sleep(0.3)
        assert status == 404 and "URLconf" in body  # Django's technical 404: DEBUG is on
    finally:
        server.terminate()
        server.wait(timeout=20)
    assert settings_with(tmp_path)["DEBUG"] is False  # any other start: off


def test_check_deploy_is_clean_for_an_https_public_url(tmp_path):
    # Django's own deployment checklist finds nothing to warn about behind https.
    left_out = ("DEBUG", "PUBLIC_URL", "REDIS_URL", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE")
    env = {k: v for k, v in os.environ.items() if k not in left_out}  # the browser tests set the last one
    env |= {"DATA_DIR": str(tmp_path), "PUBLIC_URL": "https://tarock.example.org", "DEBUG": "0"}
    out = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "no issues" in out.stdout


@pytest.mark.django_db
def test_pages_carry_a_content_security_policy_without_inline_scripts(client, four_table):
    page = client.get(f"/table/{four_table.pk}/")
    policy = page["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy.split("script-src")[1].split(";")[0]
    assert "frame-ancestors 'none'" in policy
    import re

    inline = re.findall(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", page.content.decode())
    assert inline == []  # every script is a file of this site
    assert " onclick=" not in page.content.decode()
