from .base import *  # noqa: F403

DEBUG = True
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
# Mails go to the console, readable (the text part decoded, links whole).
MAILERS = {"default": {"BACKEND": "site_config.mail.ReadableConsoleBackend"}}
# Editor account that `make run` ensures exists so /admin/ opens at once (dev only).
DEV_EDITOR_USERNAME = "redaktion"
DEV_EDITOR_PASSWORD = "karten-lesen-2026"
