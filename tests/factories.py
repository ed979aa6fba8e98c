"""Small builders for test data (no factory library needed for these few models)."""

from django.http import HttpResponse

from games.models import Game, Person, Publisher
from games.visitors import COOKIE_NAME, COOKIE_SALT
from rules.models import CommonMistake, RulesArticle, Section, WorkedExample
from rules.publishing import publish


def visitor_cookie(visitor: str) -> str:
    """The value of the cookie that makes a browser ``visitor``, signed as the site signs it."""
    response = HttpResponse()
    response.set_signed_cookie(COOKIE_NAME, visitor, salt=COOKIE_SALT)
    return response.cookies[COOKIE_NAME].value


def make_game(slug="testspiel", published=True, **fields) -> Game:
    defaults = {
        "title": slug.replace("-", " ").title(),
        "short_description": f"Kurzbeschreibung von {slug}.",
        "players_min": 2,
        "players_max": 4,
        "min_age": 8,
        "duration_minutes": 20,
        "is_published": published,
    }
    defaults.update(fields)
    return Game.objects.create(slug=slug, **defaults)


def make_article(game, published=True, sections=("ziel", "ablauf", "beispiel", "irrtuemer")):
    article = RulesArticle.objects.create(
        game=game,
        status=RulesArticle.Status.DRAFT,
        rulebook_title="Spielregel",
        rulebook_publisher="Testverlag",
    )
    for position, kind in enumerate(sections):
        Section.objects.create(
            article=article, kind=kind, body=f"Text zu **{kind}**.", pages="S. 1", position=position
        )
    WorkedExample.objects.create(article=article, title="Ein Beispiel", body="So geht es.")
    CommonMistake.objects.create(article=article, title="Ein Irrtum", body="Falsch gedacht.")
    if published:
        # Readers see the snapshot taken by publishing (rules/publishing.py).
        publish(article)
    return article


def add_people(
    game, authors=("Ada Autorin",), illustrators=("Ivo Illu",), publishers=("Verlag A",)
):
    game.authors.set([Person.objects.get_or_create(name=n)[0] for n in authors])
    game.illustrators.set([Person.objects.get_or_create(name=n)[0] for n in illustrators])
    game.publishers.set([Publisher.objects.get_or_create(name=n)[0] for n in publishers])
