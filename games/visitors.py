"""An anonymous visitor id in a signed cookie.

Demos key their database row by this id. A signed cookie costs no database query
per request (unlike the session table) and cannot be forged into another
visitor's id.
"""

import secrets

from django.core import signing

COOKIE_NAME = "besucher"
COOKIE_SALT = "games.visitor"
COOKIE_MAX_AGE = 60 * 60 * 24 * 365


def existing_visitor_id(request) -> str | None:
    """The visitor id from the cookie, without creating one."""
    try:
        return request.get_signed_cookie(COOKIE_NAME, salt=COOKIE_SALT, max_age=COOKIE_MAX_AGE)
    except (KeyError, signing.BadSignature):
        return None


def new_visitor_id() -> str:
    return secrets.token_urlsafe(18)


def visitor_id(request) -> str:
    """The request's visitor id; a fresh one is created (and later set) when missing."""
    cached = getattr(request, "_visitor_id", None)
    if cached:
        return cached
    value = existing_visitor_id(request)
    request._visitor_id_is_new = value is None
    request._visitor_id = value or new_visitor_id()
    return request._visitor_id


def switch_visitor(request, value: str, is_new: bool = False) -> None:
    """From this response on, the browser is visitor ``value`` (login and logout switch)."""
    request._visitor_id = value
    request._visitor_id_is_new = is_new
    request._visitor_id_switched = True


def is_new_visitor(request) -> bool:
    """True when this request invented the visitor id (so nothing can be stored for it yet)."""
    visitor_id(request)
    return request._visitor_id_is_new


def remember_visitor(request, response):
    """Set the cookie when this request created the id (``VisitorCookieMiddleware``).

    Pages with a demo ask for the id on GET too: otherwise two requests fired
    at once before the first answer (e.g. "Auto" and a flip) would each invent one.
    """
    # Only set when visitor_id() invented the id, or switch_visitor() changed it.
    if getattr(request, "_visitor_id_is_new", False) or getattr(
        request, "_visitor_id_switched", False
    ):
        response.set_signed_cookie(
            COOKIE_NAME,
            request._visitor_id,
            salt=COOKIE_SALT,
            max_age=COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    return response


class VisitorCookieMiddleware:
    """Sets the visitor cookie on every response whose request created a visitor id."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return remember_visitor(request, self.get_response(request))
