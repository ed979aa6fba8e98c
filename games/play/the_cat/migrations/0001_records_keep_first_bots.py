"""Records of The Cat games dealt before the planning bots name the first bots.

A record replays a game from its seed; The Cat's bots act inside the engine, so a
record must say which bots played. New records carry ``bots_version`` in their
options (``definition.engine_options``); the older ones get ``1`` here, so their
replays, rooms, demos and reported positions repeat exactly what happened.
"""

from django.db import migrations

ENGINE = "the_cat"


def _mark(record):
    if not isinstance(record, dict) or not isinstance(record.get("options"), dict):
        return record, False
    if "bots_version" in record["options"]:
        return record, False
    return {**record, "options": {**record["options"], "bots_version": 1}}, True


def keep_first_bots(apps, schema_editor):
    for app, model in (("games", "DemoGame"), ("games", "Replay"), ("rooms", "Room")):
        rows = apps.get_model(app, model).objects.filter(engine=ENGINE)
        for row in rows.filter(record__isnull=False).iterator():
            row.record, changed = _mark(row.record)
            if changed:
                row.save(update_fields=["record"])
    reports = apps.get_model("feedback", "ErrorReport").objects.filter(position__isnull=False)
    for report in reports.iterator():
        position = report.position
        if isinstance(position, dict) and position.get("engine") == ENGINE:
            record, changed = _mark(position.get("record"))
            if changed:
                report.position = {**position, "record": record}
                report.save(update_fields=["position"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_replay"),
        ("rooms", "0004_watch_code"),
        ("feedback", "0006_report_position"),
    ]

    operations = [migrations.RunPython(keep_first_bots, migrations.RunPython.noop)]
