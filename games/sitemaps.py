from django.contrib.sitemaps import Sitemap
from django.urls import reverse

from games.models import Game


class GameSitemap(Sitemap):
    changefreq = "weekly"
    priority = 0.8

    def items(self):
        return Game.objects.published().order_by("slug")

    def lastmod(self, game):
        return game.updated_at


class StaticSitemap(Sitemap):
    changefreq = "daily"
    priority = 1.0

    def items(self):
        return ["games:catalogue", "legal:impressum", "legal:datenschutz"]

    def location(self, name):
        return reverse(name)
