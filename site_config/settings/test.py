import os
import tempfile

from .base import *  # noqa: F403

DEBUG = False
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend"}}
# Django's test client logs in without a request, which the axes backend refuses;
# tests that check the throttling switch it on with the `settings` fixture.
AXES_ENABLED = False
# App servers started by tests (gunicorn) serve static files straight from the sources.
WHITENOISE_USE_FINDERS = True
# No access log lines in test output unless asked for (tests switch it on themselves).
ACCESS_LOG = os.environ.get("ACCESS_LOG") == "json"

# A tiny game that exists only in tests: it proves that a new game needs its own
# package and this one registration, and no change to shared code.
INSTALLED_APPS = [*INSTALLED_APPS, "tests.takeaway"]  # noqa: F405

# Browser tests (make test-suite sets SQLITE_TEST_FILE): the live server answers several
# players from several threads. SQLite's in-memory test database runs in shared-cache
# mode, whose table locks never wait ("database table is locked"); a file behaves like
# production (WAL, IMMEDIATE transactions, busy timeout).
if os.environ.get("SQLITE_TEST_FILE") and DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": os.path.join(tempfile.gettempdir(), f"kartenregeln-test-{os.getpid()}.sqlite3")
    }
