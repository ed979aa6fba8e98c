"""The live update stays cheap: an unchanged poll is one query and no template."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.rooms.conftest import room_of

pytestmark = pytest.mark.django_db


def test_an_unchanged_poll_costs_at_most_two_queries_and_no_template(table):
    anna, _ben = table
    room = room_of(anna)
    anna.get("status/", v=room.version)  # warm up (cookies, URL resolver)
    with CaptureQueriesContext(connection) as queries:
        response = anna.get("status/", v=room.version)
    assert response.status_code == 204
    assert len(queries) <= 2, [q["sql"] for q in queries]
    assert response.templates == []


def test_a_changed_poll_renders_the_table(table):
    anna, ben = table
    room = room_of(anna)
    ben.post("aktion/", {"version": room.version, "aktion": "draw"})
    response = anna.get("status/", v=room.version)
    assert response.status_code == 200
    assert response.templates and "Ben zieht eine Karte." in response.content.decode()
