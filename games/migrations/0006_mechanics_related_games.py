from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_demo_engine_from_registry"),
    ]

    operations = [
        migrations.CreateModel(
            name="Mechanic",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=120, unique=True, verbose_name="Name")),
                ("slug", models.SlugField(max_length=140, unique=True, verbose_name="Kürzel")),
            ],
            options={
                "verbose_name": "Mechanik",
                "verbose_name_plural": "Mechaniken",
                "ordering": ["name"],
                "abstract": False,
            },
        ),
        migrations.AddField(
            model_name="game",
            name="min_age_estimated",
            field=models.BooleanField(
                default=False,
                help_text="Keine Angabe von Verlag oder Quelle: Die Seite nennt das Alter als unsere Einschätzung.",
                verbose_name="Alter von uns geschätzt",
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="mechanics",
            field=models.ManyToManyField(
                blank=True, related_name="games", to="games.mechanic", verbose_name="Mechaniken"
            ),
        ),
        migrations.AddField(
            model_name="game",
            name="related_games",
            field=models.ManyToManyField(
                blank=True, to="games.game", verbose_name="Ähnliche Spiele (Redaktion)"
            ),
        ),
    ]
