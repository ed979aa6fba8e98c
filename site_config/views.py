from django.http import HttpResponse, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe


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
