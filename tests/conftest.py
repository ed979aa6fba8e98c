import os
import secrets

import pytest
import redis

import tests.hypothesis_profiles  # noqa: F401  (loads the ci or dev profile)

# Playwright's sync API runs an event loop in the test thread; Django's ORM
# calls made by the live server's fixtures must still be allowed.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def content(db):
    """The shipped initial content, loaded exactly as `make run` does."""
    from rules.content_loader import load_all

    return load_all()


@pytest.fixture
def pure_store():
    """An empty store of the parts ``pure_include`` draws once per process, before and after."""
    from games.templatetags import play

    play._pure_drawn.clear()
    yield play._pure_drawn
    play._pure_drawn.clear()


@pytest.fixture
def drawn(pure_store):
    """The names of the templates drawn while the test runs (Django's test signal), starting
    from an empty ``pure_store``."""
    from django.test.signals import template_rendered

    names: list[str] = []

    def heard(sender, template, context, **kwargs):
        names.append(template.name)

    template_rendered.connect(heard)
    yield names
    template_rendered.disconnect(heard)


@pytest.fixture
def editor(db, django_user_model):
    from games.editors import ensure_editors_group

    user = django_user_model.objects.create_user("editor", password="geheim-123", is_staff=True)
    user.groups.add(ensure_editors_group())
    return user


@pytest.fixture
def editor_client(client, editor):
    client.force_login(editor)
    return client


def pytest_addoption(parser):
    parser.addoption(
        "--database-tests-only",
        action="store_true",
        help="run only the tests that use the database (make test-db: the rest ran already)",
    )


def _uses_database(item) -> bool:
    from django.test import TransactionTestCase

    test_class = getattr(item, "cls", None)
    return (
        item.get_closest_marker("django_db") is not None
        or "_django_db_helper" in getattr(item, "fixturenames", ())
        or (isinstance(test_class, type) and issubclass(test_class, TransactionTestCase))
    )


def _leave_out(config, items, leave) -> None:
    left_out = [item for item in items if leave(item)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if not leave(item)]


def pytest_collection_modifyitems(config, items):
    # PostgreSQL-only tests (row locks, an outage of the database) are left out on SQLite
    # rather than skipped: CI counts a skipped app-server test as a failure, and
    # `make test-db` runs them on PostgreSQL.
    from django.db import connection

    if config.getoption("--database-tests-only"):
        _leave_out(config, items, lambda item: not _uses_database(item))
    if connection.vendor != "postgresql":
        _leave_out(config, items, lambda item: "postgresql" in item.keywords)


_skipped_browser_tests = []


def pytest_runtest_logreport(report):
    if report.skipped and ("browser" in report.keywords or "servers" in report.keywords):
        _skipped_browser_tests.append(report.nodeid)


def pytest_sessionfinish(session, exitstatus):
    # In CI a skipped browser test is a failure: the browser checks must really run there.
    # So is a skipped app-server test (Redis and PostgreSQL run on the CI machine).
    if os.environ.get("CI") and _skipped_browser_tests:
        print(f"\nBrowser tests were skipped in CI: {_skipped_browser_tests}")
        session.exitstatus = 1


@pytest.fixture(autouse=True)
def _fresh_cache():
    # Rate-limit counters live in the cache; no test may inherit another test's counts.
    from django.core.cache import cache

    from site_config.content_versions import forget_kept

    cache.clear()
    forget_kept()
    yield


# --- Live updates (tests/live_support.py has the helpers) ----------------------------------

LIVE_REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


@pytest.fixture
def live_redis(settings):
    try:
        redis.Redis.from_url(LIVE_REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError as error:
        if os.environ.get("CI"):
            pytest.fail(f"Redis is not reachable at {LIVE_REDIS_URL}: {error}")
        pytest.skip(f"Redis is not reachable at {LIVE_REDIS_URL}: {error}")
    settings.LIVE_REDIS_URL = LIVE_REDIS_URL
    settings.LIVE_CHANNEL_PREFIX = f"test-live-{secrets.token_hex(6)}"
    settings.LIVE_DEADLINE_LOOP = False
    settings.LIVE_HEARTBEAT_SECONDS = 15
    return settings


@pytest.fixture
def alpaka_row(db):
    from tests.factories import make_game

    return make_game("alpaka", title="Alpaka", demo_engine="alpaka", players_max=6)


@pytest.fixture
def seeded(monkeypatch):
    monkeypatch.setattr("games.play.table.new_seed", lambda: 4242)


@pytest.fixture
def frozen():
    """A clock that only moves when the test says so."""
    from games import clock as game_clock

    moment = {"now": None}
    game_clock.set_clock(lambda: moment["now"])
    yield moment
    game_clock.set_clock(None)
