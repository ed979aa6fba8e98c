"""site_config/warm.py: a worker loads its URLconf, templates and static manifest before
its first request, and a failing warm-up never keeps it from starting."""

from __future__ import annotations

import logging

from django.template import engines

from games.play import definition as registry
from site_config import warm


def _cached_template_names() -> set[str]:
    loader = engines["django"].engine.template_loaders[0]
    return {key.split("-")[0] for key in loader.get_template_cache}


def test_warm_loads_the_templates_of_every_table(settings):
    engines["django"].engine.template_loaders[0].reset()
    assert warm.warm() < 30
    loaded = _cached_template_names()
    tables = {game.table_template for game in registry.all_definitions() if game.table_template}
    assert tables and tables | set(warm.TEMPLATES) <= loaded


def test_a_failed_warm_up_is_logged_not_raised(monkeypatch, caplog):
    monkeypatch.setattr(warm, "TEMPLATES", ("gibt-es-nicht.html",))
    with caplog.at_level(logging.WARNING, logger="site_config.warm"):
        warm.warm()
    assert any("warm-up failed" in record.getMessage() for record in caplog.records)
