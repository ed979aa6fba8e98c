"""Helpers the benchmarks share: free ports, percentiles, scratch PostgreSQL databases and
Django set up against them."""

from __future__ import annotations

import os
import socket
import warnings

POSTGRES_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/postgres"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def percentile(values, share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def postgres_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(POSTGRES_ADMIN_URL, connect_timeout=3):
            return True
    except Exception:
        return False


def recreate_postgres(name: str, drop_only: bool = False) -> None:
    """A scratch database of this name, empty (or only dropped, after the run)."""
    import psycopg

    with psycopg.connect(POSTGRES_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        if not drop_only:
            conn.execute(f"CREATE DATABASE {name}")


def setup_django(env: dict) -> None:
    """Django in this process with the test settings on the database `env` names, migrated."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "site_config.settings.test"
    os.environ.pop("DATABASE_URL", None)
    os.environ.update(env)
    import django

    warnings.filterwarnings("ignore", message="No directory at")
    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
