"""Who is asking: an account member (request.user) or a guest (personal link → cookie).

A guest's personal link /spielegruppen/<slug>/ich/<token>/ stores the member token
in one signed cookie (like the visitor cookie of rooms and demos). The cookie holds
tokens, never names; a token alone gives access to one membership of one group.
"""

from django.core import signing

from groups.models import Member

COOKIE_NAME = "spielegruppen"
COOKIE_SALT = "groups.members"
COOKIE_MAX_AGE = 60 * 60 * 24 * 365
# Enough for anyone's groups; the oldest drop out first.
MAX_TOKENS = 30


def cookie_tokens(request) -> list[str]:
    try:
        value = request.get_signed_cookie(COOKIE_NAME, salt=COOKIE_SALT, max_age=COOKIE_MAX_AGE)
    except (KeyError, signing.BadSignature):
        return []
    return [token for token in value.split(":") if token][:MAX_TOKENS]


def current_member(request, group) -> Member | None:
    """The requesting person's membership in ``group`` (cached on the request)."""
    cache = request.__dict__.setdefault("_group_members", {})
    if group.pk in cache:
        return cache[group.pk]
    member = None
    members = Member.objects.filter(group=group).select_related("group")
    if request.user.is_authenticated:
        member = members.filter(user=request.user).first()
    if member is None:
        tokens = cookie_tokens(request)
        if tokens:
            member = members.filter(token__in=tokens).first()
    cache[group.pk] = member
    return member


def remember(request, response, member: Member):
    """Add the member's token to the cookie (the newest first)."""
    tokens = [member.token] + [t for t in cookie_tokens(request) if t != member.token]
    response.set_signed_cookie(
        COOKIE_NAME,
        ":".join(tokens[:MAX_TOKENS]),
        salt=COOKIE_SALT,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="Lax",
        secure=request.is_secure(),
    )
    request.__dict__.setdefault("_group_members", {})[member.group_id] = member
    return response


def forget(request, response, member: Member):
    """Remove the member's token (after leaving the group)."""
    tokens = [t for t in cookie_tokens(request) if t != member.token]
    if tokens:
        response.set_signed_cookie(
            COOKIE_NAME,
            ":".join(tokens),
            salt=COOKIE_SALT,
            max_age=COOKIE_MAX_AGE,
            httponly=True,
            samesite="Lax",
            secure=request.is_secure(),
        )
    else:
        response.delete_cookie(COOKIE_NAME, samesite="Lax")
    return response


def memberships(request):
    """Every membership this request can prove: account memberships and cookie tokens."""
    query = Member.objects.none()
    tokens = cookie_tokens(request)
    if tokens:
        query = Member.objects.filter(token__in=tokens)
    if request.user.is_authenticated:
        query = query | Member.objects.filter(user=request.user)
    return query.select_related("group")
