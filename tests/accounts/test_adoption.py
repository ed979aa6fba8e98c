"""Login adopts the browser's votes, reports, demo games and seats; other devices merge."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import PointEntry, VisitorLink
from accounts.services import adopt, visitor_ids
from feedback.models import ErrorReport, Vote
from games.models import DemoGame
from rooms.models import Room, Seat
from tests.accounts.conftest import login, new_client, visitor_of, vote

pytestmark = pytest.mark.django_db


def report(game, visitor, message="Die Karte zählt doppelt."):
    return ErrorReport.objects.create(
        game=game, message=message, page_url="http://testserver/", visitor=visitor
    )


def test_first_login_makes_the_browser_id_the_accounts_own(client, reader, game):
    vote(client, game, 4)
    browser = visitor_of(client)
    report(game, browser)
    login(client)
    link = VisitorLink.objects.get(user=reader)
    assert link.visitor == browser and link.is_primary
    assert visitor_of(client) == browser  # nothing changes for this browser
    html = client.get(reverse("accounts:my_area")).content.decode()
    assert "Aus diesem Browser übernommen: eine Bewertung, eine Fehlermeldung und 5 Punkte." in html


def test_first_login_without_a_cookie_starts_a_fresh_id(client, reader):
    login(client)
    primary = VisitorLink.objects.get(user=reader, is_primary=True).visitor
    assert visitor_of(client) == primary


def test_second_device_merges_into_the_primary_id(reader, game, other_game):
    phone, laptop = new_client("198.51.100.1"), new_client("198.51.100.2")
    vote(phone, game, 3)
    login(phone)
    primary = visitor_of(phone)
    vote(laptop, other_game, 5)
    laptop_id = visitor_of(laptop)
    report(other_game, laptop_id)
    DemoGame.objects.create(visitor=laptop_id, engine="takeaway")
    login(laptop)
    # The laptop now is the same visitor as the phone, with everything moved over.
    assert visitor_of(laptop) == primary
    assert set(Vote.objects.values_list("visitor", flat=True)) == {primary}
    assert ErrorReport.objects.get().visitor == primary
    assert DemoGame.objects.get().visitor == primary
    assert set(visitor_ids(reader)) == {primary, laptop_id}
    # And the phone sees the laptop's vote.
    html = phone.get(reverse("accounts:my_area")).content.decode()
    assert "Mondspiel" in html and "Sternspiel" in html


def test_vote_conflict_keeps_the_newer_vote_and_says_so(reader, game):
    phone, laptop = new_client("198.51.100.1"), new_client("198.51.100.2")
    vote(phone, game, 2)
    login(phone)
    vote(laptop, game, 5)
    # Make the phone's vote clearly the older one.
    Vote.objects.filter(stars=2).update(updated_at=timezone.now() - timedelta(days=3))
    response = login(laptop)
    assert response.status_code == 302
    vote_left = Vote.objects.get()  # one vote per game and person
    assert vote_left.stars == 5 and vote_left.visitor == visitor_of(phone)
    html = laptop.get(reverse("accounts:my_area")).content.decode()
    assert "Für „Sternspiel“ gab es zwei Bewertungen von dir" in html
    assert "neuere mit 5 von 5 Sternen" in html


def test_vote_conflict_keeps_the_accounts_vote_when_it_is_newer(reader, game):
    phone, laptop = new_client("198.51.100.1"), new_client("198.51.100.2")
    vote(laptop, game, 1)
    Vote.objects.update(updated_at=timezone.now() - timedelta(days=3))
    vote(phone, game, 4)
    login(phone)
    login(laptop)
    vote_left = Vote.objects.get()
    assert vote_left.stars == 4 and vote_left.visitor == visitor_of(phone)


def test_demo_conflict_keeps_the_game_played_last(reader):
    old = DemoGame.objects.create(visitor="aaa", engine="takeaway", version=7)
    adopt(reader, "aaa")
    newer = DemoGame.objects.create(visitor="bbb", engine="takeaway", version=2)
    DemoGame.objects.filter(pk=old.pk).update(updated_at=timezone.now() - timedelta(days=1))
    adoption = adopt(reader, "bbb")
    assert list(DemoGame.objects.values_list("pk", "visitor")) == [(newer.pk, "aaa")]
    assert adoption.visitor == "aaa" and adoption.demos == 1


def test_seats_move_unless_the_account_sits_in_that_room_already(reader):
    adopt(reader, "aaa")
    shared, other = (
        Room.objects.create(code="r1", engine="takeaway"),
        Room.objects.create(code="r2", engine="takeaway"),
    )
    Seat.objects.create(room=shared, number=0, name="Ich", visitor="aaa")
    Seat.objects.create(room=shared, number=1, name="Ich 2", visitor="bbb")
    Seat.objects.create(room=other, number=0, name="Ich", visitor="bbb")
    adoption = adopt(reader, "bbb")
    assert adoption.seats == 1
    assert set(Seat.objects.filter(room=other).values_list("visitor", flat=True)) == {"aaa"}
    assert set(Seat.objects.filter(room=shared).values_list("visitor", flat=True)) == {"aaa", "bbb"}


def test_an_id_of_another_account_is_never_taken_over(reader, django_user_model, game):
    """A shared computer: the next reader logs in while the first one's cookie is still set."""
    browser = new_client()
    login(browser)
    first_id = visitor_of(browser)
    vote(browser, game, 5)
    browser.cookies.pop("sessionid")  # session gone, visitor cookie left behind
    django_user_model.objects.create_user(
        "zweite@example.org", "zweite@example.org", "Zweites-Konto-99"
    )
    login(browser, "zweite@example.org", "Zweites-Konto-99")
    second_id = visitor_of(browser)
    assert second_id != first_id
    assert VisitorLink.objects.get(visitor=first_id).user == reader
    assert Vote.objects.get().visitor == first_id
    html = browser.get(reverse("accounts:my_area")).content.decode()
    assert "Noch keine Bewertungen" in html


def test_logout_gives_the_browser_a_fresh_id(client, reader, game):
    login(client)
    account_id = visitor_of(client)
    client.post(reverse("accounts:logout"))
    assert visitor_of(client) not in (None, account_id)
    vote(client, game, 3)  # not the account's any more
    assert Vote.objects.get().visitor != account_id


def test_pending_points_are_credited_on_adoption(client, reader, game):
    vote(client, game, 5)  # the game's first vote: +5 waiting on the visitor id
    entry = PointEntry.objects.get()
    assert entry.user is None and entry.points == 5
    login(client)
    entry.refresh_from_db()
    assert entry.user == reader
    html = client.get(reverse("accounts:my_area")).content.decode()
    assert "5 Punkte" in html


def test_adopting_the_same_id_twice_changes_nothing(reader, game):
    adopt(reader, "aaa")
    again = adopt(reader, "aaa")
    assert again.visitor == "aaa" and not again.anything
    assert VisitorLink.objects.count() == 1


def test_a_vote_after_the_cookie_was_lost_joins_the_account_in_my_area(client, reader, game):
    login(client)
    primary = visitor_of(client)
    client.cookies.pop("besucher")  # cleared cookies, but the session lives on
    vote(client, game, 3)
    assert Vote.objects.get().visitor != primary
    html = client.get(reverse("accounts:my_area")).content.decode()
    assert "Sternspiel" in html and "Aus diesem Browser übernommen: eine Bewertung" in html
    assert Vote.objects.get().visitor == primary
    assert visitor_of(client) == primary
