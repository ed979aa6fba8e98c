"""Sign-up, confirmation, login/logout, password reset and „Mein Bereich“.

Login, logout and the password pages are Django's own views with German templates;
django-axes throttles the login exactly like the admin's (AxesMiddleware turns a
refused login into the lockout page).
"""

from django.contrib import messages
from django.contrib.auth import get_user_model, login, logout
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse, reverse_lazy
from django.utils import timezone
from django.utils.decorators import method_decorator
from django.utils.encoding import force_str
from django.utils.http import urlsafe_base64_decode
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_safe

from accounts import personal_data, services
from accounts.forms import DeleteAccountForm, LoginForm, ResendForm, ResetForm, SignupForm
from accounts.receivers import adopt_browser
from accounts.sections import rendered_sections
from accounts.tokens import confirmation_token
from games.visitors import existing_visitor_id

# Confirming logs the reader in without a password, so the backend is named.
LOGIN_BACKEND = "django.contrib.auth.backends.ModelBackend"

PRIVATE = {"Cache-Control": "private, no-store"}


def _private(response):
    response["Cache-Control"] = PRIVATE["Cache-Control"]
    response["X-Robots-Tag"] = "noindex"
    return response


@sensitive_post_parameters("password1", "password2")
@require_http_methods(["GET", "POST"])
@never_cache
def signup(request):
    if request.user.is_authenticated:
        return redirect("accounts:my_area")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if not services.mail_allowed(request, services.SIGNUPS_PER_IP):
            form.add_error(
                None,
                "Von deinem Anschluss kamen gerade sehr viele Anmeldungen. "
                "Bitte versuch es in einer Stunde noch einmal.",
            )
        else:
            services.register(request, form.cleaned_data["email"], form.cleaned_data["password1"])
            request.session["accounts_signup_email"] = form.cleaned_data["email"]
            return redirect("accounts:signup_done")
    return _private(render(request, "accounts/signup.html", {"form": form}))


@never_cache
def signup_done(request):
    email = request.session.get("accounts_signup_email", "")
    return _private(render(request, "accounts/signup_done.html", {"email": email}))


def _user_from(uidb64):
    try:
        pk = force_str(urlsafe_base64_decode(uidb64))
        return get_user_model().objects.get(pk=pk)
    except (TypeError, ValueError, OverflowError, get_user_model().DoesNotExist):
        return None


@require_http_methods(["GET", "POST"])
@never_cache
def confirm(request, uidb64, token):
    """GET shows a button; POST confirms. Mail scanners that open links confirm nothing."""
    user = _user_from(uidb64)
    if user is not None and request.user == user:
        return redirect("accounts:my_area")  # the link clicked twice
    valid = user is not None and confirmation_token.check_token(user, token)
    if request.method == "POST" and valid:
        user.is_active = True
        user.save(update_fields=["is_active"])
        login(request, user, backend=LOGIN_BACKEND)
        messages.success(request, "Willkommen! Dein Konto ist bestätigt und du bist angemeldet.")
        return redirect("accounts:my_area")
    status = 200 if valid else 400
    return _private(render(request, "accounts/confirm.html", {"valid": valid}, status=status))


@require_http_methods(["GET", "POST"])
@never_cache
def resend(request):
    """A new confirmation link; the answer is the same whether the address is known or not."""
    form = ResendForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if services.mail_allowed(request, services.CONFIRMATION_MAILS_PER_IP):
            services.resend_confirmation(request, form.cleaned_data["email"])
        request.session["accounts_signup_email"] = form.cleaned_data["email"]
        return redirect("accounts:signup_done")
    return _private(render(request, "accounts/resend.html", {"form": form}))


class LoginView(auth_views.LoginView):
    template_name = "accounts/login.html"
    form_class = LoginForm
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    template_name = "accounts/logged_out.html"


@method_decorator(never_cache, name="dispatch")
class PasswordResetView(auth_views.PasswordResetView):
    template_name = "accounts/password_reset.html"
    form_class = ResetForm
    email_template_name = "accounts/mail/password_reset.txt"
    subject_template_name = "accounts/mail/password_reset_subject.txt"
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form):
        if not services.mail_allowed(self.request, services.RESET_MAILS_PER_IP):
            # Same answer as always; only no mail goes out.
            return redirect(self.success_url)
        return super().form_valid(form)


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "accounts/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "accounts/password_reset_confirm.html"
    success_url = reverse_lazy("accounts:password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "accounts/password_reset_complete.html"


class PasswordChangeView(auth_views.PasswordChangeView):
    template_name = "accounts/password_change.html"
    success_url = reverse_lazy("accounts:my_area")

    def form_valid(self, form):
        messages.success(self.request, "Dein Passwort ist geändert.")
        return super().form_valid(form)


@login_required
@never_cache
def my_area(request):
    if existing_visitor_id(request) != services.primary_visitor(request.user):
        # A cookie lost or replaced since login (the session outlived it): what this
        # browser did meanwhile joins the account now, as at login.
        adopt_browser(request, request.user)
    context = services.my_area(request.user)
    context["sections"] = rendered_sections(request)
    context["first_vote_points"] = services.FIRST_VOTE_POINTS
    context["report_points"] = services.REPORT_ACCEPTED_POINTS
    context["catalogue_url"] = reverse("games:catalogue")
    return _private(render(request, "accounts/my_area.html", context))


@login_required
@require_safe
@never_cache
def my_data(request):
    """„Meine Daten herunterladen“: everything linked to the account as one JSON file."""
    data = personal_data.export(request.user, request)
    response = JsonResponse(data, json_dumps_params={"ensure_ascii": False, "indent": 2})
    day = timezone.localdate().isoformat()
    response["Content-Disposition"] = f'attachment; filename="kartenregeln-meine-daten-{day}.json"'
    return _private(response)


@login_required
@sensitive_post_parameters("password")
@require_http_methods(["GET", "POST"])
@never_cache
def delete_account(request):
    """The account goes with what is the person's alone; votes and reports stay as anonymous
    contributions, no longer linked to anyone (accounts.personal_data.erase)."""
    form = DeleteAccountForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        personal_data.erase(request.user)
        logout(request)  # also gives this browser a fresh visitor id
        return _private(render(request, "accounts/deleted.html"))
    return _private(render(request, "accounts/delete.html", {"form": form}))
