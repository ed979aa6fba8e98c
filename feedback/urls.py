from django.urls import path

from feedback import views

app_name = "feedback"

urlpatterns = [
    path("spiele/<slug:slug>/fehler-melden/", views.report, name="report"),
    path("spiele/<slug:slug>/bewerten/", views.vote, name="vote"),
    path("meldung/<str:token>/", views.status, name="status"),
]
