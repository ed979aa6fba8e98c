"""Request hygiene before any view runs, and German bodies for bare error responses."""

from django.contrib.auth.models import AnonymousUser

from site_config import views

NUL = "\x00"


def _has_nul(request) -> bool:
    """A NUL anywhere a value could reach a database query (PostgreSQL rejects it with an error)."""
    if NUL in request.path_info or "%00" in request.META.get("QUERY_STRING", ""):
        return True
    sources = [request.GET, request.COOKIES]
    if request.method == "POST":
        sources.append(request.POST)
    for source in sources:
        items = source.lists() if hasattr(source, "lists") else source.items()
        for key, values in items:
            if NUL in key:
                return True
            for value in values if isinstance(values, list) else [values]:
                if isinstance(value, str) and NUL in value:
                    return True
    return False


class RejectNulMiddleware:
    """Answers 400 for a NUL byte in path, query string, cookies or form data.

    Runs before the session and user are loaded: a forged session cookie with a NUL
    would otherwise reach the session query.
    """

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _has_nul(request):
            request.user = AnonymousUser()
            return views.error_page(
                request,
                400,
                "Die Anfrage enthält ein unzulässiges Steuerzeichen (ein Nullbyte). "
                "Bitte prüfe die Adresse oder die Eingabe.",
            )
        return self.get_response(request)


class GermanErrorBodiesMiddleware:
    """Gives an empty 405 (Django's require_http_methods) a German page, keeping its Allow header."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code == 405 and not response.streaming and not response.content:
            page = views.error_page(request, 405)
            if "Allow" in response:
                page["Allow"] = response["Allow"]
            return page
        return response
