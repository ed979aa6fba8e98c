"""Compressed pages (site_config/page_cache.py): cached pages – the same for every reader,
no secret in them – go out compressed as the browser accepts; per-visitor responses
(CSRF token, cookie, demo state, forms) never do (BREACH). Static files: our CSS and JS
minified when collected (site_config/storage.py)."""

from __future__ import annotations

import gzip
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from site_config import page_cache, storage
from tests.factories import make_article, make_game

pytestmark = pytest.mark.django_db

BROWSER = "gzip, deflate, br, zstd"


@pytest.fixture
def game():
    game = make_game("gepackt", title="Gepackt", demo_engine="takeaway", players_max=2)
    make_article(game)
    return game


def decoded(response) -> bytes:
    encoding = response.get("Content-Encoding", "")
    if encoding == "gzip":
        return gzip.decompress(response.content)
    if encoding == "br":
        import brotli

        return brotli.decompress(response.content)
    assert encoding == ""
    return response.content


def test_a_cached_page_goes_out_in_the_best_encoding_the_browser_accepts(game):
    url = game.get_absolute_url()
    plain = Client().get(url)  # miss, rendered for a client that accepts no encoding
    assert "Content-Encoding" not in plain
    assert len(plain.content) >= page_cache.MIN_COMPRESSED_SIZE
    for state in ("hit", "hit"):  # compressed once, then kept in that encoding
        packed = Client().get(url, headers={"Accept-Encoding": BROWSER})
        assert packed["X-Page-Cache"] == state
        assert packed["Content-Encoding"] == page_cache.ENCODINGS[0]
        assert packed["Content-Length"] == str(len(packed.content))
        assert len(packed.content) < len(plain.content) / 3
        assert decoded(packed) == plain.content
        assert "Accept-Encoding" in packed["Vary"]
    assert "Accept-Encoding" in Client().get(url)["Vary"]  # the identity copy says so too


@pytest.mark.parametrize("encoding", page_cache.ENCODINGS)
def test_a_miss_is_compressed_too_and_each_encoding_is_its_own_body(game, encoding):
    url = game.get_absolute_url()
    miss = Client().get(url, headers={"Accept-Encoding": encoding})
    assert (miss["X-Page-Cache"], miss["Content-Encoding"]) == ("miss", encoding)
    hit = Client().get(url, headers={"Accept-Encoding": encoding})
    assert (hit["X-Page-Cache"], hit["Content-Encoding"]) == ("hit", encoding)
    assert hit.content == miss.content
    assert decoded(hit) == Client().get(url).content


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("", ""),
        ("identity", ""),
        ("gzip", "gzip"),
        ("gzip;q=0", ""),
        ("deflate", ""),
        ("*", page_cache.ENCODINGS[0]),
        ("*;q=0, gzip", "gzip"),
        ("br;q=0, gzip;q=0.5", "gzip"),
        ("GZIP", "gzip"),
        ("gzip;q=zero", ""),
    ],
)
def test_accept_encoding_is_read_with_its_q_values(rf, header, expected):
    request = rf.get("/", headers={"Accept-Encoding": header} if header else {})
    assert page_cache.accepted_encoding(request) == expected


def test_small_pages_stay_as_they_are():
    small = (1, 200, {}, {"": b"x" * (page_cache.MIN_COMPRESSED_SIZE - 1)})
    assert page_cache._encoding_for(small, "gzip") == ""


def test_nothing_per_visitor_is_compressed(game, editor_client):
    """BREACH guesses a secret in a compressed body from its length: responses with a CSRF
    token, a new cookie or one visitor's state go out as they are, whatever the browser
    accepts."""
    headers = {"Accept-Encoding": BROWSER}
    reader = Client()
    per_visitor = [
        reader.get(f"/spiele/{game.slug}/demo/", headers={**headers, "HX-Request": "true"}),
        reader.get(f"/spiele/{game.slug}/demo/", headers=headers),  # full-screen demo
        reader.get(f"/spiele/{game.slug}/sterne/", headers={**headers, "HX-Request": "true"}),
        reader.get(f"{game.get_absolute_url()}?melden=1", headers=headers),  # report form
        reader.get("/konto/anmelden/", headers=headers),
        editor_client.get(game.get_absolute_url(), headers=headers),  # staff: drafts
    ]
    for response in per_visitor:
        assert response.status_code == 200, response.request["PATH_INFO"]
        assert "Content-Encoding" not in response, response.request["PATH_INFO"]
        assert response["Cache-Control"].startswith("private") or "no-store" in response.get(
            "Cache-Control", ""
        )


def test_a_signed_in_reader_gets_the_stored_page_compressed(game, django_user_model):
    """The stored page holds nothing of anybody: compressed for a signed-in reader too."""
    url = game.get_absolute_url()
    Client().get(url)
    reader = Client()
    reader.force_login(django_user_model.objects.create_user("leserin", password="x" * 12))
    response = reader.get(url, headers={"Accept-Encoding": "gzip"})
    assert (response["X-Page-Cache"], response["Content-Encoding"]) == ("hit", "gzip")
    assert "csrfmiddlewaretoken" not in decoded(response).decode()
    assert response["Cache-Control"] == page_cache.SIGNED_IN_CACHE_CONTROL


def _shipped(suffix: str) -> list[Path]:
    base = Path(settings.BASE_DIR)
    found = [
        path
        for path in [*base.glob(f"static/**/*.{suffix}"), *base.glob(f"games/play/*/static/**/*.{suffix}")]
        if ".min." not in path.name
    ]  # fmt: skip
    assert found
    return found


def test_our_style_sheets_are_minified_and_keep_every_rule():
    for path in _shipped("css"):
        text = path.read_text()
        smaller = storage.minified(f"css/{path.name}", text)
        assert smaller is not None and len(smaller) < len(text), path
        assert smaller.count("{") == text.count("{") - _in_comments(text, "{"), path


def _in_comments(text: str, char: str) -> int:
    import re

    return sum(comment.count(char) for comment in re.findall(r"/\*.*?\*/", text, re.S))


@pytest.mark.skipif(shutil.which("node") is None, reason="node checks the minified scripts")
def test_our_scripts_are_minified_and_still_parse(tmp_path):
    for path in _shipped("js"):
        text = path.read_text()
        smaller = storage.minified(f"js/{path.name}", text)
        assert smaller is not None and len(smaller) < len(text), path
        target = tmp_path / path.name
        target.write_text(smaller)
        checked = subprocess.run(["node", "--check", str(target)], capture_output=True, text=True)
        assert checked.returncode == 0, (path, checked.stderr)


def test_vendored_and_admin_files_are_left_alone():
    assert storage.minified("vendor/htmx-2.0.10.min.js", "var a = 1;  // x") is None
    assert storage.minified("admin/js/core.js", "var a = 1;  // x") is None
    assert storage.minified("img/favicon.svg", "<svg/>") is None


def test_a_static_name_is_resolved_once_per_process(tmp_path, settings, monkeypatch):
    settings.DEBUG = False
    collected = storage.MinifiedStaticFilesStorage(location=tmp_path, base_url="/static/")
    looked_up = []

    def stored_name(name):
        looked_up.append(name)
        return name.replace(".css", ".0123abcd.css")

    monkeypatch.setattr(collected, "stored_name", stored_name)
    urls = [collected.url("css/site.css") for _ in range(3)] + [collected.url("css/rooms.css")]
    assert urls == ["/static/css/site.0123abcd.css"] * 3 + ["/static/css/rooms.0123abcd.css"]
    assert looked_up == ["css/site.css", "css/rooms.css"]
    settings.DEBUG = True  # runserver: plain names, nothing kept from before
    assert collected.url("css/site.css") == "/static/css/site.css"
