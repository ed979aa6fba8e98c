"""The development console shows e-mails readably: the text part decoded, links whole."""

from __future__ import annotations

import io

from django.core.mail import EmailMultiAlternatives

from site_config.mail import ReadableConsoleBackend

LINK = (
    "http://127.0.0.1:8000/konto/bestaetigen/"
    + "Mg" * 30
    + "/cz4k1y-0123456789abcdef0123456789abcdef/"
)


def test_the_console_prints_the_text_part_with_whole_links_and_umlauts():
    stream = io.StringIO()
    mail = EmailMultiAlternatives(
        "Bitte bestätige deine Adresse",
        f"Hallo Jürgen,\n\nbitte öffne diesen Link:\n{LINK}\n",
        "redaktion@kartenregeln.example",
        ["juergen@example.com"],
    )
    mail.attach_alternative(f'<p><a href="{LINK}">Bestätigen</a></p>', "text/html")
    ReadableConsoleBackend(stream=stream).send_messages([mail])
    out = stream.getvalue()
    assert LINK in out.splitlines()  # one line, exactly the link
    assert "Betreff: Bitte bestätige deine Adresse" in out and "Hallo Jürgen," in out
    assert "=\n" not in out and "=C3=BC" not in out  # no quoted-printable
    assert "[Alternative: text/html]" in out
