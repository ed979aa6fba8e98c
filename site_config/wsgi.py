"""The WSGI application (sync workers: ``gunicorn -c site_config/gunicorn.conf.py
site_config.wsgi``). A cached page this process holds is answered in front of Django's
handler (``site_config.front``); everything else goes through Django."""

import os

from django.core.wsgi import get_wsgi_application

from site_config.frame_room import roomy

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "site_config.settings.prod")
# Each request in a fresh chunk of CPython's frame stack (site_config.frame_room).
django_application = roomy(get_wsgi_application())

from site_config import front  # noqa: E402 - once Django is set up
from site_config.warm import warm  # noqa: E402

warm()


def application(environ, start_response):
    response, key = front.answer(environ)
    if response is not None:
        start_response(
            f"{response.status_code} {response.reason_phrase}", front.wsgi_headers(response)
        )
        return response  # the server closes it: that writes the access log line
    if key is None:
        return django_application(environ, start_response)

    def learning(status, headers, exc_info=None):
        front.learn(key, headers)
        return start_response(status, headers, exc_info)

    return django_application(environ, learning)
