import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db


def test_dev_editor_is_refused_outside_debug(settings):
    settings.DEBUG = False
    settings.DEV_EDITOR_USERNAME = "redaktion"
    settings.DEV_EDITOR_PASSWORD = "karten-lesen-2026"
    with pytest.raises(CommandError):
        call_command("ensure_dev_editor")
    assert not get_user_model().objects.filter(username="redaktion").exists()


def test_dev_editor_is_created_once_as_non_superuser_editor(settings, capsys):
    settings.DEBUG = True
    settings.DEV_EDITOR_USERNAME = "redaktion"
    settings.DEV_EDITOR_PASSWORD = "karten-lesen-2026"
    call_command("ensure_dev_editor")
    call_command("ensure_dev_editor")
    user = get_user_model().objects.get(username="redaktion")
    assert user.is_staff and not user.is_superuser
    assert user.check_password("karten-lesen-2026")
    assert user.groups.filter(name="Redaktion").exists()
    assert "karten-lesen-2026" in capsys.readouterr().out


def test_load_content_command_reports_created_and_kept(capsys):
    call_command("load_content")
    first = capsys.readouterr().out
    call_command("load_content")
    second = capsys.readouterr().out
    assert "angelegt: the-cat" in first
    assert "vorhanden, nicht verändert: the-cat" in second
