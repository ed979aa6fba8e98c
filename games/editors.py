"""The editors' roles: „Redaktion“ edits and publishes, „Lektorat“ edits drafts only.

Neither touches users or permissions. Of the private game groups editors see only what
moderation needs: a group's name, texts and the hide switch – never its members, polls,
answers or RSVPs.
"""

from django.apps import apps
from django.contrib.auth.models import Group, Permission
from django.db.models import Q

EDITORS_GROUP = "Redaktion"
PROOFREADERS_GROUP = "Lektorat"
# Apps whose models editors maintain. Later apps add themselves here.
CONTENT_APPS = ("games", "rules", "sleeves", "feedback", "editorial", "legal", "exercises")
# Moderating groups: read and hide a group; nothing of its members' doings.
MODERATION = ("groups.view_playgroup", "groups.change_playgroup")
# Lektorat: what ends up as a draft (article blocks, sources and glossary, game data, card
# formats), reports and shipped updates; never publishing, deleting games or sleeve products.
PROOFREADING = (
    "rules.view_rulesarticle", "rules.change_rulesarticle",
    *(f"rules.{action}_{model}" for model in ("section", "workedexample", "commonmistake",
      "frequentquestion", "source", "glossaryentry")
      for action in ("view", "add", "change", "delete")),
    "games.view_game", "games.change_game", "games.view_person", "games.view_publisher",
    "games.view_mechanic", "games.view_edition",
    "sleeves.view_cardformat", "sleeves.change_cardformat", "sleeves.view_cardsize",
    "feedback.view_errorreport", "feedback.change_errorreport",
    "editorial.view_shippeditem", "editorial.change_shippeditem",
    # Exercises go online when saved (no draft yet): Lektorat reads them only.
    "exercises.view_exercise",
)  # fmt: skip


def _permissions(names):
    query = Q(pk__in=[])
    for name in names:
        app_label, codename = name.split(".")
        query |= Q(content_type__app_label=app_label, codename=codename)
    return Permission.objects.filter(query)


def ensure_editors_group(**kwargs) -> Group:
    group, _ = Group.objects.get_or_create(name=EDITORS_GROUP)
    labels = [label for label in CONTENT_APPS if apps.is_installed(label)]
    content = Permission.objects.filter(content_type__app_label__in=labels)
    # set(), not add(): permissions granted before (e.g. on group members) are taken back.
    group.permissions.set([*content, *_permissions(MODERATION)])
    ensure_proofreaders_group()
    return group


def ensure_proofreaders_group(**kwargs) -> Group:
    group, _ = Group.objects.get_or_create(name=PROOFREADERS_GROUP)
    group.permissions.set(_permissions(PROOFREADING))
    return group
