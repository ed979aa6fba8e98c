from .base import *  # noqa: F403

DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
MAILERS = {"default": {"BACKEND": "django.core.mail.backends.console.EmailBackend"}}
# Editor account that `make run` ensures exists so /admin/ opens at once (dev only).
DEV_EDITOR_USERNAME = "redaktion"
DEV_EDITOR_PASSWORD = "karten-lesen-2026"
