"""The replay page: steps, links, who may see it, „Alle Karten zeigen“, playing on, reports."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from feedback.models import ErrorReport
from games.models import DemoGame, Replay
from games.play import definition as registry
from games.play import replays
from tests.factories import make_game, visitor_cookie
from tests.games.play.test_replays import play_out

pytestmark = pytest.mark.django_db


def _kept(key: str, *, source="demo", players=(), host="", seed=5, count=2) -> Replay:
    definition = registry.get(key)
    table = play_out(definition, seed, count)
    return replays.keep(definition, table, source=source, players=list(players), host=host)


def _visitor(client: Client) -> str:
    """Give the browser a known visitor id (the signed cookie ``games.visitors`` reads)."""
    from games.visitors import COOKIE_NAME, new_visitor_id

    visitor = new_visitor_id()
    client.cookies[COOKIE_NAME] = visitor_cookie(visitor)
    return visitor


def test_every_step_draws_the_public_table(client):
    replay = _kept("katz_und_maus")
    response = client.get(replay.get_absolute_url())
    assert response.status_code == 200
    html = response.content.decode()
    assert 'Schritt <strong id="replay-step">0</strong>' in html
    assert 'class="km' in html  # the game's own table template
    assert "Alle Schritte" in html and html.count("?zug=") > replay.steps
    for step in (1, replay.steps // 2, replay.steps):
        part = client.get(f"{replay.get_absolute_url()}?zug={step}", headers={"HX-Request": "true"})
        body = part.content.decode()
        assert f'data-step="{step}"' in body
        assert "<html" not in body  # only the stage
    # The hands are shown only after the last step, on request.
    last = client.get(f"{replay.get_absolute_url()}?zug={replay.steps}").content.decode()
    assert "Alle Karten zeigen" in last
    hands = client.get(f"{replay.get_absolute_url()}?zug={replay.steps}&karten=alle")
    assert hands.content.decode().count("replay-hands__seat") == 2
    middle = client.get(f"{replay.get_absolute_url()}?zug=1&karten=alle").content.decode()
    assert "replay-hands__seat" not in middle


def test_room_replay_is_for_players_until_the_host_publishes():
    host, stranger = Client(), Client()
    host_id = _visitor(host)
    replay = _kept("alpaka", source="room", players=[host_id], host=host_id)
    assert stranger.get(replay.get_absolute_url()).status_code == 404
    assert host.get(replay.get_absolute_url()).status_code == 200
    assert (
        stranger.post(f"{replay.get_absolute_url()}sichtbarkeit/", {"oeffentlich": "1"}).status_code
        == 404
    )
    host.post(f"{replay.get_absolute_url()}sichtbarkeit/", {"oeffentlich": "1"})
    assert stranger.get(replay.get_absolute_url()).status_code == 200


def test_unknown_replay_is_404(client):
    assert client.get("/partien/gibtsnicht/").status_code == 404


def test_play_on_from_a_step_becomes_the_demo(client):
    make_game("katz-und-maus", title="Katz und Maus", demo_engine="katz_und_maus")
    replay = _kept("katz_und_maus")
    step = 6
    response = client.post(f"{replay.get_absolute_url()}weiterspielen/", {"zug": step})
    assert response.status_code == 302 and "/spiele/katz-und-maus/demo/" in response["Location"]
    row = DemoGame.objects.get(engine="katz_und_maus")
    definition = registry.get("katz_und_maus")
    assert row.state == replays.replay_record(definition, replay.record, step)
    assert len(row.record["log"]) == step and row.record["seed"] == replay.record["seed"]


def test_report_from_a_replay_step_carries_the_position(client, editor_client):
    game = make_game("alpaka", title="Alpaka", demo_engine="alpaka")
    replay = _kept("alpaka")
    page = client.get(f"{replay.get_absolute_url()}?zug=4").content.decode()
    reference = re.search(r'name="stellung" value="([^"]+)"', page).group(1)
    started = re.search(r'name="t" value="([^"]+)"', page).group(1)
    from datetime import timedelta

    from games import clock

    real = clock.now()
    clock.set_clock(lambda: real + timedelta(minutes=2))  # a human takes a moment
    try:
        client.post(
            f"/spiele/{game.slug}/fehler-melden/",
            {"message": "Hier hätte Ben ziehen müssen.", "stellung": reference, "t": started},
        )
    finally:
        clock.set_clock(None)
    report = ErrorReport.objects.get()
    assert report.position["step"] == 4 and report.position["replay"] == replay.pk
    admin = editor_client.get(f"/admin/feedback/errorreport/{report.pk}/change/").content.decode()
    assert "position-board" in admin and "alp-" in admin


def test_saved_replays_are_listed_in_my_area_and_outlive_the_cleanup(client, django_user_model):
    from datetime import timedelta

    from games import clock

    user = django_user_model.objects.create_user("leserin", password="geheim-123")
    client.force_login(user)
    replay = _kept("the_cat")
    page = client.get(replay.get_absolute_url()).content.decode()
    assert "Merken" in page
    client.post(f"{replay.get_absolute_url()}merken/", {"merken": "1"})
    area = client.get("/mein-bereich/").content.decode()
    assert "Meine Partien" in area and replay.get_absolute_url() in area
    Replay.objects.filter(pk=replay.pk).update(
        created_at=clock.now() - timedelta(days=replays.KEPT_DAYS + 5)
    )
    assert replays.cleanup() == 0
    client.post(f"{replay.get_absolute_url()}merken/", {"merken": "0"})
    assert replays.cleanup() == 1


def test_a_report_from_the_demo_carries_its_position(client, editor_client):
    game = make_game("katz-und-maus", title="Katz und Maus", demo_engine="katz_und_maus")
    client.post("/spiele/katz-und-maus/demo/start/", {"version": "0", "bots": "1"})
    row = DemoGame.objects.get(engine="katz_und_maus")
    assert row.record is not None and row.record["log"] == []
    form = client.get(f"/spiele/{game.slug}/fehler-melden/", headers={"HX-Request": "true"})
    html = form.content.decode()
    reference = re.search(r'name="stellung" value="([^"]+)"', html).group(1)
    assert "Stellung deiner Partie" in html
    from datetime import timedelta

    from games import clock

    real = clock.now()
    clock.set_clock(lambda: real + timedelta(minutes=2))
    try:
        client.post(
            f"/spiele/{game.slug}/fehler-melden/",
            {"message": "Der Bot hat falsch abgelegt.", "stellung": reference,
             "t": re.search(r'name="t" value="([^"]+)"', html).group(1)},
        )  # fmt: skip
    finally:
        clock.set_clock(None)
    report = ErrorReport.objects.get()
    assert report.position["seat"] == 0 and report.position["record"]["seed"] == row.record["seed"]
    admin = editor_client.get(f"/admin/feedback/errorreport/{report.pk}/change/").content.decode()
    assert "position-board" in admin and "der Demo-Partie" in admin
    # A reference for another game's position attaches nothing.
    from games.play import positions

    assert positions.resolve(reference, row.visitor, "alpaka") is None


def test_my_data_lists_the_replays_i_played_or_saved(client, django_user_model):
    from accounts import personal_data
    from accounts.models import VisitorLink

    user = django_user_model.objects.create_user("spieler", password="geheim-123")
    VisitorLink.objects.create(user=user, visitor="visitor-of-anna", is_primary=True)
    played = _kept("alpaka", source="room", players=["visitor-of-anna"], host="visitor-of-anna")
    saved = _kept("the_cat", seed=8)
    saved.saved_by.add(user)
    _kept("katz_und_maus", source="room", players=["someone-else"])
    data = personal_data.export(user)["partien"]
    assert sorted(item["spiel"] for item in data) == ["Alpaka", "The Cat"]
    assert {item["gemerkt"] for item in data} == {True, False}
    assert all(item["link"].endswith("/") for item in data) and played.pk in str(data)


def test_erasing_an_account_takes_its_visitor_ids_out_of_the_replays(django_user_model):
    from accounts import personal_data
    from accounts.models import VisitorLink

    user = django_user_model.objects.create_user("spielerin", password="geheim-123")
    VisitorLink.objects.create(user=user, visitor="visitor-of-anna", is_primary=True)
    played = _kept(
        "alpaka",
        source="room",
        players=["visitor-of-anna", "visitor-of-ben"],
        host="visitor-of-anna",
    )
    other = _kept("katz_und_maus", source="room", players=["visitor-of-ben"], host="visitor-of-ben")
    personal_data.erase(user)
    played.refresh_from_db()
    other.refresh_from_db()
    assert (played.players, played.host) == (["visitor-of-ben"], "")
    assert (other.players, other.host) == (["visitor-of-ben"], "visitor-of-ben")
    # Ben still opens the game they played together; Anna's old browser no longer does.
    assert replays.may_view(played, {"visitor-of-ben"})
    assert not replays.may_view(played, {"visitor-of-anna"})
