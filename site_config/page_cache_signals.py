"""Bump the page cache's generation whenever something a public page shows changes.

Connected once at start-up (``games.apps``). Everything in the content apps counts
(games, articles and their parts, editions, sleeves, statistics, the legal pages), plus
votes, whose averages the catalogue and the game pages show. Per-visitor rows (demo games) and
rooms never do: they live in fragments, not in cached pages.
"""

from django.db.models.signals import m2m_changed, post_delete, post_save

from site_config.page_cache import bump_generation

CONTENT_APPS = {"games", "rules", "sleeves", "legal", "exercises"}
CONTENT_MODELS = {"feedback.vote"}
NOT_CONTENT = {"games.demogame", "exercises.exerciseprogress"}


def shows_on_pages(model) -> bool:
    label = model._meta.label_lower
    if label in NOT_CONTENT:
        return False
    return model._meta.app_label in CONTENT_APPS or label in CONTENT_MODELS


def content_changed(sender, **kwargs) -> None:
    if kwargs.get("raw"):  # loading fixtures
        return
    if shows_on_pages(sender):
        bump_generation(sender)


def relation_changed(sender, action, **kwargs) -> None:
    if action.startswith("post_") and shows_on_pages(sender):
        bump_generation(sender)


post_save.connect(content_changed, dispatch_uid="page_cache.post_save")
post_delete.connect(content_changed, dispatch_uid="page_cache.post_delete")
m2m_changed.connect(relation_changed, dispatch_uid="page_cache.m2m_changed")
