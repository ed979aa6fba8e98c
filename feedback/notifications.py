"""E-mail to the reader when an editor changes the status of their report."""

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.utils import timezone

logger = logging.getLogger(__name__)


def status_url(report, request=None) -> str:
    path = report.get_status_url()
    if request is not None:
        return request.build_absolute_uri(path)
    return settings.SITE_URL.rstrip("/") + path


def send_status_mail(report, request=None) -> bool:
    """Plain-text mail (no HTML: reader and editor text go out exactly as typed)."""
    context = {
        "report": report,
        "status_url": status_url(report, request),
        "site_name": settings.SITE_NAME,
    }
    subject = f"Dein Hinweis zu „{report.game.title}“: {report.reader_status_label}"
    body = render_to_string("feedback/status_mail.txt", context)
    try:
        send_mail(subject, body, None, [report.email])
    except Exception:  # a mail server problem must not lose the editor's change
        logger.exception("Status-E-Mail zu Meldung %s ließ sich nicht senden", report.pk)
        return False
    report.__class__.objects.filter(pk=report.pk).update(reader_notified_at=timezone.now())
    return True
