"""Spielegruppen: listing, visibility, founding, invites, roles, limits, privacy."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from groups import selectors, services
from groups.models import GameNight, Member, PlayGroup
from tests.factories import make_game
from tests.groups.conftest import Person, add_member, in_days, make_group

pytestmark = pytest.mark.django_db

XSS = '<script>alert("x")</script>'


def new_group_data(**fields):
    data = {
        "name": "Kartenclub Nord",
        "founder_name": "Ada",
        "description": "Jeden zweiten Freitag.",
        "region": "Hamburg",
        "is_public": "on",
    }
    data.update(fields)
    return data


# Listing, sitemap, selector ---------------------------------------------------


def test_list_shows_public_groups_with_region_games_and_size(client, games):
    group, _ = make_group("Öffentliche Runde", games=games)
    add_member(group, "Ben")
    make_group("Geheime Runde", public=False)
    make_group("Ausgeblendete Runde", hidden=True)

    response = client.get("/spielegruppen/")
    html = response.content.decode()
    assert response.status_code == 200
    assert "Öffentliche Runde" in html and "Leipzig-Süd" in html
    assert "2 Mitglieder" in html
    assert "The Cat" in html and "Alpaka" in html
    assert 'href="/spielegruppen/neu/"' in html
    assert "Geheime Runde" not in html
    assert "Ausgeblendete Runde" not in html


def test_list_does_not_show_unpublished_games(client):
    draft = make_game("entwurf", title="Geheimer Entwurf", published=False)
    make_group("Runde", games=[draft])
    assert "Geheimer Entwurf" not in client.get("/spielegruppen/").content.decode()


def test_sitemap_lists_only_public_visible_groups(client, games):
    public, _ = make_group("Offen")
    private, _ = make_group("Privat", public=False)
    hidden, _ = make_group("Versteckt", hidden=True)
    xml = client.get("/sitemap.xml").content.decode()
    assert public.get_absolute_url() in xml
    assert private.get_absolute_url() not in xml
    assert hidden.get_absolute_url() not in xml


def test_public_groups_playing_a_game(games):
    cat, alpaka = games
    by_group, _ = make_group("Katzenrunde", games=[cat])
    by_night, founder = make_group("Alpakarunde")
    night = GameNight.objects.create(group=by_night, created_by=founder)
    night.games.set([cat])
    make_group("Private Katzen", public=False, games=[cat])
    make_group("Versteckte Katzen", hidden=True, games=[cat])
    make_group("Nur Alpaka", games=[alpaka])
    add_member(by_group, "Ben")

    found = list(selectors.public_groups_playing(cat))
    assert [g.name for g in found] == ["Katzenrunde", "Alpakarunde"]  # bigger group first
    assert found[0].member_count == 2
    assert [g.name for g in selectors.public_groups_playing(cat, limit=1)] == ["Katzenrunde"]
    assert [g.title for g in found[0].games.all()] == ["The Cat"]


# Visibility -------------------------------------------------------------------


def test_private_group_is_404_for_strangers_and_noindex_for_members(group):
    private, founder = make_group("Privat", public=False)
    assert Client().get(private.get_absolute_url()).status_code == 404
    mia = Person(founder)
    response = mia.client.get(private.get_absolute_url())
    assert response.status_code == 200
    assert '<meta name="robots" content="noindex, nofollow">' in response.content.decode()
    assert response["X-Robots-Tag"] == "noindex, nofollow"
    assert "no-store" in response["Cache-Control"]


def test_public_group_shows_strangers_no_members_links_or_nights(group):
    group, founder = group
    add_member(group, "Bernadette")
    response = Client().get(group.get_absolute_url())
    html = response.content.decode()
    assert response.status_code == 200
    assert "Donnerstagsrunde" in html and "2 Mitglieder" in html
    assert "Bernadette" not in html and "Mia" not in html
    assert group.invite_token not in html and group.calendar_token not in html
    assert "noindex" not in html


def test_hidden_group_is_404_for_strangers_but_members_keep_it(group):
    group, founder = group
    group.is_hidden = True
    group.save()
    assert Client().get(group.get_absolute_url()).status_code == 404
    # The invite link stops working too.
    assert Client().get(group.get_invite_url()).status_code == 404
    response = Person(founder).client.get(group.get_absolute_url())
    assert response.status_code == 200
    assert "ausgeblendet" in response.content.decode()
    assert selectors.public_groups_playing(group.games.first()).count() == 0


# Founding ---------------------------------------------------------------------


def test_create_group_as_guest_makes_founder_and_remembers_them(client, games):
    response = client.post("/spielegruppen/neu/", new_group_data(games=[games[0].pk, games[1].pk]))
    group = PlayGroup.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/spielegruppen/{group.slug}/?neu=1"
    assert group.slug == "kartenclub-nord" and group.is_public
    assert {g.slug for g in group.games.all()} == {"the-cat", "alpaka"}
    founder = group.members.get()
    assert founder.role == Member.Role.FOUNDER and founder.user is None
    page = client.get(response["Location"]).content.decode()
    assert "Eure Spielegruppe ist gegründet" in page
    assert group.invite_token in page  # the founder sees the invite link
    assert founder.token in page  # and the personal link


def test_create_form_page_and_errors(client, db):
    assert client.get("/spielegruppen/neu/").status_code == 200
    response = client.post("/spielegruppen/neu/", new_group_data(name="", founder_name=""))
    assert response.status_code == 200
    assert "Bitte gib der Gruppe einen Namen." in response.content.decode()
    assert not PlayGroup.objects.exists()


def test_groups_are_private_unless_ticked(client, db):
    client.post("/spielegruppen/neu/", new_group_data(is_public=""))
    assert PlayGroup.objects.get().is_public is False


def test_reserved_and_duplicate_slugs(db):
    assert make_group("Neu")[0].slug == "neu-gruppe"
    assert make_group("Runde")[0].slug == "runde"
    assert make_group("Runde")[0].slug == "runde-2"
    assert make_group("Größte Runde Süd")[0].slug == "groesste-runde-sued"


def test_everything_typed_is_escaped(client, db):
    client.post(
        "/spielegruppen/neu/",
        new_group_data(name=f"Runde {XSS}", founder_name=XSS, description=XSS, region=XSS),
    )
    group = PlayGroup.objects.get()
    for url in ("/spielegruppen/", group.get_absolute_url()):
        html = client.get(url).content.decode()
        assert XSS not in html
        assert "&lt;script&gt;" in html


def test_creation_limit_per_address(client, db):
    for number in range(services.GROUPS_PER_IP.count):
        response = client.post("/spielegruppen/neu/", new_group_data(name=f"Runde {number}"))
        assert response.status_code == 302
    response = client.post("/spielegruppen/neu/", new_group_data(name="Eine zu viel"))
    assert response.status_code == 429
    assert "schon einige Spielegruppen gegründet" in response.content.decode()
    assert PlayGroup.objects.count() == services.GROUPS_PER_IP.count
    # Another address may still found one.
    other = Client(REMOTE_ADDR="10.0.0.9")
    assert other.post("/spielegruppen/neu/", new_group_data(name="Andere")).status_code == 302


def test_creation_limit_per_account_across_addresses(db):
    user = get_user_model().objects.create_user("lea", "lea@example.org", "pw-geheim-123")
    for number in range(services.GROUPS_PER_ACCOUNT.count):
        client = Client(REMOTE_ADDR=f"10.0.1.{number}")
        client.force_login(user)
        assert (
            client.post("/spielegruppen/neu/", new_group_data(name=f"R{number}")).status_code == 302
        )
    client = Client(REMOTE_ADDR="10.0.2.1")
    client.force_login(user)
    assert client.post("/spielegruppen/neu/", new_group_data(name="Zu viel")).status_code == 429
    assert Member.objects.filter(user=user, role=Member.Role.FOUNDER).count() == 5


# Joining ----------------------------------------------------------------------


def test_join_as_guest_with_the_invite_link(group):
    group, founder = group
    guest = Client()
    assert guest.get(group.get_absolute_url() + "einladung/falsch-falsch/").status_code == 404
    form = guest.get(group.get_invite_url())
    assert form.status_code == 200 and "noindex" in form.content.decode()
    response = guest.post(group.get_invite_url(), {"name": "  Ben  "})
    assert response.status_code == 302
    assert response["Location"].endswith("?willkommen=1")
    ben = group.members.get(name="Ben")
    assert ben.is_guest and ben.role == Member.Role.MEMBER
    page = guest.get(response["Location"]).content.decode()
    assert "Willkommen, Ben!" in page
    assert ben.token in page  # the personal link to keep
    assert group.invite_token not in page  # only organisers see the invite link
    # The personal link makes another browser Ben.
    other = Person(ben)
    assert (
        'Ben <span class="member__me">(du)</span>'
        in other.client.get(group.get_absolute_url()).content.decode()
    )
    # Joining again from the same browser keeps one membership.
    assert guest.get(group.get_invite_url())["Location"] == group.get_absolute_url()


def test_join_with_an_account(group):
    group, _ = group
    user = get_user_model().objects.create_user("lea", "lea@example.org", "pw-geheim-123")
    client = Client()
    client.force_login(user)
    form = client.get(group.get_invite_url()).content.decode()
    assert 'value="lea"' in form  # suggested name, never the e-mail address
    assert "lea@example.org" not in form
    client.post(group.get_invite_url(), {"name": "Lea"})
    member = group.members.get(user=user)
    assert member.name == "Lea"
    # The account is recognised without any cookie, and joins only once.
    fresh = Client()
    fresh.force_login(user)
    assert fresh.get(group.get_invite_url())["Location"] == group.get_absolute_url()
    assert services.join(type("R", (), {"user": user, "META": {}})(), group, name="X") == member
    assert group.members.filter(user=user).count() == 1


def test_no_email_addresses_shown_to_other_members(group):
    group, founder = group
    user = get_user_model().objects.create_user(
        "lea@example.org", "lea@example.org", "pw-geheim-123"
    )
    client = Client()
    client.force_login(user)
    assert "lea@example.org" not in client.get(group.get_invite_url()).content.decode()
    client.post(group.get_invite_url(), {"name": "Lea"})
    html = Person(founder).client.get(group.get_absolute_url()).content.decode()
    assert "Lea" in html and "lea@example.org" not in html


def test_join_limit_per_address(group, settings):
    group, _ = group
    for number in range(services.JOINS_PER_IP.count):
        assert Client().post(group.get_invite_url(), {"name": f"G{number}"}).status_code == 302
    response = Client().post(group.get_invite_url(), {"name": "Zu viel"})
    assert response.status_code == 429
    assert not group.members.filter(name="Zu viel").exists()


def test_full_group_refuses_new_members(group, monkeypatch):
    group, _ = group
    monkeypatch.setattr(services, "MAX_MEMBERS", 2)
    assert Client().post(group.get_invite_url(), {"name": "Zwei"}).status_code == 302
    response = Client(REMOTE_ADDR="10.0.0.2").post(group.get_invite_url(), {"name": "Drei"})
    assert response.status_code == 429 and "voll" in response.content.decode()


def test_renew_invite_link(group):
    group, founder = group
    old = group.get_invite_url()
    mia = Person(founder)
    response = mia.client.post(reverse("groups:renew_invite", args=[group.slug]))
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.get_invite_url() != old
    assert Client().get(old).status_code == 404
    assert Client().get(group.get_invite_url()).status_code == 200


# Roles ------------------------------------------------------------------------


ORGANISER_ONLY = [
    ("groups:edit", "get"),
    ("groups:edit", "post"),
    ("groups:renew_invite", "post"),
    ("groups:renew_calendar", "post"),
    ("groups:night_create", "get"),
    ("groups:night_create", "post"),
]


@pytest.mark.parametrize(("name", "method"), ORGANISER_ONLY)
def test_organiser_only_group_actions_refused_for_members_and_strangers(group, name, method):
    group, founder = group
    ben = Person(add_member(group, "Ben"))
    url = reverse(name, args=[group.slug])
    before = (group.invite_token, group.calendar_token, group.name)
    response = getattr(ben.client, method)(url, {"name": "Gekapert"})
    assert response.status_code == 403
    assert "Organisatoren" in response.content.decode()
    assert getattr(Client(), method)(url, {"name": "Gekapert"}).status_code == 404
    group.refresh_from_db()
    assert (group.invite_token, group.calendar_token, group.name) == before
    assert not GameNight.objects.exists()


def test_member_actions_refused_for_plain_members(group):
    group, founder = group
    ben = Person(add_member(group, "Ben"))
    cem = add_member(group, "Cem")
    set_role = reverse("groups:set_role", args=[group.slug, cem.pk])
    remove = reverse("groups:remove_member", args=[group.slug, cem.pk])
    assert ben.client.post(set_role, {"organisator": "1"}).status_code == 403
    assert ben.client.post(remove).status_code == 403
    cem.refresh_from_db()
    assert cem.role == Member.Role.MEMBER
    # A founder cannot be removed, not even by an organiser.
    Member.objects.filter(pk=ben.member.pk).update(role=Member.Role.ORGANISER)
    remove_founder = reverse("groups:remove_member", args=[group.slug, founder.pk])
    assert ben.client.post(remove_founder).status_code == 403
    assert Member.objects.filter(pk=founder.pk).exists()


def test_organiser_makes_organiser_and_removes_member(group):
    group, founder = group
    mia = Person(founder)
    ben = add_member(group, "Ben")
    cem = add_member(group, "Cem")
    mia.client.post(reverse("groups:set_role", args=[group.slug, ben.pk]), {"organisator": "1"})
    ben.refresh_from_db()
    assert ben.role == Member.Role.ORGANISER
    # The new organiser may now manage: remove Cem and plan a night.
    ben_browser = Person(ben)
    ben_browser.client.post(reverse("groups:remove_member", args=[group.slug, cem.pk]))
    assert not Member.objects.filter(pk=cem.pk).exists()
    assert (
        ben_browser.client.get(reverse("groups:night_create", args=[group.slug])).status_code == 200
    )
    # Cem's personal link no longer opens anything.
    assert Client().get(cem.get_personal_url()).status_code == 404


def test_edit_group(group):
    group, founder = group
    mia = Person(founder)
    url = reverse("groups:edit", args=[group.slug])
    assert mia.client.get(url).status_code == 200
    response = mia.client.post(
        url, {"name": "Neuer Name", "description": "", "region": "", "is_public": ""}
    )
    assert response.status_code == 302
    group.refresh_from_db()
    assert group.name == "Neuer Name" and not group.is_public and group.games.count() == 0


def test_leave_and_delete(group):
    group, founder = group
    ben = Person(add_member(group, "Ben"))
    response = ben.client.post(reverse("groups:leave", args=[group.slug]))
    assert response.status_code == 302
    assert not group.members.filter(name="Ben").exists()
    mia = Person(founder)
    # Deleting needs the slug typed in.
    assert mia.client.post(reverse("groups:delete", args=[group.slug])).status_code == 403
    mia.client.post(reverse("groups:delete", args=[group.slug]), {"bestaetigt": group.slug})
    assert not PlayGroup.objects.exists()


def test_state_changes_need_post_and_csrf(group):
    group, founder = group
    mia = Person(founder, client=Client(enforce_csrf_checks=True))
    url = reverse("groups:renew_invite", args=[group.slug])
    assert mia.client.get(url).status_code == 405
    assert mia.client.post(url).status_code == 403  # no CSRF token
    group.refresh_from_db()
    before = group.invite_token
    assert PlayGroup.objects.get().invite_token == before


def test_editors_hide_a_group_in_the_admin(editor_client, group):
    group, _ = group
    changelist = reverse("admin:groups_playgroup_changelist")
    html = editor_client.get(changelist).content.decode()
    assert "Donnerstagsrunde" in html and "Spielegruppen" in html
    editor_client.post(changelist, {"action": "hide", "_selected_action": [group.pk]})
    group.refresh_from_db()
    assert group.is_hidden
    change = editor_client.get(reverse("admin:groups_playgroup_change", args=[group.pk]))
    assert change.status_code == 200
    # Editors moderate; the secret links stay out of the admin.
    assert group.invite_token not in change.content.decode()


@pytest.mark.parametrize(
    "name",
    [
        "groups_playgroup",
        "groups_member",
        "groups_gamenight",
        "groups_answer",
        "groups_rsvp",
    ],
)
def test_admin_changelists_open_in_german(admin_client, group, name):
    group, founder = group
    night = services.create_night(founder, group, starts=[in_days(2)])
    services.answer(founder, night.options.get(), "ja")
    services.fix_date(founder, night, night.options.get())
    response = admin_client.get(reverse(f"admin:{name}_changelist"))
    assert response.status_code == 200
    assert response.context["cl"].result_count == 1


def test_join_page_shows_the_group_and_its_games(group):
    group, _ = group
    html = Client().get(group.get_invite_url()).content.decode()
    assert "Einladung in die Spielegruppe" in html
    assert "Donnerstagsrunde" in html and 'href="/spiele/the-cat/"' in html


def test_members_change_their_own_name(group):
    group, founder = group
    ben = Person(add_member(group, "Ben"))
    url = reverse("groups:rename", args=[group.slug])
    assert ben.client.post(url, {"name": "  Benny  B. "}).status_code == 302
    ben.member.refresh_from_db()
    assert ben.member.name == "Benny B."
    assert ben.client.post(url, {"name": "   "}).status_code == 403
    assert Client().post(url, {"name": "Fremd"}).status_code == 404
    founder.refresh_from_db()
    assert founder.name == "Mia"
