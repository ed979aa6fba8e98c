from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Spiele"

    def ready(self):
        from games import availability  # noqa: F401  (drops the cached slugs on changes)
        from games.editors import ensure_editors_group
        from games.play import deadline_loop, demo_deadlines
        from site_config import (
            fast_numbers,
            page_cache_signals,  # noqa: F401  (content edits empty the page cache)
        )

        # Ints in templates printed without Django's per-call format lookups (same text).
        fast_numbers.install()

        # The demos' bot moves are made on time while their readers watch.
        deadline_loop.register(demo_deadlines.DUE_SOURCE)
        # „Meine Partien“: replays an account saved (kept beyond the 90 days); „Meine Daten“.
        from accounts import personal_data
        from accounts.sections import MyAreaSection, register
        from games.play import replays

        personal_data.register("partien", replays.personal_data, erase=replays.forget_players)

        register(
            MyAreaSection(
                key="partien",
                title="Meine Partien",
                template="games/my_replays.html",
                context=replays.my_area,
                order=30,
            )
        )
        # Permissions exist only after migrate has run, so the group is filled then.
        post_migrate.connect(ensure_editors_group, dispatch_uid="games.ensure_editors_group")
