from django.urls import path

from sleeves import views

app_name = "sleeves"

urlpatterns = [
    path("sleeve-finder/", views.finder, name="finder"),
]
