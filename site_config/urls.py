from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path

from games.sitemaps import GameSitemap, StaticSitemap
from site_config.views import robots_txt

admin.site.site_header = "Kartenregeln – Redaktion"
admin.site.site_title = "Kartenregeln Redaktion"
admin.site.index_title = "Inhalte verwalten"

sitemaps = {"static": StaticSitemap, "games": GameSitemap}

urlpatterns = [
    path("admin/", admin.site.urls),
    path("sitemap.xml", sitemap, {"sitemaps": sitemaps}, name="sitemap"),
    path("robots.txt", robots_txt, name="robots"),
    path("", include("games.urls")),
]
