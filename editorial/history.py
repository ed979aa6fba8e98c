"""History per object: a readable diff of any saved version against the current working
state, and restore of exactly that object (as a draft, never live).

django-reversion's own revision view reverts the whole revision – every object saved
alongside (the shipped content was saved in one revision with its game, so restoring an
article's first version also put back the game row and its „Ähnlich wie“ picks, live).
Here a version only ever writes to its own object (an article: its own blocks too).
"""

from __future__ import annotations

import reversion
from django.contrib import messages
from django.contrib.admin.utils import quote, unquote
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime
from reversion.models import Version

from editorial.changes import field_diffs


class ObjectHistoryMixin:
    """For a VersionAdmin: ``revision_view`` shows the diff and restores one object."""

    #: Field name → label shown in the diff; restore writes these fields only.
    history_fields: dict[str, str] = {}

    def history_current(self, request, obj) -> dict:
        """The values a version is compared with (the working copy, drafts included)."""
        return {name: _value(obj, name) for name in self.history_fields}

    def history_old(self, version) -> dict:
        return {
            name: version.field_dict.get(self.model._meta.get_field(name).attname)
            for name in self.history_fields
        }

    def history_extra_rows(self, request, obj, version) -> list:
        return []

    def restore_version(self, request, obj, version) -> str:
        """Write the version's values to ``obj`` (working copy); returns the message."""
        for name in self.history_fields:
            attname = obj._meta.get_field(name).attname
            if attname in version.field_dict:
                setattr(obj, attname, version.field_dict[attname])
        with reversion.create_revision():
            reversion.set_user(request.user)
            reversion.set_comment(f"Fassung vom {_when(version)} wiederhergestellt")
            obj.save()
        return "Die alte Fassung ist jetzt der Entwurf. Online ändert sich erst etwas beim Veröffentlichen."

    def revision_view(self, request, object_id, version_id, extra_context=None):
        obj = self.get_object(request, unquote(object_id))
        if obj is None or not self.has_view_or_change_permission(request, obj):
            raise PermissionDenied
        version = get_object_or_404(
            Version.objects.get_for_object(obj).select_related("revision__user"), pk=version_id
        )
        opts = self.model._meta
        change_url = reverse(
            f"admin:{opts.app_label}_{opts.model_name}_change", args=[quote(obj.pk)]
        )
        if request.method == "POST":
            if not self.has_change_permission(request, obj):
                raise PermissionDenied
            message = self.restore_version(request, obj, version)
            self.message_user(request, message, messages.SUCCESS)
            return HttpResponseRedirect(change_url)
        old = self.history_old(version)
        rows = field_diffs(self.history_fields, old, self.history_current(request, obj))
        rows += self.history_extra_rows(request, obj, version)
        context = {
            **self.admin_site.each_context(request),
            "opts": opts,
            "object": obj,
            "title": f"Fassung vom {_when(version)} – Unterschiede",
            "subtitle": str(obj),
            "version": version,
            "when": _when(version),
            "rows": rows,
            "changed": [row for row in rows if row.changed],
            "change_url": change_url,
            "history_url": reverse(
                f"admin:{opts.app_label}_{opts.model_name}_history", args=[quote(obj.pk)]
            ),
            "can_restore": self.has_change_permission(request, obj),
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/editorial/version_diff.html", context)

    def after_recover(self, request, obj, version) -> None:
        """Hook: an article brings its blocks back, a game comes back hidden."""

    def recover_view(self, request, version_id, extra_context=None):
        """A deleted object comes back from its own version – not the whole revision."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        version = get_object_or_404(Version.objects.get_deleted(self.model), pk=version_id)
        opts = self.model._meta
        if request.method == "POST":
            with reversion.create_revision():
                reversion.set_user(request.user)
                reversion.set_comment(
                    f"Gelöschtes aus der Fassung vom {_when(version)} zurückgeholt"
                )
                version.revert()
                obj = self.model._default_manager.get(pk=version.object_id)
                self.after_recover(request, obj, version)
            self.message_user(
                request,
                f"„{obj}“ ist zurück – als Entwurf; online erst nach dem Veröffentlichen.",
                messages.SUCCESS,
            )
            return HttpResponseRedirect(
                reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[quote(obj.pk)])
            )
        old = self.history_old(version)
        rows = [row for row in field_diffs(self.history_fields, old, {}) if row.old]
        listing = reverse(f"admin:{opts.app_label}_{opts.model_name}_recoverlist")
        context = {
            **self.admin_site.each_context(request),
            "opts": opts,
            "object": version.object_repr,
            "title": f"„{version.object_repr}“ zurückholen",
            "version": version,
            "when": _when(version),
            "rows": rows,
            "changed": rows,
            "change_url": listing,
            "history_url": listing,
            "can_restore": True,
            **(extra_context or {}),
        }
        return TemplateResponse(request, "admin/editorial/version_diff.html", context)


def _value(obj, name):
    value = getattr(obj, obj._meta.get_field(name).attname)
    return value


def _when(version) -> str:
    return date_format(localtime(version.revision.date_created), "j. F Y, H:i") + " Uhr"
