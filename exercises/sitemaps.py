from django.contrib.sitemaps import Sitemap
from django.db.models import Max
from django.urls import reverse

from games.models import Game


class ExerciseSitemap(Sitemap):
    """One „Üben“ page per published game that has published exercises."""

    changefreq = "weekly"
    priority = 0.6

    def items(self):
        return (
            Game.objects.published()
            .filter(exercises__is_published=True)
            .annotate(exercises_changed=Max("exercises__updated_at"))
            .order_by("slug")
        )

    def location(self, game):
        return reverse("exercises:practice", args=[game.slug])

    def lastmod(self, game):
        return game.exercises_changed
