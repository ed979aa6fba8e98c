"""Production server: `gunicorn -c site_config/gunicorn.conf.py site_config.wsgi`.

Game and room state live in the database, so any number of sync workers (and
app servers) can serve the htmx polls side by side.
"""

import multiprocessing
import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", multiprocessing.cpu_count() * 2 + 1))
worker_class = "sync"
timeout = 30
graceful_timeout = 20
max_requests = 2000
max_requests_jitter = 200
# Django writes the access log (site_config/access_log.py: JSON, no client address in
# clear); gunicorn's own, with the address, only when asked for: GUNICORN_ACCESSLOG=-
accesslog = os.environ.get("GUNICORN_ACCESSLOG") or None
errorlog = "-"
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1")
