from django.shortcuts import render
from django.views.decorators.http import require_safe

from legal import services
from site_config.page_cache import cached_page


def _legal_page(request, key: str):
    page = services.page(key)
    context = {
        "page": page,
        "body": services.render(page.body),
        "placeholders": page.placeholders() if request.user.is_staff else [],
    }
    return render(request, "legal/page.html", context)


# Cached like the game pages: an editor's change empties the page cache (site_config.
# page_cache_signals), and while the database is away the stored copy is still served.
@require_safe
@cached_page
def impressum(request):
    return _legal_page(request, "impressum")


@require_safe
@cached_page
def datenschutz(request):
    return _legal_page(request, "datenschutz")
