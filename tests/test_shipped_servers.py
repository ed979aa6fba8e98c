"""The servers `make bench` measures are the ones README.md tells people to run, with the
settings gunicorn.conf.py ships (bench/common.py: SHIPPED_SERVERS)."""

from __future__ import annotations

import runpy
import sys
from pathlib import Path

import pytest

from bench.common import SHIPPED_CONFIG, SHIPPED_SERVERS, shipped_command

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("app", SHIPPED_SERVERS.values())
def test_the_readme_gives_each_benchmarked_command(app):
    readme = (ROOT / "README.md").read_text()
    production = readme.split("### Produktion starten", 1)[1].split("\n### ", 1)[0]
    assert f"gunicorn -c {SHIPPED_CONFIG} {app}" in production
    command = shipped_command(app)
    assert command[1:] == ["-c", SHIPPED_CONFIG, app]  # nothing overrides the shipped config


@pytest.mark.parametrize(
    ("app", "worker_class"),
    [("site_config.asgi:application", "site_config.workers.CalmUvicornWorker"),
     ("site_config.wsgi:application", "sync")],
)  # fmt: skip
def test_no_worker_is_recycled(monkeypatch, app, worker_class):
    """A restarted worker loses its page copies and rendered parts (README: Betrieb)."""
    monkeypatch.delenv("GUNICORN_WORKER_CLASS", raising=False)
    monkeypatch.setattr(sys, "argv", ["gunicorn", "-c", SHIPPED_CONFIG, app])
    config = runpy.run_path(str(ROOT / SHIPPED_CONFIG))
    assert config["worker_class"] == worker_class
    assert config["max_requests"] == 0


def test_the_page_benchmark_passes_no_worker_settings():
    source = (ROOT / "bench" / "bench_pages.py").read_text()
    for flag in ("--max-requests", "--workers", "-w ", 'GUNICORN_WORKERS":', "--worker-class"):
        assert flag not in source, flag
