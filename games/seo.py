"""Structured data (schema.org JSON-LD) for game pages."""

from django.conf import settings


def absolute_url(request, path: str) -> str:
    if request is not None:
        return request.build_absolute_uri(path)
    return settings.SITE_URL.rstrip("/") + path


def last_modified(game, article=None):
    """The later of the game data change and the article's last publication."""
    published_at = getattr(article, "published_at", None)
    return max(game.updated_at, published_at) if published_at else game.updated_at


def game_json_ld(request, game, article=None) -> list[dict]:
    url = absolute_url(request, game.get_absolute_url())
    data = {
        "@context": "https://schema.org",
        "@type": "Game",
        "@id": url + "#spiel",
        "name": game.title,
        "url": url,
        "description": game.short_description,
        "inLanguage": "de",
        "numberOfPlayers": {
            "@type": "QuantitativeValue",
            "minValue": game.players_min,
            "maxValue": game.players_max,
        },
        "typicalAgeRange": f"{game.min_age}-",
        "timeRequired": f"PT{game.duration_minutes}M",
    }
    if game.original_title:
        data["alternateName"] = game.original_title
    if game.article_number:
        data["identifier"] = game.article_number
    if game.year:
        data["datePublished"] = str(game.year)
    if authors := [{"@type": "Person", "name": p.name} for p in game.authors.all()]:
        data["author"] = authors
    if illustrators := [{"@type": "Person", "name": p.name} for p in game.illustrators.all()]:
        data["contributor"] = illustrators
    if publishers := [{"@type": "Organization", "name": p.name} for p in game.publishers.all()]:
        data["publisher"] = publishers
    # Only real votes (annotated by feedback.services.with_vote_stats), never a made-up rating.
    if getattr(game, "vote_count", 0):
        data["aggregateRating"] = {
            "@type": "AggregateRating",
            "ratingValue": round(float(game.vote_average), 1),
            "ratingCount": game.vote_count,
            "bestRating": 5,
            "worstRating": 1,
        }
    page = {
        "@context": "https://schema.org",
        "@type": "WebPage",
        "url": url,
        "name": f"{game.title} – Spielregeln",
        "inLanguage": "de",
        "about": {"@id": url + "#spiel"},
        "dateModified": last_modified(game, article).isoformat(),
    }
    if reviewed := _last_read(article):
        page["lastReviewed"] = reviewed.isoformat()
    breadcrumbs = {
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {
                "@type": "ListItem",
                "position": 1,
                "name": "Spiele",
                "item": absolute_url(request, "/"),
            },
            {"@type": "ListItem", "position": 2, "name": game.title, "item": url},
        ],
    }
    return [data, page, breadcrumbs]


def _last_read(article):
    """When the editors last read a source of the article themselves (None: never)."""
    if article is None:
        return None
    dates = [source.read_on for source in article.sources.all() if source.read_on]
    if article.rulebook_read_on:
        dates.append(article.rulebook_read_on)
    return max(dates, default=None)
