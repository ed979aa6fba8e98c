"""Worked examples as typed fields: editors never type JSON, and the engine has the last word."""

import pytest
from django.urls import reverse

from games.example_fields import CHOICE, SHOWN, check_form_class, kind_of
from rules.admin import WorkedExampleForm
from rules.models import WorkedExample
from tests.feedback.formdata import form_data

pytestmark = pytest.mark.django_db


def _post_data(example, **changes):
    """What a browser sends for the example's form as it is shown (typed fields filled)."""
    form = check_form_class(WorkedExampleForm, kind_of(example.engine_check))(instance=example)
    data = {name: form[name].value() for name in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items()}
    data["article"] = example.article_id
    data.update(changes)
    return data


def test_every_shipped_example_round_trips_through_the_typed_fields(content):
    checked = WorkedExample.objects.exclude(engine_check__isnull=True)
    assert checked.count() >= 30  # Alpaka's one-liners became one narrated round
    for example in checked:
        kind = kind_of(example.engine_check)
        form = check_form_class(WorkedExampleForm, kind)(_post_data(example), instance=example)
        assert form.is_valid(), (example.title, form.errors)
        assert form.cleaned_data["engine_check"] == example.engine_check, example.title
        assert form.cleaned_data["expect"] == example.expect, example.title


def test_a_result_the_engine_contradicts_cannot_be_saved(editor_client, content):
    example = WorkedExample.objects.get(title="Eine 2 eröffnet keinen Baustapel")
    url = reverse("admin:rules_workedexample_change", args=[example.pk])
    data = form_data(editor_client.get(url).content.decode(), "workedexample_form")
    assert data["check__card"] == "2" and data["expect__fits"] == "nein"
    data["check__card"] = "A"  # an ace opens an empty build pile
    response = editor_client.post(url, data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Die Engine kommt zu einem anderen Ergebnis" in html
    assert "„Passt“: im Beispiel „nein“, laut Engine „ja“" in html
    example.refresh_from_db()
    assert example.engine_check["card"] == "2"

    data["expect__fits"] = "ja"
    assert editor_client.post(url, data).status_code == 302
    example.refresh_from_db()
    assert example.engine_check["card"] == "A" and example.expect == {"fits": True}


def test_the_form_has_no_json_and_the_preview_runs_the_engine(editor_client, content):
    example = WorkedExample.objects.get(title="Eine ganze Runde: aussteigen oder ziehen?")
    url = reverse("admin:rules_workedexample_change", args=[example.pk])
    html = editor_client.get(url).content.decode()
    assert "engine_check" not in html and '"engine"' not in html
    assert "Anna: play:4\nBen: quit\nCara: draw" in html  # moves, one per line
    data = form_data(html, "workedexample_form")
    data["_engine_preview"] = "1"
    data["body"] = "Geändert, aber nur angesehen."
    preview = editor_client.post(url, data).content.decode()
    assert "Die Engine bestätigt das Ergebnis." in preview
    assert "Nur Vorschau – noch nichts gespeichert." in preview
    assert 'class="errornote"' not in preview  # a preview is no mistake
    example.refresh_from_db()
    assert example.body != "Geändert, aber nur angesehen."


def test_changing_the_kind_shows_its_fields_first(editor_client, content):
    example = WorkedExample.objects.get(title="Das Spielende")
    url = reverse("admin:rules_workedexample_change", args=[example.pk])
    data = form_data(editor_client.get(url).content.decode(), "workedexample_form")
    data[CHOICE] = "alpaka:score"
    html = editor_client.post(url, data).content.decode()
    assert "Prüfart gewechselt" in html and 'name="check__hand"' in html
    data = form_data(html, "workedexample_form")
    assert data[SHOWN] == "alpaka:score"
    data.update({"check__hand": "A A 3", "expect__score": "13"})
    assert editor_client.post(url, data).status_code == 302
    example.refresh_from_db()
    assert example.engine_check == {"engine": "alpaka", "kind": "score", "hand": ["A", "A", "3"]}


def test_a_new_example_lands_at_the_end(editor_client, content):
    example = WorkedExample.objects.filter(article__game__slug="alpaka").last()
    article = example.article
    url = reverse("admin:rules_workedexample_add") + f"?artikel={article.pk}"
    data = form_data(editor_client.get(url).content.decode(), "workedexample_form")
    assert data["article"] == str(article.pk) and data["position"] == ""
    data.update({"title": "Ganz neu", "body": "Ein neues Beispiel."})
    assert editor_client.post(url, data).status_code == 302
    new = WorkedExample.objects.get(title="Ganz neu")
    assert new.position > example.position
    assert list(article.examples.all())[-1] == new
