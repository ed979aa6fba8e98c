"""A console e-mail backend for development that prints mails readably.

Django's console backend prints the MIME source: the text part is quoted-printable,
so a long link appears with ``=`` line breaks and gives a 404 when copied. This one
prints the headers (decoded) and the plain-text part as the reader sees it, with
links whole, then names any other parts (the HTML alternative, attachments).
"""

from __future__ import annotations

from django.core.mail.backends.console import EmailBackend as ConsoleBackend

RULE = "-" * 79


class ReadableConsoleBackend(ConsoleBackend):
    def write_message(self, message) -> None:
        lines = [
            f"Betreff: {message.subject}",
            f"Von: {message.from_email}",
            f"An: {', '.join(message.to)}",
        ]
        if message.cc:
            lines.append(f"Cc: {', '.join(message.cc)}")
        if message.reply_to:
            lines.append(f"Antwort an: {', '.join(message.reply_to)}")
        lines += ["", str(message.body).rstrip()]
        others = [
            f"Alternative: {mimetype}" for _, mimetype in getattr(message, "alternatives", [])
        ]
        others += [f"Anhang: {_name(attachment)}" for attachment in message.attachments]
        if others:
            lines += ["", *(f"[{other}]" for other in others)]
        self.stream.write("\n".join(lines) + "\n" + RULE + "\n")


def _name(attachment) -> str:
    filename = getattr(attachment, "filename", None)
    if filename is None and isinstance(attachment, tuple):
        filename = attachment[0]
    return filename or "ohne Namen"
