from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.utils import timezone

from accounts import services

pytestmark = pytest.mark.django_db


def test_only_stale_unconfirmed_signups_are_deleted(reader):
    User = get_user_model()
    old = timezone.now() - timedelta(days=8)
    stale = User.objects.create_user("alt@example.org", "alt@example.org", "x", is_active=False)
    fresh = User.objects.create_user("neu@example.org", "neu@example.org", "x", is_active=False)
    blocked = User.objects.create_user(
        "gesperrt@example.org", "g@example.org", "x", is_active=False
    )
    services.adopt(blocked, "seine-id")  # had logged in once, then an editor blocked it
    User.objects.filter(pk__in=[stale.pk, blocked.pk, reader.pk]).update(date_joined=old)
    output = StringIO()
    call_command("accounts_cleanup", stdout=output)
    assert output.getvalue().strip() == "1 unbestätigte Konten gelöscht."
    assert set(User.objects.values_list("username", flat=True)) == {
        reader.username,
        fresh.username,
        blocked.username,
    }
