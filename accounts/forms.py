from django import forms
from django.conf import settings
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.html import format_html
from django.utils.http import urlsafe_base64_encode

from accounts.services import (
    EMAIL_MAX_LENGTH,
    NO_ACCOUNT_RESET,
    account_for_email,
    normalize_email,
    send_confirmation_mail,
    send_no_account_mail,
)

EMAIL_WIDGET = forms.EmailInput(attrs={"autocomplete": "email", "spellcheck": "false"})


class SignupForm(forms.Form):
    email = forms.EmailField(
        label="E-Mail-Adresse",
        max_length=EMAIL_MAX_LENGTH,
        widget=EMAIL_WIDGET,
        help_text="Dorthin schicken wir den Bestätigungslink. Niemand sonst sieht die Adresse.",
    )
    password1 = forms.CharField(
        label="Passwort",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="Mindestens 8 Zeichen, nicht nur Ziffern und kein allzu gängiges Passwort.",
    )
    password2 = forms.CharField(
        label="Passwort wiederholen",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        cleaned = super().clean()
        email, password1, password2 = (
            cleaned.get("email"),
            cleaned.get("password1"),
            cleaned.get("password2"),
        )
        if password1 and password2 and password1 != password2:
            self.add_error("password2", "Die beiden Passwörter stimmen nicht überein.")
        elif password1 and email:
            # The validators compare the password with the address too.
            probe = get_user_model()(username=normalize_email(email), email=email)
            try:
                password_validation.validate_password(password1, probe)
            except forms.ValidationError as error:
                self.add_error("password1", error)
        return cleaned


class LoginForm(AuthenticationForm):
    """Django's login form with the e-mail address as the user name."""

    error_messages = {
        "invalid_login": "E-Mail-Adresse oder Passwort stimmen nicht. Achte auf Groß- und "
        "Kleinschreibung beim Passwort.",
        "inactive": "Dein Konto ist noch nicht bestätigt.",
    }

    def __init__(self, request=None, *args, **kwargs):
        super().__init__(request, *args, **kwargs)
        self.fields["username"] = forms.CharField(
            label="E-Mail-Adresse",
            max_length=254,
            widget=forms.EmailInput(attrs={"autocomplete": "email", "autofocus": True}),
        )
        self.fields["password"].label = "Passwort"

    def clean(self):
        if self.cleaned_data.get("username"):
            # Accounts are stored under the lower-case address (accounts/services.py).
            self.cleaned_data["username"] = normalize_email(self.cleaned_data["username"])
        return super().clean()

    def confirm_login_allowed(self, user):
        """Right password, unconfirmed account: say so (only who knows the password learns
        it). AccountBackend let the account through after its one password check."""
        if not user.is_active:
            raise forms.ValidationError(
                format_html(
                    "Dein Konto ist noch nicht bestätigt. Bitte klick auf den Link in unserer "
                    'E-Mail – oder <a href="{}">lass dir den Link noch einmal schicken</a>.',
                    reverse("accounts:resend"),
                ),
                code="inactive",
            )


class DeleteAccountForm(forms.Form):
    password = forms.CharField(
        label="Dein Passwort",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
        help_text="Zur Sicherheit: Nur wer das Passwort kennt, kann das Konto löschen.",
    )

    def __init__(self, user, *args, **kwargs):
        self.user = user
        super().__init__(*args, **kwargs)

    def clean_password(self):
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("Das Passwort stimmt nicht.")
        return password


class ResendForm(forms.Form):
    email = forms.EmailField(label="E-Mail-Adresse", max_length=254, widget=EMAIL_WIDGET)


class ResetForm(PasswordResetForm):
    email = forms.EmailField(label="E-Mail-Adresse", max_length=254, widget=EMAIL_WIDGET)

    def save(self, *, request=None, token_generator=default_token_generator, **options):
        """One lookup and one mail for every address, so the time to answer tells nothing:
        the reset link for an account, the confirmation link for a sign-up still waiting,
        and otherwise a note that no account uses this address."""
        email = self.cleaned_data["email"]
        user = account_for_email(email)
        if user is not None and user.email and user.is_active and user.has_usable_password():
            context = {
                "email": user.email,
                "domain": request.get_host(),
                "site_name": settings.SITE_NAME,
                "uid": urlsafe_base64_encode(force_bytes(user.pk)),
                "user": user,
                "token": token_generator.make_token(user),
                "protocol": "https" if request.is_secure() else "http",
            }
            self.send_mail(
                options["subject_template_name"],
                options["email_template_name"],
                context,
                options.get("from_email"),
                user.email,
            )
        elif user is not None and user.email and not user.is_active:
            send_confirmation_mail(request, user)
        else:
            send_no_account_mail(request, email, NO_ACCOUNT_RESET)
