from django.urls import path

from feedback import stars, views

app_name = "feedback"

urlpatterns = [
    path("spiele/<slug:slug>/fehler-melden/", views.report, name="report"),
    path("spiele/<slug:slug>/bewerten/", views.vote, name="vote"),
    # The reader's own stars: a fragment of the cached game page, a page without JavaScript.
    path("spiele/<slug:slug>/sterne/", stars.stars, name="stars"),
    path("meldung/<str:token>/", views.status, name="status"),
]
