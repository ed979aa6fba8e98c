"""The editors' group: full rights on the site's content, none on users or groups."""

from django.apps import apps
from django.contrib.auth.models import Group, Permission

EDITORS_GROUP = "Redaktion"
# Apps whose models editors maintain. Later apps add themselves here.
CONTENT_APPS = ("games", "rules", "sleeves", "feedback", "groups", "legal")


def ensure_editors_group(**kwargs) -> Group:
    group, _ = Group.objects.get_or_create(name=EDITORS_GROUP)
    labels = [label for label in CONTENT_APPS if apps.is_installed(label)]
    group.permissions.add(*Permission.objects.filter(content_type__app_label__in=labels))
    return group
