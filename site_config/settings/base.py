"""Settings shared by every environment. Environment modules import * from here."""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.csp import CSP

BASE_DIR = Path(__file__).resolve().parent.parent.parent

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev-only-insecure-key-change-me")
DEBUG = False
ALLOWED_HOSTS = [h for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "").split(",") if h]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.sitemaps",
    "axes",
    "django_htmx",
    "games",
    "rules",
    "reversion",
    "feedback",
    "sleeves",
    "rooms",
    # Reader accounts: sign-up, „Mein Bereich“, points (after feedback and rooms it reads).
    "accounts",
    "groups",
    # Impressum and Datenschutzerklärung, kept by the editors.
    "legal",
    # The editors' workbench: drafts of game data, publishing a page, shipped updates.
    "editorial",
    # „Üben“: exercises per game as content, judged by the engines, and progress.
    "exercises",
    # The games: one play package each (games/play/<key>/); listing it registers the game.
    "games.play.kaetzchen",
    "games.play.alpaka",
    "games.play.the_cat",
    "games.play.katz_und_maus",
]

MIDDLEWARE = [
    # First: times every request; then /healthz, answered before host checks, redirects, cookies.
    "site_config.access_log.AccessLogMiddleware",
    "site_config.health.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Cached public pages are answered here, before sessions, CSRF and auth (page_cache.py).
    "site_config.page_cache.PageCacheMiddleware",
    # The database away: „Kurze Wartung“ (503) instead of a server error (outage.py).
    "site_config.outage.DatabaseOutageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "games.visitors.VisitorCookieMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Session and user load lazily, so no query has run yet: a NUL byte never reaches one.
    "site_config.middleware.RejectNulMiddleware",
    "site_config.middleware.GermanErrorBodiesMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a login refused by the axes backend into the lockout page.
    "axes.middleware.AxesMiddleware",
]

# German, site-styled page (no inline style, which the CSP would block).
CSRF_FAILURE_VIEW = "site_config.views.csrf_failure"

ROOT_URLCONF = "site_config.urls"
WSGI_APPLICATION = "site_config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
                "site_config.context_processors.site",
            ],
        },
    }
]

# SQLite by default; DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test) switches.
SQLITE_OPTIONS = {
    # IMMEDIATE takes the write lock at BEGIN, so two writers queue instead of
    # failing with "database is locked" halfway through a transaction.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
if os.environ.get("DATABASE_URL"):
    # ASGI workers run each sync view in a thread of its own, so a connection kept per
    # thread would pile up until PostgreSQL refuses more: each worker process takes its
    # connections from a small pool instead (psycopg_pool), handed back after each request.
    DATABASES = {"default": dj_database_url.parse(os.environ["DATABASE_URL"], conn_max_age=0)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # A pooled connection is checked before it is handed out (a cheap round trip): after
        # PostgreSQL restarted, its dropped connections never reach a request.
        DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
        options = DATABASES["default"].setdefault("OPTIONS", {})
        # A server that does not answer at all (not even "refused") is given up quickly.
        options.setdefault("connect_timeout", 3)
        options["pool"] = {
            "min_size": 1,
            "max_size": int(os.environ.get("DATABASE_POOL_SIZE", "8")),
            # How long a request waits for a connection: with PostgreSQL away, the time until
            # it gets the 503 page („Kurze Wartung“, site_config/outage.py).
            "timeout": float(os.environ.get("DATABASE_POOL_TIMEOUT", "1.5")),
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "db.sqlite3")),
            "OPTIONS": SQLITE_OPTIONS,
        }
    }

if os.environ.get("REDIS_URL"):
    CACHES = {
        "default": {
            # Django's RedisCache that keeps serving when Redis is away (site_config/shared_cache.py).
            "BACKEND": "site_config.shared_cache.ResilientRedisCache",
            "LOCATION": os.environ["REDIS_URL"],
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "kartenregeln"),
            # A Redis that hangs must not hang the page: give up quickly, serve uncached.
            "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 1.0},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# How often each process asks a Redis that went away again (site_config/shared_cache.py).
SHARED_CACHE_RETRY_SECONDS = float(os.environ.get("SHARED_CACHE_RETRY_SECONDS", "2"))
# {% cache %} fragments are keyed by their content and the code (e.g. the worked examples drawn
# by an engine): each process may keep its own copy, no network round trip needed.
CACHES["template_fragments"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "template-fragments",
    "OPTIONS": {"MAX_ENTRIES": 2000},
}

# Live updates (games.play.live, games.play.streams): Server-Sent Events from the ASGI workers, fanned out through
# Redis pub/sub. Without a Redis URL, rooms and demos poll (as they always may).
LIVE_REDIS_URL = os.environ.get("LIVE_REDIS_URL", os.environ.get("REDIS_URL", ""))
LIVE_CHANNEL_PREFIX = os.environ.get(
    "LIVE_CHANNEL_PREFIX", os.environ.get("CACHE_KEY_PREFIX", "kartenregeln") + ":live"
)
LIVE_HEARTBEAT_SECONDS = 15  # a comment line keeps proxies from closing an idle stream
LIVE_STREAM_SECONDS = 600  # then the browser reconnects (with its last event id)
# How often a page with a stream still polls (only while its stream does not work);
# None: the game's own interval.
LIVE_POLL_MS = int(os.environ.get("LIVE_POLL_MS", "0")) or None
# Each ASGI worker applies due deadlines (timeouts, bot moves) as they fall due and pushes them.
LIVE_DEADLINE_LOOP = os.environ.get("LIVE_DEADLINE_LOOP", "1") != "0"

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "de-de"
LANGUAGES = [("de", "Deutsch")]
TIME_ZONE = "Europe/Berlin"
USE_I18N = True
# Fills gaps in Django's own German translation (compiled .mo is committed).
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_TZ = True

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Nothing is loaded from another host; inline scripts need the per-request nonce.
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF, CSP.NONCE],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "object-src": [CSP.NONE],
}

MAILERS = {"default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend"}}
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_DEFAULT_FROM_EMAIL", "redaktion@kartenregeln.example")

# Reverse proxies whose X-Forwarded-For is trusted for the client address (rate limits).
TRUSTED_PROXIES = [ip for ip in os.environ.get("TRUSTED_PROXIES", "").split(",") if ip]

SITE_NAME = "Kartenregeln"
# Absolute base for canonical URLs, OpenGraph and the sitemap when no request is at hand.
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

# Readers log in at /konto/anmelden/ (accounts); the admin keeps its own login page.
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "accounts:my_area"

# Login throttling (django-axes): after AXES_FAILURE_LIMIT wrong passwords from one address
# the login is refused for AXES_COOLOFF_TIME, even with the right password.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # One password hash per login attempt, whatever the answer (accounts/backends.py).
    "accounts.backends.AccountBackend",
    # Sessions started before AccountBackend (and the confirmation link's login) name it.
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = ["ip_address"]
AXES_RESET_ON_SUCCESS = True
# The same proxy-aware address as the site's rate limits (TRUSTED_PROXIES).
AXES_CLIENT_IP_CALLABLE = "site_config.ratelimit.client_ip"
AXES_LOCKOUT_CALLABLE = "site_config.views.login_locked_out"
AXES_COOLOFF_MESSAGE = (
    "Zu viele fehlgeschlagene Anmeldeversuche. Bitte warte eine Viertelstunde und versuch es "
    "dann noch einmal."
)
# Only failed attempts are stored, not every successful login.
AXES_DISABLE_ACCESS_LOG = True

# Access log (site_config/access_log.py): one JSON line per request on stdout.
# ACCESS_LOG=off switches it off; ACCESS_LOG_CLIENT=off drops the daily client pseudonym.
ACCESS_LOG = os.environ.get("ACCESS_LOG", "json") != "off"
ACCESS_LOG_CLIENT = "off" if os.environ.get("ACCESS_LOG_CLIENT") == "off" else "hash"

# How often a lasting outage of Redis or PostgreSQL is written to the log (site_config/logs.py).
OUTAGE_LOG_SECONDS = int(os.environ.get("OUTAGE_LOG_SECONDS", "60"))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"bare": {"format": "%(message)s"}},
    "filters": {
        "short_security": {"()": "site_config.logs.ShortSecurityLine"},
        "quiet_outages": {
            "()": "site_config.logs.QuietOutages",
            "always": ["games.play.live", "games.play.streams", "psycopg.pool"],
        },
    },
    "handlers": {
        "console": {"class": "site_config.logs.StderrHandler"},
        "access": {"class": "site_config.access_log.StdoutHandler", "formatter": "bare"},
        # A bad Host header or an oversized form: the client's doing, one line without traceback.
        "security": {"class": "site_config.logs.StderrHandler", "filters": ["short_security"]},
        # Backing services gone: no traceback per request, one line per interval.
        "outages": {"class": "site_config.logs.StderrHandler", "filters": ["quiet_outages"]},
    },
    "loggers": {
        "kartenregeln.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
        # Django's "Not Found: <path>" warnings would repeat what the access log says, with
        # room invite codes in clear; server errors (5xx) are still logged.
        "django.request": {"level": "ERROR"},
        "django.security": {"handlers": ["security"], "level": "WARNING", "propagate": False},
        "games.play.live": {"handlers": ["outages"], "level": "WARNING", "propagate": False},
        "games.play.streams": {"handlers": ["outages"], "level": "WARNING", "propagate": False},
        "games.play.deadline_loop": {
            "handlers": ["outages"],
            "level": "WARNING",
            "propagate": False,
        },
        "psycopg.pool": {"handlers": ["outages"], "level": "WARNING", "propagate": False},
    },
    "root": {"handlers": ["console"], "level": "WARNING"},
}
