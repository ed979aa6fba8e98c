"""The production application: `gunicorn -c site_config/gunicorn.conf.py site_config.asgi:application`.

Served by uvicorn workers inside gunicorn (``site_config.workers.CalmUvicornWorker``).
Only the live streams of rooms and demos (``games.play.streams``) go through
Django's ASGI handler: they wait on Redis without holding a thread. A cached page
this process holds is answered right here on the event loop (``site_config.front``:
the page cache's own rules and copy, no I/O, the same headers and log line as the
Django path); so is a room's poll that finds nothing new (``rooms.fast_poll``: one
Redis read, the headers Django's 204 had). Every other request is a short
synchronous one and goes through Django's WSGI handler in a small thread pool
(``a2wsgi``): Django's ASGI handler would hop between the event loop and a thread
for each synchronous middleware, which costs about as much CPU again as the
request itself.
"""

import io
import os
import re

from a2wsgi import WSGIMiddleware
from a2wsgi.wsgi import build_environ
from django.core.asgi import get_asgi_application
from django.core.wsgi import get_wsgi_application

from site_config.frame_room import roomy

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_config.settings.prod")

streams = get_asgi_application()

from games.play import live  # noqa: E402 - once Django is set up
from rooms import fast_poll  # noqa: E402
from site_config import front  # noqa: E402
from site_config.warm import warm  # noqa: E402

warm()
live.serves_streams = True  # pages rendered here link their stream
# Each request in a fresh chunk of CPython's frame stack (site_config.frame_room).
pages = WSGIMiddleware(
    roomy(get_wsgi_application()), workers=int(os.environ.get("WSGI_THREADS", "8"))
)
# /spiele/<slug>/raum/<code>/live/ and /spiele/<slug>/demo/live/ (rooms/urls.py, games/urls.py)
STREAM_PATH = re.compile(r"^/spiele/[^/]+/(?:raum/[^/]+|demo)/live/$")


async def application(scope, receive, send):
    if scope["type"] != "http" or STREAM_PATH.match(scope["path"]):
        return await streams(scope, receive, send)
    if fast_poll.candidate(scope):
        response = await fast_poll.answer(scope)
        if response is not None:
            return await _send(send, response)
        return await pages(scope, receive, fast_poll.learning(send))
    if scope["method"] != "GET" or not front.candidate(scope["path"]):
        return await pages(scope, receive, send)
    # The same environ a2wsgi hands Django (a GET's body is not read).
    response, key = front.answer(build_environ(scope, io.BytesIO()))
    if response is not None:
        return await _send(send, response)
    if key is None:
        return await pages(scope, receive, send)

    async def learning(message):
        if message["type"] == "http.response.start":
            front.learn(
                key, [(n.decode("latin-1"), v.decode("latin-1")) for n, v in message["headers"]]
            )
        await send(message)

    return await pages(scope, receive, learning)


async def _send(send, response) -> None:
    """A response made here, sent as a2wsgi sends the Django path's."""
    try:
        await send(
            {
                "type": "http.response.start",
                "status": response.status_code,
                "headers": [  # lower-case, as a2wsgi passes the Django path's
                    (name.lower().encode("latin-1"), value.encode("latin-1"))
                    for name, value in front.wsgi_headers(response)
                ],
            }
        )
        await send({"type": "http.response.body", "body": response.content})
    finally:
        response.close()  # writes the access log line, as after the Django path
