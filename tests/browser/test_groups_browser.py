"""Spielegruppen in two browsers: found a group, a guest joins by the invite link on a phone,
a date poll runs to a fixed date (htmx answers), RSVP, and the .ics download is parsed."""

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from icalendar import Calendar
from playwright.sync_api import expect

from groups.models import DateOption, GameNight, Member, PlayGroup
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, screenshot

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
]

BERLIN = ZoneInfo("Europe/Berlin")


def fits_phone(page):
    """Axe clean and no horizontal scrolling at 390 px."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url
    assert_accessible(page)


@pytest.mark.multiplayer
def test_group_from_founding_to_a_fixed_night_in_two_browsers(browser, live_server, content):
    founder_context = browser.new_context(
        viewport=DESKTOP, locale="de-DE", base_url=live_server.url, accept_downloads=True
    )
    guest_context = browser.new_context(
        viewport=PHONE, locale="de-DE", base_url=live_server.url, has_touch=True, is_mobile=True
    )
    mia, ben = founder_context.new_page(), guest_context.new_page()
    errors = []
    for page in (mia, ben):
        page.on("console", lambda msg: errors.append(msg.text) if msg.type == "error" else None)

    # The list, on both screens.
    ben.goto("/spielegruppen/")
    expect(ben.get_by_role("heading", level=1)).to_have_text("Spielegruppen")
    fits_phone(ben)
    screenshot(ben, "groups-list-phone")
    mia.goto("/spielegruppen/")
    assert_accessible(mia)
    screenshot(mia, "groups-list-desktop")

    # Mia founds a public group.
    mia.get_by_role("link", name="Spielegruppe gründen →").click()
    expect(mia).to_have_url(re.compile("/spielegruppen/neu/$"))
    assert_accessible(mia)
    screenshot(mia, "groups-create-desktop")
    mia.get_by_label("Name der Gruppe").fill("Katzenrunde <Süd>")
    mia.get_by_label("Dein Name in der Gruppe").fill("Mia")
    mia.get_by_label("Beschreibung").fill("Wir spielen Kartenspiele, meistens donnerstags.")
    mia.get_by_label("Region (optional)").fill("Leipzig-Süd")
    mia.get_by_label("Öffentlich auflisten").check()
    mia.get_by_label("The Cat").check()
    mia.get_by_role("button", name="Gruppe gründen").click()
    expect(mia.get_by_role("heading", level=1)).to_have_text("Katzenrunde <Süd>")
    expect(mia.locator(".group-welcome")).to_contain_text("Eure Spielegruppe ist gegründet")
    assert_accessible(mia)
    screenshot(mia, "groups-detail-founder-desktop")
    invite = mia.get_by_role("textbox", name="Einladungslink").input_value()
    group = PlayGroup.objects.get()
    assert invite.endswith(group.get_invite_url())

    # Ben joins on his phone with the invite link, as a guest.
    ben.goto(invite)
    expect(ben.get_by_role("heading", level=1)).to_contain_text("Katzenrunde <Süd>")
    fits_phone(ben)
    screenshot(ben, "groups-join-phone")
    ben.get_by_label("Dein Name in der Gruppe").fill("Ben")
    ben.get_by_role("button", name="Beitreten").click()
    expect(ben.locator(".group-welcome")).to_contain_text("Willkommen, Ben!")
    ben_member = Member.objects.get(name="Ben")
    expect(ben.get_by_role("textbox", name="Persönlicher Link")).to_have_value(
        re.compile(re.escape(ben_member.get_personal_url()) + "$")
    )
    fits_phone(ben)
    screenshot(ben, "groups-detail-guest-phone")

    # Mia proposes three dates.
    mia.reload()
    expect(mia.locator("#mitglieder")).to_contain_text("Ben")
    mia.get_by_role("link", name="Spieleabend planen").click()
    starts = [
        (datetime.now(BERLIN) + timedelta(days=days)).replace(
            hour=19, minute=30, second=0, microsecond=0
        )
        for days in (5, 6, 12)
    ]
    for number, start in enumerate(starts, 1):
        mia.get_by_label(f"Termin {number}", exact=True).fill(start.strftime("%Y-%m-%dT%H:%M"))
    mia.get_by_label("Titel").fill("Katzenabend")
    mia.get_by_label("The Cat").check()
    assert_accessible(mia)
    screenshot(mia, "groups-night-form-desktop")
    mia.get_by_role("button", name="Abstimmung starten").click()
    expect(mia.get_by_role("heading", name="Wann passt es dir?")).to_be_visible()
    night = GameNight.objects.get()
    options = list(DateOption.objects.filter(night=night))
    assert [o.starts_at for o in options] == starts

    # Ben answers in the table; htmx swaps only the row.
    ben.goto(night.get_absolute_url())
    second_row = ben.locator(f"#termin-{options[1].pk}")
    ben.evaluate("window.__samePage = true")
    second_row.get_by_role("button", name="ja").click()
    expect(second_row.get_by_role("button", name="ja")).to_have_attribute("aria-pressed", "true")
    expect(second_row).to_contain_text("ja: Ben")
    # The whole table was swapped (the „am besten“ mark may move); focus stays on the button.
    expect(second_row.get_by_role("button", name="ja")).to_be_focused()
    expect(ben.locator("#poll-status")).to_contain_text("Gespeichert: ja für")
    expect(second_row).to_contain_text("am besten")
    ben.locator(f"#termin-{options[0].pk}").get_by_role("button", name="nein").click()
    expect(ben.locator(f"#termin-{options[0].pk}")).to_contain_text("nein: Ben")
    assert ben.evaluate("window.__samePage === true")  # no reload
    fits_phone(ben)
    screenshot(ben, "groups-poll-phone")

    # Mia sees the answers and fixes the best date.
    mia.reload()
    mia_row = mia.locator(f"#termin-{options[1].pk}")
    expect(mia_row).to_contain_text("am besten")
    mia_row.get_by_role("button", name="ja").click()
    expect(mia_row).to_contain_text("ja: Ben, Mia")
    assert_accessible(mia)
    screenshot(mia, "groups-poll-desktop")
    mia_row.get_by_role("button", name=re.compile("^Festlegen")).click()
    expect(mia.locator(".night-fixed__when")).to_contain_text(starts[1].strftime("%d.").lstrip("0"))
    expect(mia.locator("#zusage")).to_contain_text("Du hast zugesagt.")
    expect(mia.locator(".night-game")).to_contain_text("The Cat")
    expect(
        mia.get_by_role("link", name=re.compile("Kartenhüllen für diese Spiele"))
    ).to_have_attribute("href", "/sleeve-finder/?spiele=the-cat")
    assert_accessible(mia)
    screenshot(mia, "groups-night-fixed-desktop")

    # The .ics download parses and carries the fixed date.
    with mia.expect_download() as download_info:
        mia.get_by_role("link", name="In den Kalender (.ics)").click()
    download = download_info.value
    assert download.suggested_filename == f"spieleabend-{starts[1]:%Y-%m-%d}.ics"
    with open(download.path(), "rb") as ics:
        (event,) = Calendar.from_ical(ics.read()).walk("VEVENT")
    assert event["DTSTART"].dt == starts[1]
    assert str(event["SUMMARY"]) == "Katzenabend – Katzenrunde <Süd>"
    assert "Spiele: The Cat" in str(event["DESCRIPTION"])
    assert str(event["UID"]).startswith(str(night.uid))

    # Ben was counted as coming (he said „ja“); he cancels with htmx.
    ben.reload()
    expect(ben.locator("#zusage")).to_contain_text("Du hast zugesagt.")
    ben.get_by_role("button", name="Absagen").click()
    expect(ben.locator("#zusage")).to_contain_text("Du hast abgesagt.")
    expect(ben.locator("#zusage")).to_contain_text("Nicht dabei (1)")
    fits_phone(ben)
    screenshot(ben, "groups-night-fixed-phone")

    # The group page lists the night on both screens; the public list shows the group.
    ben.goto(group.get_absolute_url())
    expect(ben.locator(".night-list")).to_contain_text("Katzenabend")
    fits_phone(ben)
    mia.goto("/spielegruppen/")
    expect(mia.locator(".group-card")).to_contain_text("Leipzig-Süd")
    expect(mia.locator(".group-card")).to_contain_text("2 Mitglieder")
    # „Mitspieler finden“ on the game page names the public group (groups.selectors).
    mia.goto("/spiele/the-cat/")
    expect(mia.locator("#mitspieler")).to_contain_text("Katzenrunde <Süd>")

    # Forms at phone width too.
    for path in ("/spielegruppen/neu/",):
        ben.goto(path)
        fits_phone(ben)
    screenshot(ben, "groups-create-phone")
    founder_on_phone = browser.new_context(
        viewport=PHONE, locale="de-DE", base_url=live_server.url
    ).new_page()
    founder_on_phone.goto(Member.objects.get(name="Mia").get_personal_url())
    founder_on_phone.goto(f"/spielegruppen/{group.slug}/abende/neu/")
    fits_phone(founder_on_phone)
    screenshot(founder_on_phone, "groups-night-form-phone")
    founder_on_phone.goto(group.get_absolute_url())
    fits_phone(founder_on_phone)
    screenshot(founder_on_phone, "groups-detail-founder-phone")
    founder_on_phone.context.close()
    founder_context.close()
    guest_context.close()
    assert errors == []


def check(viewport, page):
    if viewport is PHONE:
        fits_phone(page)
    else:
        assert_accessible(page)


def test_other_group_pages_on_a_phone_and_desktop(browser, live_server, content, django_user_model):
    """The pages the main flow does not visit: a public group seen by a stranger, the edit
    forms, a refusal, a night's edit form and „Meine Spielegruppen“ – axe clean, no overflow."""
    from games.models import Game
    from groups import services

    games = list(Game.objects.published())
    group, founder = services.create_group(
        user=None,
        founder_name="Mia",
        games=games,
        name="Kartenclub im Café Würfelglück mit einem langen Namen",
        description="Alle zwei Wochen, Neue willkommen. " * 6,
        region="Hamburg-Altona",
        is_public=True,
    )
    user = django_user_model.objects.create_user("lea@example.org", password="Kartenhaus-2026!")
    lea = Member.objects.create(group=group, name="Lea", user=user)
    start = (datetime.now(BERLIN) + timedelta(days=4)).replace(hour=19, minute=0, second=0)
    night = services.create_night(founder, group, starts=[start], games=games, title="Abend")

    for viewport, suffix in ((PHONE, "phone"), (DESKTOP, "desktop")):
        stranger = browser.new_context(viewport=viewport, base_url=live_server.url).new_page()
        stranger.goto(group.get_absolute_url())
        expect(stranger.locator(".notice")).to_contain_text("Einladungslink")
        check(viewport, stranger)
        screenshot(stranger, f"groups-public-stranger-{suffix}")
        stranger.context.close()

        mia = browser.new_context(viewport=viewport, base_url=live_server.url).new_page()
        mia.goto(founder.get_personal_url())
        for path, name in (
            (f"/spielegruppen/{group.slug}/bearbeiten/", "edit"),
            (f"{night.get_absolute_url()}bearbeiten/", "night-edit"),
        ):
            mia.goto(path)
            expect(mia.get_by_role("heading", level=1)).to_contain_text("bearbeiten")
            check(viewport, mia)
            screenshot(mia, f"groups-{name}-{suffix}")
        mia.context.close()

        reader = browser.new_context(viewport=viewport, base_url=live_server.url).new_page()
        reader.goto("/konto/anmelden/")
        reader.locator("input[name=username]").fill("lea@example.org")
        reader.locator("input[name=password]").fill("Kartenhaus-2026!")
        reader.locator("input[name=password]").press("Enter")
        reader.wait_for_url(re.compile("/mein-bereich/"))
        section = reader.locator(".my-area__section--spielegruppen")
        expect(section).to_contain_text(group.name)
        expect(section).to_contain_text("Abend")
        check(viewport, reader)
        # A plain member is refused the organisers' pages, in German.
        reader.goto(f"/spielegruppen/{group.slug}/bearbeiten/")
        expect(reader.get_by_role("heading", level=1)).to_have_text("Das geht leider nicht")
        check(viewport, reader)
        screenshot(reader, f"groups-refused-{suffix}")
        reader.context.close()
    assert lea.user == user
