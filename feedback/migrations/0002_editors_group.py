"""The editors' group "Redaktion" with every permission on the content apps.

Permissions are normally created after migrate (post_migrate), so this
migration creates them first. games/editors.py keeps a post_migrate handler
that adds permissions of apps added later. Editors never get auth permissions
(users, groups): the constant below is the whole list.
"""

from django.contrib.auth.management import create_permissions
from django.db import migrations

GROUP_NAME = "Redaktion"
CONTENT_APPS = ("games", "rules", "feedback")


def create_editors_group(apps, schema_editor):
    for label in CONTENT_APPS:
        app_config = apps.get_app_config(label)
        # Migration state apps have no models module; create_permissions needs a truthy one.
        # Restore it afterwards: post_migrate skips app configs whose models_module is None.
        previous = getattr(app_config, "models_module", None)
        app_config.models_module = previous or True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = previous
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.get_or_create(name=GROUP_NAME)
    group.permissions.add(*Permission.objects.filter(content_type__app_label__in=CONTENT_APPS))


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("games", "0003_game_is_traditional"),
        ("rules", "0003_snapshot_published_articles"),
        ("feedback", "0001_initial"),
    ]

    # Going back keeps the group: its members would otherwise lose their rights.
    operations = [migrations.RunPython(create_editors_group, migrations.RunPython.noop)]
