from django.contrib.sitemaps import Sitemap
from django.urls import reverse


class SleeveFinderSitemap(Sitemap):
    """The finder without a selection; selections are per reader and stay out of the sitemap."""

    changefreq = "weekly"
    priority = 0.5

    def items(self):
        return ["sleeves:finder"]

    def location(self, name):
        return reverse(name)
