"""The production application: `gunicorn -c site_config/gunicorn.conf.py site_config.asgi:application`.

Served by uvicorn workers inside gunicorn (``uvicorn_worker.UvicornWorker``).
Only the live streams of rooms and demos (``games.play.streams``) go through
Django's ASGI handler: they wait on Redis without holding a thread. Every other
request is a short synchronous one and goes through Django's WSGI handler in a
small thread pool (``a2wsgi``): Django's ASGI handler would hop between the event
loop and a thread for each synchronous middleware, which costs about as much CPU
again as the request itself.
"""

import os
import re

from a2wsgi import WSGIMiddleware
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_config.settings.prod")

streams = get_asgi_application()

from games.play import live  # noqa: E402 - once Django is set up

live.serves_streams = True  # pages rendered here link their stream
pages = WSGIMiddleware(get_wsgi_application(), workers=int(os.environ.get("WSGI_THREADS", "8")))
# /spiele/<slug>/raum/<code>/live/ and /spiele/<slug>/demo/live/ (rooms/urls.py, games/urls.py)
STREAM_PATH = re.compile(r"^/spiele/[^/]+/(?:raum/[^/]+|demo)/live/$")


async def application(scope, receive, send):
    if scope["type"] == "http" and not STREAM_PATH.match(scope["path"]):
        return await pages(scope, receive, send)
    return await streams(scope, receive, send)
