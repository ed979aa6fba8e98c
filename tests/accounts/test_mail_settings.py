"""Production mail: the SMTP server comes from the environment (site_config/settings/prod.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import django, json; django.setup();"
    "from django.core.mail import mailers; c = mailers.default;"
    "print(json.dumps([type(c).__module__, c.host, c.port, c.username, c.use_tls, c.use_ssl]))"
)


def mailer_with(**env):
    environment = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "site_config.settings.prod",
        "DJANGO_SECRET_KEY": "k" * 60,
        "DJANGO_ALLOWED_HOSTS": "kartenregeln.example",
        **env,
    }
    for name in ("EMAIL_HOST", "EMAIL_PORT", "EMAIL_USE_TLS", "EMAIL_USE_SSL"):
        if name not in env:
            environment.pop(name, None)
    output = subprocess.run(
        [sys.executable, "-c", PROBE], env=environment, cwd=ROOT, capture_output=True, text=True
    )
    assert output.returncode == 0, output.stderr
    return json.loads(output.stdout)


def test_smtp_server_from_the_environment():
    backend, host, port, user, tls, ssl = mailer_with(
        EMAIL_HOST="smtp.kartenregeln.example",
        EMAIL_PORT="587",
        EMAIL_HOST_USER="post",
        EMAIL_USE_TLS="1",
    )
    assert backend == "django.core.mail.backends.smtp"
    assert (host, port, user, tls, ssl) == ("smtp.kartenregeln.example", 587, "post", True, False)


def test_implicit_tls_wins_over_starttls_and_defaults_to_port_465():
    _, host, port, _, tls, ssl = mailer_with(
        EMAIL_HOST="smtp.x.example", EMAIL_USE_SSL="1", EMAIL_USE_TLS="1"
    )
    assert (port, tls, ssl) == (465, False, True)


def test_tests_use_the_locmem_backend(settings):
    assert settings.MAILERS["default"]["BACKEND"] == "django.core.mail.backends.locmem.EmailBackend"
