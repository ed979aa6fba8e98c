"""Production settings for bench_pages.py, with the collected static files in a temporary
directory (the benchmark never writes into the project's staticfiles/)."""

import os

from site_config.settings.prod import *  # noqa: F403

STATIC_ROOT = os.environ["BENCH_STATIC_ROOT"]
# The miss measurement bumps the generation before every request: the workers must not
# trust the generation they read a moment ago (production default: 1 s).
PAGE_CACHE_GENERATION_SECONDS = float(os.environ.get("BENCH_GENERATION_SECONDS", "1"))
# bench_moves.py's floor phase: two bench-only endpoints beside the site's URLs.
if os.environ.get("BENCH_FLOOR_URLS"):
    ROOT_URLCONF = "floor_urls"
