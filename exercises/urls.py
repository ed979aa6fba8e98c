from django.urls import path

from exercises import views

app_name = "exercises"

urlpatterns = [
    path("spiele/<slug:slug>/ueben/", views.practice, name="practice"),
    path("spiele/<slug:slug>/ueben/<int:number>/", views.answer, name="answer"),
]
