from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("konto/registrieren/", views.signup, name="signup"),
    path("konto/registrieren/fast-geschafft/", views.signup_done, name="signup_done"),
    path("konto/bestaetigen/<uidb64>/<token>/", views.confirm, name="confirm"),
    path("konto/bestaetigen/neuer-link/", views.resend, name="resend"),
    path("konto/anmelden/", views.LoginView.as_view(), name="login"),
    path("konto/abmelden/", views.LogoutView.as_view(), name="logout"),
    path("konto/passwort-vergessen/", views.PasswordResetView.as_view(), name="password_reset"),
    path(
        "konto/passwort-vergessen/gesendet/",
        views.PasswordResetDoneView.as_view(),
        name="password_reset_done",
    ),
    path(
        "konto/passwort-neu/<uidb64>/<token>/",
        views.PasswordResetConfirmView.as_view(),
        name="password_reset_confirm",
    ),
    path(
        "konto/passwort-neu/fertig/",
        views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("konto/passwort-aendern/", views.PasswordChangeView.as_view(), name="password_change"),
    path("konto/loeschen/", views.delete_account, name="delete"),
    path("mein-bereich/", views.my_area, name="my_area"),
    path("mein-bereich/meine-daten.json", views.my_data, name="my_data"),
]
