import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("rules", "0003_snapshot_published_articles"),
    ]

    operations = [
        migrations.AlterField(
            model_name="section",
            name="kind",
            field=models.CharField(
                choices=[
                    ("auf-einen-blick", "Auf einen Blick"),
                    ("ziel", "Ziel des Spiels"),
                    ("material", "Material"),
                    ("aufbau", "Aufbau"),
                    ("ablauf", "Ablauf"),
                    ("spielende", "Spielende und Wertung"),
                    ("beispiel", "Beispiele"),
                    ("irrtuemer", "Häufige Irrtümer"),
                    ("tipps", "Tipps"),
                    ("varianten", "Varianten und Festlegungen"),
                    ("online", "So funktioniert die Demo"),
                    ("statistik", "Statistik"),
                    ("ausgaben", "Ausgaben & Erweiterungen"),
                    ("autoren", "Autoren & Verlag"),
                    ("geschichte", "Geschichte"),
                    ("haeufige-fragen", "Häufige Fragen"),
                ],
                max_length=20,
                verbose_name="Art",
            ),
        ),
        migrations.AddField(
            model_name="section",
            name="summary",
            field=models.TextField(
                blank=True,
                help_text="3–5 Schritte als nummerierte Liste; erscheint als Kasten über dem Text.",
                verbose_name="Zug auf einen Blick (Markdown-Liste)",
            ),
        ),
        migrations.AddField(
            model_name="section",
            name="figure",
            field=models.CharField(
                blank=True,
                help_text="Pfad unter static/, z. B. „img/aufbau/spielname.svg“.",
                max_length=200,
                verbose_name="Abbildung (statische Datei)",
            ),
        ),
        migrations.AddField(
            model_name="section",
            name="figure_alt",
            field=models.TextField(
                blank=True,
                help_text="Beschreibt vollständig, was das Bild zeigt (für Screenreader und ohne Bild).",
                verbose_name="Textalternative der Abbildung",
            ),
        ),
        migrations.AddField(
            model_name="section",
            name="figure_caption",
            field=models.CharField(blank=True, max_length=200, verbose_name="Bildunterschrift"),
        ),
        migrations.CreateModel(
            name="FrequentQuestion",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                (
                    "position",
                    models.PositiveSmallIntegerField(default=0, verbose_name="Reihenfolge"),
                ),
                ("title", models.CharField(max_length=160, verbose_name="Frage")),
                (
                    "body",
                    models.TextField(
                        help_text="Mit der Regel, auf die sich die Antwort stützt.",
                        verbose_name="Antwort (Markdown)",
                    ),
                ),
                (
                    "pages",
                    models.CharField(
                        blank=True,
                        help_text="Seite im Regelheft, falls vorhanden.",
                        max_length=40,
                        verbose_name="Seitenangabe",
                    ),
                ),
                (
                    "article",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        to="rules.rulesarticle",
                        verbose_name="Artikel",
                    ),
                ),
            ],
            options={
                "verbose_name": "Häufige Frage",
                "verbose_name_plural": "Häufige Fragen",
                "ordering": ["position", "pk"],
                "abstract": False,
                "default_related_name": "questions",
            },
        ),
    ]
