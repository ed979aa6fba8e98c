from django.contrib.sitemaps import Sitemap

from groups.models import PlayGroup


class GroupSitemap(Sitemap):
    """Listed groups only: private and hidden groups never appear."""

    changefreq = "weekly"
    priority = 0.3

    def items(self):
        return PlayGroup.objects.listed().order_by("slug")
