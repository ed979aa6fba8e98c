"""The hot paths' row reads and writes (``site_config.row_sql``) give what the ORM gives,
with the SQL Django compiled once per connection (CI runs these on SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.db import DatabaseError, connection, transaction
from django.db.models.signals import post_save, pre_save
from django.db.models.sql.compiler import SQLCompiler
from django.db.transaction import TransactionManagementError
from django.test.utils import CaptureQueriesContext

from games import views as game_views
from games.models import DemoGame, Game
from games.play import demo_service
from rooms import locked
from rooms.models import Room, Seat
from site_config import row_sql
from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db

MOMENT = datetime(2026, 12, 6, 12, 30, 15, 123000, tzinfo=UTC)


def _room(code="abc") -> Room:
    room = Room.objects.create(
        code=code,
        engine="the_cat",
        options={"speed": "flink", "rounds": 3},
        status=Room.Status.PLAYING,
        state={"hands": [[1, 2], [3]], "turn": None, "names": ["Anna", "Ben"]},
        version=7,
        deadline=MOMENT,
        log=[{"v": 7, "event": {"type": "swap", "seat": 1}}],
    )
    for number, name in enumerate(["Anna", "Ben"]):
        Seat.objects.create(room=room, number=1 - number, name=name, visitor=f"v-{name}")
    return room


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_rows_are_the_orm_s_rows():
    _room()
    with transaction.atomic():
        compiled = locked.ROOM_LOCKED.first("abc", "the_cat")
        room = Room.objects.select_for_update().get(code="abc")
    assert _fields(compiled) == _fields(room)  # JSON decoded, datetimes aware, as the ORM's
    assert compiled.deadline == MOMENT
    assert compiled._state.adding is False and compiled._state.db == "default"
    seats = locked.seats_of(compiled)
    assert [_fields(s) for s in seats] == [_fields(s) for s in room.seats.all()]
    assert [s.number for s in seats] == [0, 1]  # the model's ordering
    with CaptureQueriesContext(connection) as queries:
        assert all(seat.room is compiled for seat in seats)
    assert not queries


def test_absent_row_is_none():
    with transaction.atomic():
        assert locked.ROOM_LOCKED.first("nope", "the_cat") is None


@pytest.fixture
def compiling(monkeypatch) -> list:
    """The models whose SELECTs Django compiles from now on, in order."""
    models = []
    original = SQLCompiler.as_sql

    def counting(self, *args, **kwargs):
        models.append(self.query.model)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(SQLCompiler, "as_sql", counting)
    return models


def test_sql_is_compiled_once_per_connection_and_is_the_backend_s_own(compiling):
    _room("one")
    _room("two")
    compiled = row_sql.Compiled(
        lambda code: Room.objects.select_for_update().filter(code=code).order_by()[:1], "\x00c"
    )
    compiling.clear()  # only what follows counts
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        assert compiled.first("one").code == "one"
        assert compiled.first("two").code == "two"
    assert compiling == [Room]  # compiled for the first call only
    sql = [q["sql"] for q in queries if "rooms_room" in q["sql"]]
    assert len(sql) == 2
    # PostgreSQL locks the row; SQLite (no row locks) gets the plain SELECT, as from the ORM.
    assert all(("FOR UPDATE" in s) == connection.features.has_select_for_update for s in sql)


@pytest.mark.django_db(transaction=True)  # really outside a transaction
def test_a_lock_outside_a_transaction_is_refused_where_the_orm_refuses_it():
    _room()
    if connection.features.has_select_for_update:
        with pytest.raises(TransactionManagementError):
            locked.ROOM_LOCKED.first("abc", "the_cat")
    else:  # SQLite: the ORM sends a plain SELECT there, and so does this
        assert locked.ROOM_LOCKED.first("abc", "the_cat").code == "abc"


def test_queries_it_cannot_run_as_compiled_are_refused():
    lost = row_sql.Compiled(lambda code: Room.objects.filter(code="fixed"), "\x00c")
    with pytest.raises(ValueError, match="sentinel"):
        lost("abc")
    for other_rows in (
        lambda code: Room.objects.filter(code=code).values("code"),
        lambda code: Room.objects.filter(code=code).prefetch_related("seats"),
    ):
        with pytest.raises(ValueError, match="model instances"):
            row_sql.Compiled(other_rows, "\x00c")("abc")
    with pytest.raises(TypeError):
        locked.ROOM_LOCKED("only one value")


def test_joined_rows_deferred_fields_and_annotations_are_the_orm_s():
    with_article = make_game("mit-artikel")
    make_article(with_article)
    make_game("ohne-artikel")

    def page_query(slug):
        return game_views._for_page(Game.objects.published()).filter(slug=slug).order_by()[:1]

    compiled = row_sql.Compiled(page_query, "\x00slug")
    game, orm = compiled.first("mit-artikel"), page_query("mit-artikel").get()
    assert _fields(game) == _fields(orm)
    assert game.article_snapshot_digest == orm.article_snapshot_digest is not None
    with CaptureQueriesContext(connection) as queries:
        article = game.article  # joined: no query
        deferred = article.get_deferred_fields()
        assert deferred == orm.article.get_deferred_fields() == {"published_snapshot"}
        loaded = {name: value for name, value in article.__dict__.items() if name != "_state"}
        assert loaded == {n: v for n, v in orm.article.__dict__.items() if n != "_state"}
        assert article.game is game  # the join's other side, as the ORM sets it
    assert not queries
    without = compiled.first("ohne-artikel")
    assert Game.article.is_cached(without)  # known to have none: no query for it
    assert without.article_snapshot_digest is None
    assert compiled.first("gibt-es-nicht") is None


def test_a_game_page_miss_compiles_no_sql_for_the_game(client, compiling):
    game = make_game("seitenspiel")
    make_article(game)
    other = make_article(make_game("anderes"))
    client.get(game.get_absolute_url())
    other.rulebook_title = "Neue Fassung"
    other.save()  # the stored page is a miss now
    compiling.clear()
    response = client.get(game.get_absolute_url())
    assert response["X-Page-Cache"] == "miss" and game.title in response.content.decode()
    assert Game not in compiling


def test_save_writes_the_row_as_model_save_does():
    room = _room()
    sent = []

    def record(signal):
        def receiver(sender, **kwargs):
            sent.append((signal, kwargs["instance"], kwargs.get("created")))

        return receiver

    on_pre, on_post = record("pre"), record("post")
    pre_save.connect(on_pre, sender=Room)
    post_save.connect(on_post, sender=Room)
    try:
        room.state = {"hands": [[], [9]], "turn": 1}
        room.version = 8
        room.deadline = None
        room.log = [*room.log, {"v": 8, "event": {"type": "pass"}}]
        row_sql.save(room)
    finally:
        pre_save.disconnect(on_pre, sender=Room)
        post_save.disconnect(on_post, sender=Room)
    assert _fields(Room.objects.get(pk=room.pk)) == _fields(room)
    assert sent == [("pre", room, None), ("post", room, False)]


def test_save_with_update_fields_writes_only_those():
    room = _room()
    room.version = 9
    room.status = Room.Status.FINISHED  # changed in memory, not listed: stays as stored
    row_sql.save(room, ["version"])
    stored = Room.objects.get(pk=room.pk)
    assert (stored.version, stored.status) == (9, Room.Status.PLAYING)
    with CaptureQueriesContext(connection) as queries:
        row_sql.save(room, [])  # as Model.save: nothing to write
    assert not queries


def test_save_runs_the_fields_own_pre_save():
    row = DemoGame.objects.create(visitor="v", engine="the_cat", state={"a": 1}, profile={})
    DemoGame.objects.filter(pk=row.pk).update(updated_at=MOMENT)
    row.version = 3
    row_sql.save(row, [*demo_service.STORED, "updated_at"])
    stored = DemoGame.objects.get(pk=row.pk)
    assert stored.version == 3
    assert stored.updated_at > MOMENT  # auto_now, as Model.save sets it


def test_saving_a_row_that_is_gone_fails_loudly():
    room = _room()
    Room.objects.filter(pk=room.pk).delete()
    with pytest.raises(DatabaseError):
        row_sql.save(room)


def test_reading_a_room_again_compiles_nothing(compiling):
    """A room page or a poll that finds a change (rooms.reading.load) reads the room and
    its seats with statements compiled on the first read."""
    from games.play import definition as registry
    from rooms import reading

    _room()
    Room.objects.filter(code="abc").update(deadline=None)  # nothing due: read, not locked
    engine = registry.get("the_cat")
    reading.load(engine, "abc")
    compiling.clear()
    result = reading.load(engine, "abc")
    assert result.room.code == "abc" and [s.name for s in result.seats] == ["Ben", "Anna"]
    assert not compiling
