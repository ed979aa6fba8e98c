import os

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import STORAGES

DEBUG = False
SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if len(SECRET_KEY) < 50:
    raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set to at least 50 characters.")
if not ALLOWED_HOSTS:  # noqa: F405
    raise ImproperlyConfigured("DJANGO_ALLOWED_HOSTS must name the site's host(s).")

STORAGES = {
    **STORAGES,
    # whitenoise's hashed, compressed files; our CSS and JS minified (site_config/storage.py)
    "staticfiles": {"BACKEND": "site_config.storage.MinifiedStaticFilesStorage"},
}

SECURE_SSL_REDIRECT = os.environ.get("DJANGO_SECURE_SSL_REDIRECT", "1") == "1"
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = 60 * 60 * 24 * 365
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
# gunicorn binds to localhost (gunicorn.conf.py), so a local reverse proxy is in front.
TRUSTED_PROXIES = [ip for ip in os.environ.get("TRUSTED_PROXIES", "127.0.0.1,::1").split(",") if ip]
CSRF_TRUSTED_ORIGINS = [f"https://{h}" for h in ALLOWED_HOSTS if not h.startswith(".")]  # noqa: F405

# Mail (account confirmation, password reset, report status) goes out over SMTP; the server
# comes from the environment. Without EMAIL_HOST a local MTA on port 25 is assumed.
_EMAIL_USE_SSL = os.environ.get("EMAIL_USE_SSL", "0") == "1"
MAILERS = {
    "default": {
        "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
        "OPTIONS": {
            "host": os.environ.get("EMAIL_HOST", "localhost"),
            "port": int(os.environ.get("EMAIL_PORT", "465" if _EMAIL_USE_SSL else "25")),
            "username": os.environ.get("EMAIL_HOST_USER", ""),
            "password": os.environ.get("EMAIL_HOST_PASSWORD", ""),
            # STARTTLS and implicit TLS exclude each other.
            "use_tls": not _EMAIL_USE_SSL and os.environ.get("EMAIL_USE_TLS", "0") == "1",
            "use_ssl": _EMAIL_USE_SSL,
            "timeout": int(os.environ.get("EMAIL_TIMEOUT", "10")),
        },
    }
}
