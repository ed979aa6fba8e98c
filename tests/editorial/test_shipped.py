"""load_content keeps editors' work and says which shipped blocks are newer."""

import shutil

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from editorial.models import ShippedItem
from rules.content_loader import CONTENT_DIR, load_all
from rules.models import Section

pytestmark = pytest.mark.django_db


@pytest.fixture
def shipped_dir(tmp_path):
    target = tmp_path / "content"
    shutil.copytree(CONTENT_DIR, target)
    return target


def _correct_goal(directory):
    path = directory / "alpaka.toml"
    text = path.read_text()
    old = "Hier willst du möglichst **wenig** haben."
    assert old in text
    path.write_text(text.replace(old, "Gewonnen hat, wer möglichst **wenig** hat."))


def test_unchanged_files_report_nothing_new(shipped_dir):
    assert load_all(shipped_dir).created
    report = load_all(shipped_dir)
    assert report.newer == [] and report.created == []
    assert not ShippedItem.objects.exclude(pending_hash="").exists()


def test_load_content_lists_a_changed_shipped_section_and_keeps_the_database(shipped_dir, capsys):
    load_all(shipped_dir)
    _correct_goal(shipped_dir)
    report = load_all(shipped_dir)
    assert report.newer == ["alpaka: Abschnitt „Ziel des Spiels“"]
    goal = Section.objects.get(article__game__slug="alpaka", kind="ziel")
    assert "Hier willst du" in goal.body  # editors' database is never overwritten
    # Reported again until an editor decides; no duplicate rows.
    assert load_all(shipped_dir).newer == report.newer
    assert ShippedItem.objects.exclude(pending_hash="").count() == 1


def test_load_content_command_names_newer_shipped_blocks(
    capsys, settings, shipped_dir, monkeypatch
):
    monkeypatch.setattr("rules.content_loader.CONTENT_DIR", shipped_dir)
    monkeypatch.setattr(
        "rules.management.commands.load_content.load_all",
        lambda: load_all(shipped_dir),
    )
    call_command("load_content")
    _correct_goal(shipped_dir)
    capsys.readouterr()
    call_command("load_content")
    out = capsys.readouterr().out
    assert (
        "neue mitgelieferte Fassung (im Admin übernehmen oder verwerfen): alpaka: Abschnitt „Ziel des Spiels“"
        in out
    )


def test_admin_shows_the_diff_and_adopts_it_as_a_draft(editor_client, shipped_dir):
    load_all(shipped_dir)
    _correct_goal(shipped_dir)
    load_all(shipped_dir)
    listing = editor_client.get(reverse("admin:editorial_shippeditem_changelist")).content.decode()
    assert "Neue mitgelieferte Fassung" in listing and "Ziel des Spiels" in listing
    record = ShippedItem.objects.exclude(pending_hash="").get()
    url = reverse("admin:editorial_shippeditem_change", args=[record.pk])
    page = editor_client.get(url).content.decode()
    assert "<del>Hier</del>" in page and "<ins>Gewonnen</ins>" in page
    assert editor_client.post(url, {"_adopt": "1"}).status_code == 302
    goal = Section.objects.get(article__game__slug="alpaka", kind="ziel")
    assert "Gewonnen hat" in goal.body
    assert "Gewonnen hat" not in Client().get("/spiele/alpaka/").content.decode()  # a draft
    assert load_all(shipped_dir).newer == []


def test_dismissing_keeps_ours_until_the_file_changes_again(editor_client, shipped_dir):
    load_all(shipped_dir)
    _correct_goal(shipped_dir)
    load_all(shipped_dir)
    record = ShippedItem.objects.exclude(pending_hash="").get()
    url = reverse("admin:editorial_shippeditem_change", args=[record.pk])
    assert editor_client.post(url, {"_dismiss": "1"}).status_code == 302
    assert load_all(shipped_dir).newer == []
    goal = Section.objects.get(article__game__slug="alpaka", kind="ziel")
    assert "Hier willst du" in goal.body
