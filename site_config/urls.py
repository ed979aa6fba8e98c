from django.contrib import admin
from django.contrib.sitemaps.views import sitemap
from django.urls import include, path

from exercises.sitemaps import ExerciseSitemap
from games.sitemaps import GameSitemap, StaticSitemap
from groups.sitemaps import GroupSitemap
from site_config.views import favicon, robots_txt
from sleeves.sitemaps import SleeveFinderSitemap

admin.site.site_header = "Kartenregeln – Redaktion"
admin.site.site_title = "Kartenregeln Redaktion"
admin.site.index_title = "Inhalte verwalten"

handler400 = "site_config.views.bad_request"
handler403 = "site_config.views.permission_denied"

sitemaps = {
    "static": StaticSitemap,
    "games": GameSitemap,
    "exercises": ExerciseSitemap,
    "sleeves": SleeveFinderSitemap,
    "groups": GroupSitemap,
}

urlpatterns = [
    path("admin/", admin.site.urls),
    path("sitemap.xml", sitemap, {"sitemaps": sitemaps}, name="sitemap"),
    path("robots.txt", robots_txt, name="robots"),
    # Browsers and the admin ask for /favicon.ico regardless of the <link rel="icon">.
    path("favicon.ico", favicon, name="favicon"),
    path("", include("feedback.urls")),
    path("", include("games.urls")),
    path("", include("exercises.urls")),
    path("", include("sleeves.urls")),
    path("", include("rooms.urls")),
    path("", include("accounts.urls")),
    path("", include("groups.urls")),
    path("", include("legal.urls")),
]
