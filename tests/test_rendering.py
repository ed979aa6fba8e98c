import pytest

from rules.rendering import render_markdown


def test_markdown_keeps_allowed_formatting():
    html = render_markdown(
        "Ein **wichtiger** Satz.\n\n- eins\n- zwei\n\n| A | B |\n|---|---|\n| 1 | 2 |"
    )
    assert "<strong>wichtiger</strong>" in html
    assert "<ul>" in html and "<li>eins</li>" in html
    assert "<table>" in html and "<td>1</td>" in html


@pytest.mark.parametrize(
    "attack",
    [
        "<script>alert(1)</script>",
        '<img src=x onerror="alert(1)">',
        '<p onclick="alert(1)">Klick</p>',
        '<a href="javascript:alert(1)">Link</a>',
        "[Link](javascript:alert(1))",
        '<iframe src="https://example.org"></iframe>',
        '<svg onload="alert(1)"></svg>',
        "<style>body{display:none}</style>",
    ],
)
def test_sanitizer_strips_scripts_and_event_handlers(attack):
    html = render_markdown(f"Vorher\n\n{attack}\n\nNachher")
    lowered = html.lower()
    for forbidden in (
        "<script",
        "onerror",
        "onclick",
        "onload",
        "javascript:",
        "<iframe",
        "<style",
        "<img",
        "<svg",
    ):
        assert forbidden not in lowered, html
    assert "Vorher" in html and "Nachher" in html


def test_empty_text_renders_empty():
    assert render_markdown(None) == ""
    assert render_markdown("") == ""
