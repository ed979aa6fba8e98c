"""Production server: `gunicorn -c site_config/gunicorn.conf.py site_config.asgi:application`.

The workers are uvicorn's (``site_config.workers.CalmUvicornWorker``: uvicorn_worker's
with a once-a-second heartbeat instead of ten, ASGI): pages and
htmx requests as before, plus the live streams of rooms and demos, which wait
on Redis without tying up a worker. Game and room state live in the database
and pushes go through Redis, so any number of workers and app servers can
serve the same rooms side by side. ``GUNICORN_WORKER_CLASS=sync`` with
``site_config.wsgi`` still works; pages then poll.
"""

import multiprocessing
import os
import sys

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
# Uvicorn's workers for the ASGI application; a command naming the WSGI one gets sync workers.
_wsgi = any(arg.startswith("site_config.wsgi") for arg in sys.argv[1:])
worker_class = os.environ.get(
    "GUNICORN_WORKER_CLASS", "sync" if _wsgi else "site_config.workers.CalmUvicornWorker"
)
timeout = 30
# A worker told to stop ends its streams at once (games.play.streams); browsers reconnect to
# another worker and resume by event id.
graceful_timeout = 20
# No recycling, for either worker class: a restarted worker loses its page copies and
# rendered parts and pays Django's start-up (at 2,000 requests that was every 8 s per
# worker under load, and cached pages fell to a third of the static file's rate), and a
# uvicorn worker would cut every stream it holds. Memory is bounded instead: the page
# copies, the rendered parts and the template fragments are LRUs of fixed size;
# `make bench` (bench_pages.py) reports the RSS per worker after a crawl of every page.
max_requests = 0
# Django writes the access log (site_config/access_log.py: JSON, no client address in
# clear); gunicorn's own, with the address, only when asked for: GUNICORN_ACCESSLOG=-
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
