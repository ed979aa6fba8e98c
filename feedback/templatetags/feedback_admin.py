from django import template
from django.urls import reverse

from feedback.models import ErrorReport

register = template.Library()


@register.inclusion_tag("feedback/admin_new_reports.html", takes_context=True)
def new_reports_notice(context):
    """How many real (non-spam) reports wait on the admin index; nothing without permission."""
    request = context.get("request")
    if request is None or not request.user.has_perm("feedback.view_errorreport"):
        return {"show": False}
    count = ErrorReport.objects.new().count()
    held = ErrorReport.objects.held().count()
    url = reverse("admin:feedback_errorreport_changelist")
    return {
        "show": True,
        "count": count,
        "url": f"{url}?status__exact=neu",
        "held": held,
        "held_url": f"{url}?status__exact={ErrorReport.Status.HELD.value}",
    }
