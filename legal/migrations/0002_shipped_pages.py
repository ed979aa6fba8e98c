from django.db import migrations


def create_pages(apps, schema_editor):
    from legal.defaults import TITLES, shipped

    LegalPage = apps.get_model("legal", "LegalPage")
    for key in TITLES:
        if not LegalPage.objects.filter(key=key).exists():
            LegalPage.objects.create(key=key, **shipped(key))


class Migration(migrations.Migration):
    dependencies = [("legal", "0001_initial")]

    operations = [migrations.RunPython(create_pages, migrations.RunPython.noop)]
