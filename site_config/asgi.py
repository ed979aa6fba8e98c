"""The production application: `gunicorn -c site_config/gunicorn.conf.py site_config.asgi:application`.

Served by uvicorn workers inside gunicorn (``uvicorn_worker.UvicornWorker``):
ordinary pages run as before (Django runs sync views in a thread), and the
live streams of rooms and demos (``rooms.live_views``) wait on Redis without
holding a thread or a worker.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_config.settings.prod")
application = get_asgi_application()
