from django.conf import settings
from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.shortcuts import render
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.csrf import requires_csrf_token
from django.views.decorators.http import require_safe

# Headings and messages of the error pages. The message is also what htmx requests show in
# place (static/js/site.js reads the element marked data-error-message).
ERRORS = {
    400: (
        "Ungültige Anfrage",
        "Diese Anfrage konnten wir nicht verarbeiten: Die Adresse oder die gesendeten Daten sind "
        "fehlerhaft oder zu groß. Bitte prüfe die Eingabe und versuch es noch einmal.",
    ),
    403: (
        "Kein Zugriff",
        "Diese Aktion ist dir nicht erlaubt. Falls du angemeldet sein solltest, melde dich "
        "bitte erneut an.",
    ),
    405: (
        "Nicht möglich",
        "Diese Adresse lässt sich so nicht aufrufen. Bitte öffne die Seite über einen Link "
        "der Website.",
    ),
    429: (
        "Zu viele Anmeldeversuche",
        "",
    ),
    503: (
        "Kurze Wartung – gleich geht es weiter",
        "Ein Teil unserer Technik antwortet gerade nicht, wir kümmern uns darum. Bitte "
        "versuch es in einer Minute noch einmal. Regelseiten, die kürzlich jemand geöffnet "
        "hat, kannst du weiter lesen.",
    ),
    "csrf": (
        "Sitzung abgelaufen",
        "Die Seite war zu lange offen oder dein Browser hat ein nötiges Cookie nicht "
        "mitgeschickt. Bitte lade die Seite neu und versuch es dann noch einmal.",
    ),
}


def error_page(request, status: int, message: str = "", kind=None) -> HttpResponse:
    """A German, site-styled error page; safe to render when the Host header was refused."""
    heading, default_message = ERRORS[kind or status]
    if not hasattr(request, "user"):
        from django.contrib.auth.models import AnonymousUser

        request.user = AnonymousUser()
    context = {"status": status, "heading": heading, "message": message or default_message}
    response = render(request, "error.html", context, status=status)
    response["X-Robots-Tag"] = "noindex"
    response["Cache-Control"] = "no-store"
    return response


@requires_csrf_token
def bad_request(request, exception=None):
    # Covers a refused Host header, too many fields and a body over the size limit.
    return error_page(request, 400)


@requires_csrf_token
def permission_denied(request, exception=None):
    return error_page(request, 403)


def csrf_failure(request, reason=""):
    return error_page(request, 403, kind="csrf")


def maintenance_page(request, retry_after: int) -> HttpResponse:
    """503 while the database is away; touches neither the session nor the database."""
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()  # the lazy user would load the session from the database
    response = error_page(request, 503)
    response["Retry-After"] = str(retry_after)
    return response


def login_locked_out(request, original_response=None, credentials=None):
    """django-axes: the page after too many wrong passwords (AXES_LOCKOUT_CALLABLE)."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    message = (
        "Nach mehreren falschen Passwörtern ist die Anmeldung von deinem Anschluss aus "
        f"für {minutes} Minuten gesperrt – auch mit dem richtigen Passwort. Bitte warte "
        "und versuch es dann noch einmal."
    )
    response = error_page(request, 429, message)
    response["Retry-After"] = str(minutes * 60)
    return response


@require_safe
@cache_control(max_age=86400, public=True)
def robots_txt(request):
    lines = [
        "User-agent: *",
        "Disallow: /admin/",
        f"Sitemap: {request.build_absolute_uri('/sitemap.xml')}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")


@require_safe
def favicon(request):
    # Resolved per request: with the manifest storage the hashed name exists only after collectstatic.
    return HttpResponsePermanentRedirect(static("img/favicon.svg"))
