"""Articles published before snapshots existed get their first snapshot (version 1).

The builder is copied here on purpose: a migration must not depend on code that
may change later.
"""

from django.db import migrations

SOURCE_FIELDS = (
    "rulebook_title",
    "rulebook_publisher",
    "rulebook_version",
    "rulebook_year",
    "rulebook_pages",
    "rulebook_read_on",
    "source_note",
)


def _parts(model, article, names):
    return [
        {name: getattr(obj, name) for name in names}
        for obj in model.objects.filter(article=article).order_by("position", "pk")
    ]


def snapshot_published(apps, schema_editor):
    RulesArticle = apps.get_model("rules", "RulesArticle")
    Section = apps.get_model("rules", "Section")
    WorkedExample = apps.get_model("rules", "WorkedExample")
    CommonMistake = apps.get_model("rules", "CommonMistake")
    articles = RulesArticle.objects.filter(status="published", published_snapshot__isnull=True)
    for article in articles:
        source = {name: getattr(article, name) for name in SOURCE_FIELDS}
        if source["rulebook_read_on"] is not None:
            source["rulebook_read_on"] = source["rulebook_read_on"].isoformat()
        article.published_snapshot = {
            "format": 1,
            "source": source,
            "sections": _parts(Section, article, ("kind", "title", "body", "pages")),
            "examples": _parts(
                WorkedExample, article, ("title", "body", "pages", "engine_check", "expect")
            ),
            "mistakes": _parts(CommonMistake, article, ("title", "body", "pages")),
        }
        article.published_version = 1
        article.save(update_fields=["published_snapshot", "published_version"])


class Migration(migrations.Migration):
    dependencies = [("rules", "0002_published_snapshot")]

    operations = [migrations.RunPython(snapshot_published, migrations.RunPython.noop)]
