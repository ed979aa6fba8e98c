"""Game nights: proposing dates, the poll (plain and htmx), fixing, RSVP, .ics and the feed."""

from datetime import UTC, timedelta

import pytest
from django.test import Client
from django.urls import reverse
from icalendar import Calendar

from games import clock
from groups import services
from groups.models import Answer, GameNight, Rsvp
from tests.factories import make_game
from tests.groups.conftest import Person, add_member, in_days

pytestmark = pytest.mark.django_db


def plan_night(group, founder, games=(), days=(3, 4, 5), **fields):
    fields.setdefault("title", "Spieleabend")
    fields.setdefault("duration_minutes", 180)
    return services.create_night(
        founder, group, starts=[in_days(d) for d in days], games=games, **fields
    )


def urls(night, option=None):
    args = [night.group.slug, night.pk]
    return {
        "night": night.get_absolute_url(),
        "fix": reverse("groups:fix", args=args),
        "rsvp": reverse("groups:rsvp", args=args),
        "ics": reverse("groups:night_ics", args=args),
        "edit": reverse("groups:night_edit", args=args),
        "delete": reverse("groups:night_delete", args=args),
        "answer": reverse("groups:answer", args=[*args, option.pk]) if option else None,
    }


def test_organiser_proposes_dates_through_the_form(group, games):
    group, founder = group
    mia = Person(founder)
    first, second = in_days(3), in_days(10, hour=18)
    response = mia.client.post(
        reverse("groups:night_create", args=[group.slug]),
        {
            "title": "Katzenabend",
            "place": "bei Mia",
            "duration_minutes": "240",
            "note": "",
            "games": [games[0].pk],
            "termin_1": first.astimezone(clock.now().tzinfo).strftime("%Y-%m-%dT%H:%M"),
            "termin_2": second.strftime("%Y-%m-%dT%H:%M"),
            "termin_3": "",
        },
    )
    night = GameNight.objects.get()
    assert response.status_code == 302 and response["Location"] == night.get_absolute_url()
    assert night.title == "Katzenabend" and night.duration_minutes == 240
    assert night.created_by == founder
    assert night.options.count() == 2
    assert [g.slug for g in night.games.all()] == ["the-cat"]


def test_night_form_refuses_past_dates_and_no_dates(group):
    group, founder = group
    mia = Person(founder)
    url = reverse("groups:night_create", args=[group.slug])
    past = (clock.now() - timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    html = mia.client.post(url, {"title": "X", "duration_minutes": "180", "termin_1": past})
    assert "in der Vergangenheit" in html.content.decode()
    html = mia.client.post(url, {"title": "X", "duration_minutes": "180"})
    assert "mindestens einen Termin" in html.content.decode()
    assert not GameNight.objects.exists()


def test_unpublished_games_cannot_be_chosen(group):
    group, founder = group
    draft = make_game("entwurf", published=False)
    response = Person(founder).client.post(
        reverse("groups:night_create", args=[group.slug]),
        {
            "title": "X",
            "duration_minutes": "180",
            "games": [draft.pk],
            "termin_1": in_days(2).strftime("%Y-%m-%dT%H:%M"),
        },
    )
    assert response.status_code == 200
    assert "nicht im Katalog" in response.content.decode()


def test_night_pages_are_for_members_only(group):
    group, founder = group
    night = plan_night(group, founder)
    assert Client().get(night.get_absolute_url()).status_code == 404
    response = Person(founder).client.get(night.get_absolute_url())
    assert response.status_code == 200
    assert 'content="noindex, nofollow"' in response.content.decode()


def test_poll_answers_plain_form(group):
    group, founder = group
    night = plan_night(group, founder)
    option = night.options.first()
    ben = Person(add_member(group, "Ben"))
    response = ben.client.post(urls(night, option)["answer"], {"antwort": "ja"})
    assert response.status_code == 302
    assert response["Location"] == f"{night.get_absolute_url()}#termin-{option.pk}"
    assert Answer.objects.get().value == "ja"
    # Changing the answer keeps one row.
    ben.client.post(urls(night, option)["answer"], {"antwort": "vielleicht"})
    assert Answer.objects.get().value == "vielleicht"
    html = ben.client.get(night.get_absolute_url()).content.decode()
    assert "vielleicht:</span> Ben" in html


def test_poll_answer_with_htmx_returns_the_row(group):
    group, founder = group
    night = plan_night(group, founder)
    option = night.options.first()
    ben = Person(add_member(group, "Ben"))
    response = ben.client.post(
        urls(night, option)["answer"], {"antwort": "nein"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="poll-body" class="poll-wrap">')
    assert "<html" not in html
    row = html[html.index(f'id="termin-{option.pk}"') :].split("</tr>")[0]
    assert 'value="nein" aria-pressed="true"' in row
    assert 'value="ja" aria-pressed="false"' in row
    assert "nein:</span> Ben" in row
    assert "gespeichert" in row
    assert html.count("<tr ") == 3  # every row: the „am besten“ mark may move
    assert 'id="poll-status" class="visually-hidden" role="status" hx-swap-oob="true">' in html
    assert "Gespeichert: nein für" in html
    assert "HX-Request" in response["Vary"]


def test_poll_answer_refusals(group):
    group, founder = group
    night = plan_night(group, founder)
    option = night.options.first()
    ben = Person(add_member(group, "Ben"))
    assert ben.client.post(urls(night, option)["answer"], {"antwort": "klar"}).status_code == 403
    assert Client().post(urls(night, option)["answer"], {"antwort": "ja"}).status_code == 404
    assert ben.client.get(urls(night, option)["answer"]).status_code == 405
    # An option of another group's night is not found through this group.
    other_group, other_founder = services.create_group(
        user=None, founder_name="X", name="Andere", is_public=True
    )
    other_night = plan_night(other_group, other_founder)
    foreign = reverse("groups:answer", args=[group.slug, night.pk, other_night.options.first().pk])
    assert ben.client.post(foreign, {"antwort": "ja"}).status_code == 404
    assert not Answer.objects.exists()


def test_best_option_is_marked(group):
    group, founder = group
    night = plan_night(group, founder)
    first, second, third = night.options.all()
    ben, cem = add_member(group, "Ben"), add_member(group, "Cem")
    services.answer(ben, second, "ja")
    services.answer(cem, second, "ja")
    services.answer(ben, first, "ja")
    services.answer(cem, first, "vielleicht")
    html = Person(founder).client.get(night.get_absolute_url()).content.decode()
    row = html[html.index(f'id="termin-{second.pk}"') - 20 :][:200]
    assert "is-best" in row
    assert html.count("am besten</span>") == 1


def test_fixing_a_date_prefills_rsvp_and_closes_the_poll(group):
    group, founder = group
    night = plan_night(group, founder)
    option = night.options.all()[1]
    ben, cem, dora = add_member(group, "Ben"), add_member(group, "Cem"), add_member(group, "Dora")
    services.answer(ben, option, "ja")
    services.answer(cem, option, "nein")
    services.answer(dora, option, "vielleicht")

    # Only organisers fix a date.
    assert Person(ben).client.post(urls(night)["fix"], {"termin": option.pk}).status_code == 403
    mia = Person(founder)
    assert mia.client.post(urls(night)["fix"], {"termin": "999999"}).status_code == 403
    response = mia.client.post(urls(night)["fix"], {"termin": option.pk})
    assert response.status_code == 302
    night.refresh_from_db()
    assert night.fixed_option == option and night.sequence == 1
    assert {(r.member.name, r.attending) for r in Rsvp.objects.all()} == {
        ("Ben", True),
        ("Cem", False),
    }
    html = mia.client.get(night.get_absolute_url()).content.decode()
    assert "Termin steht" in html and "Bist du dabei?" in html
    assert "Dabei (1)" in html and "Nicht dabei (1)" in html
    # The poll is closed now.
    answer_url = urls(night, option)["answer"]
    assert Person(dora).client.post(answer_url, {"antwort": "ja"}).status_code == 403
    # Reopening brings the poll back.
    mia.client.post(urls(night)["fix"], {"termin": "offen"})
    night.refresh_from_db()
    assert night.fixed_option is None
    assert "Wann passt es dir?" in mia.client.get(night.get_absolute_url()).content.decode()


def test_rsvp_plain_and_htmx(group):
    group, founder = group
    night = plan_night(group, founder)
    ben = Person(add_member(group, "Ben"))
    # No RSVP before a date is fixed.
    assert ben.client.post(urls(night)["rsvp"], {"zusage": "ja"}).status_code == 403
    services.fix_date(founder, night, night.options.first())
    response = ben.client.post(urls(night)["rsvp"], {"zusage": "ja"})
    assert response.status_code == 302 and response["Location"].endswith("#zusage")
    assert Rsvp.objects.get(member=ben.member).attending is True
    response = ben.client.post(
        urls(night)["rsvp"], {"zusage": "nein"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert html.lstrip().startswith('<div id="zusage"') and "<html" not in html
    assert "Du hast abgesagt." in html and "Nicht dabei (1)" in html
    assert Rsvp.objects.get(member=ben.member).attending is False
    assert ben.client.post(urls(night)["rsvp"], {"zusage": "egal"}).status_code == 403
    assert Client().post(urls(night)["rsvp"], {"zusage": "ja"}).status_code == 404


def test_night_links_rules_demo_and_sleeve_finder(group):
    group, founder = group
    cat = make_game("katze", title="Katze", demo_engine="kaetzchen")
    alpaka = make_game("lama", title="Lama")
    night = plan_night(group, founder, games=[cat, alpaka])
    html = Person(founder).client.get(night.get_absolute_url()).content.decode()
    assert 'href="/spiele/katze/"' in html and 'href="/spiele/lama/"' in html
    assert 'href="/spiele/katze/demo/"' in html
    assert 'href="/spiele/lama/demo/"' not in html
    assert (
        "/sleeve-finder/?spiele=katze,lama" in html or "/sleeve-finder/?spiele=lama,katze" in html
    )


def test_edit_and_delete_night_only_for_organisers(group, games):
    group, founder = group
    night = plan_night(group, founder)
    ben = Person(add_member(group, "Ben"))
    data = {"title": "Neu", "duration_minutes": "120", "games": [games[1].pk]}
    assert ben.client.post(urls(night)["edit"], data).status_code == 403
    assert ben.client.post(urls(night)["delete"]).status_code == 403
    mia = Person(founder)
    assert mia.client.post(urls(night)["edit"], data).status_code == 302
    night.refresh_from_db()
    assert night.title == "Neu" and night.duration_minutes == 120
    assert [g.slug for g in night.games.all()] == ["alpaka"]
    mia.client.post(urls(night)["delete"])
    assert not GameNight.objects.exists()


# Calendar ---------------------------------------------------------------------


def _event(body: bytes):
    calendar = Calendar.from_ical(body)
    events = list(calendar.walk("VEVENT"))
    return calendar, events


def test_night_ics_parses_with_all_fields(group):
    group, founder = group
    cat = make_game("katze", title="Katze; mit, Sonderzeichen")
    long_note = "Bitte bringt Snacks mit. " * 8
    night = plan_night(
        group, founder, games=[cat], title="Katzenabend", place="bei Mia, 3. Stock", note=long_note
    )
    option = night.options.first()
    mia = Person(founder)
    assert mia.client.get(urls(night)["ics"]).status_code == 404  # no date fixed yet
    services.fix_date(founder, night, option)

    assert Client().get(urls(night)["ics"]).status_code == 404  # members only
    response = mia.client.get(urls(night)["ics"])
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    assert response["Content-Disposition"].startswith('attachment; filename="spieleabend-')
    body = response.content
    # RFC 5545: CRLF line ends, no line longer than 75 octets, commas and semicolons escaped.
    lines = body.split(b"\r\n")
    assert all(len(line) <= 75 for line in lines)
    assert b"Katze\\; mit\\, Sonderzeichen" in body.replace(b"\r\n ", b"")
    calendar, events = _event(body)
    assert calendar["VERSION"] == "2.0" and calendar["PRODID"]
    (event,) = events
    assert event["UID"] == f"{night.uid}@testserver"
    assert event["DTSTAMP"].dt.tzinfo is not None
    assert event["DTSTART"].dt == option.starts_at
    assert event["DTSTART"].dt.utcoffset() == timedelta(0)  # written in UTC
    assert event["DTEND"].dt - event["DTSTART"].dt == timedelta(minutes=180)
    assert str(event["SUMMARY"]) == "Katzenabend – Donnerstagsrunde"
    description = str(event["DESCRIPTION"])
    assert "Spiele: Katze; mit, Sonderzeichen" in description
    assert "Regeln Katze; mit, Sonderzeichen: http://testserver/spiele/katze/" in description
    assert long_note.strip() in description
    assert str(event["URL"]) == f"http://testserver{night.get_absolute_url()}"
    assert str(event["LOCATION"]) == "bei Mia, 3. Stock"
    assert int(event["SEQUENCE"]) == 1


def test_calendar_subscription_needs_the_token(group):
    group, founder = group
    fixed = plan_night(group, founder, title="Fest")
    services.fix_date(founder, fixed, fixed.options.first())
    plan_night(group, founder, title="Offen")
    url = group.get_calendar_url()
    wrong = url.replace(group.calendar_token, "x" * len(group.calendar_token))
    assert Client().get(wrong).status_code == 404
    assert Client().get(url.replace(".ics", "")).status_code == 404
    response = Client().get(url)  # calendar apps send no cookies
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    calendar, events = _event(response.content)
    assert [str(e["SUMMARY"]) for e in events] == ["Fest – Donnerstagsrunde"]
    assert str(calendar["X-WR-CALNAME"]) == "Donnerstagsrunde – Spieleabende"
    assert events[0]["DTSTART"].dt.astimezone(UTC) == fixed.options.first().starts_at
    # A renewed token ends the old subscription.
    services.renew_calendar(founder, group)
    assert Client().get(url).status_code == 404


def test_calendar_url_is_shown_to_members(group):
    group, founder = group
    ben = Person(add_member(group, "Ben"))
    html = ben.client.get(group.get_absolute_url()).content.decode()
    assert group.calendar_token in html
    assert "Neue Kalender-Adresse erzeugen" not in html  # organisers only


def test_upcoming_nights_for_my_area(group, django_user_model):
    group, founder = group
    user = django_user_model.objects.create_user("lea", password="pw-geheim-123")
    lea = add_member(group, "Lea", user=user)
    fixed = plan_night(group, founder, title="Fest", days=(2,))
    services.fix_date(founder, fixed, fixed.options.first())
    plan_night(group, founder, title="Umfrage", days=(9, 10))
    past = plan_night(group, founder, title="Vorbei", days=(1,))
    services.fix_date(founder, past, past.options.first())
    from groups.selectors import groups_of_user

    later = in_days(1, hour=23)  # after „Vorbei“ (19–22 h), before „Fest“
    (membership,) = groups_of_user(user, now=later)
    assert membership == lea
    assert [n.title for n in membership.next_nights] == ["Fest", "Umfrage"]
    assert groups_of_user(type("Anon", (), {"is_authenticated": False})()) == []


def test_organiser_adds_an_option_while_the_poll_is_open(group):
    group, founder = group
    night = plan_night(group, founder, days=(3,))
    url = reverse("groups:add_option", args=[group.slug, night.pk])
    new = in_days(6).strftime("%Y-%m-%dT%H:%M")
    ben = Person(add_member(group, "Ben"))
    assert ben.client.post(url, {"termin": new}).status_code == 403
    mia = Person(founder)
    response = mia.client.post(url, {"termin": new})
    assert response.status_code == 302
    assert night.options.count() == 2
    assert mia.client.post(url, {"termin": new}).status_code == 403  # the same time twice
    assert mia.client.post(url, {"termin": "gestern"}).status_code == 403
    services.fix_date(founder, night, night.options.first())
    later = in_days(9).strftime("%Y-%m-%dT%H:%M")
    response = mia.client.post(url, {"termin": later})
    assert response.status_code == 403 and "steht schon fest" in response.content.decode()
    assert night.options.count() == 2


def test_poll_names_who_has_not_answered(group):
    group, founder = group
    night = plan_night(group, founder)
    ben = add_member(group, "Ben")
    add_member(group, "Cem")
    services.answer(ben, night.options.first(), "ja")
    html = Person(founder).client.get(night.get_absolute_url()).content.decode()
    assert "Noch nicht abgestimmt: Cem, Mia" in html


def test_a_double_click_keeps_one_answer(group, monkeypatch):
    from django.db import IntegrityError

    group, founder = group
    night = plan_night(group, founder)
    option = night.options.first()
    services.answer(founder, option, "ja")

    def lost_race(**kwargs):  # the other request inserted first
        raise IntegrityError("one_answer_per_option")

    monkeypatch.setattr(Answer.objects, "update_or_create", lost_race)
    assert services.answer(founder, option, "nein").value == "nein"
    assert Answer.objects.filter(option=option).count() == 1
