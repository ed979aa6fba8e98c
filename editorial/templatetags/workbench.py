"""Staff-only links on the game page: „Bearbeiten“ beside each block, the publish bar.

Rendered only into a staff member's working-copy page, which the page cache never
stores and whose parts are never kept (games/views.py): readers never get them.
"""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from editorial.publish import pending
from rules.models import PUBLISH_PERMISSION

register = template.Library()

REPORT_PARAM = "zur_meldung"


def _shows_working_copy(context) -> bool:
    request = context.get("request")
    page = context.get("article_page")
    return bool(
        request is not None
        and request.user.is_authenticated
        and request.user.is_staff
        and page is not None
        and page.is_working_copy
    )


def _report_query(context) -> str:
    value = context["request"].GET.get(REPORT_PARAM, "")
    return f"?{REPORT_PARAM}={value}" if value.isdigit() else ""


@register.simple_tag(takes_context=True)
def edit_link(context, block, label=""):
    """„Bearbeiten“ for one block (a saved row of the working copy); nothing for readers."""
    if not _shows_working_copy(context) or getattr(block, "pk", None) is None:
        return ""
    opts = block._meta
    url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[block.pk])
    return format_html(
        '<a class="edit-link" href="{}{}">Bearbeiten<span class="visually-hidden"> – {}</span></a>',
        url,
        _report_query(context),
        label or str(block),
    )


@register.simple_tag(takes_context=True)
def page_publish_state(context, game):
    """What is waiting to go online for this page, and whether this user may publish it."""
    if not _shows_working_copy(context):
        return None
    request = context["request"]
    return {
        "waiting": pending(game),
        "can_publish": request.user.has_perm(PUBLISH_PERMISSION),
        "report_query": _report_query(context),
        "report_id": request.GET.get(REPORT_PARAM, "") if _report_query(context) else "",
    }


@register.inclusion_tag("admin/editorial/shipped_notice.html", takes_context=True)
def shipped_notice(context):
    """On the admin index: how many shipped blocks are newer than the database's."""
    from editorial.models import ShippedItem

    request = context.get("request")
    if request is None or not request.user.has_perm("editorial.view_shippeditem"):
        return {"count": 0}
    return {
        "count": ShippedItem.objects.exclude(pending_hash="").count(),
        "url": reverse("admin:editorial_shippeditem_changelist"),
    }
