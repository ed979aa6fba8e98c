"""The shipped texts (Markdown), read by the data migration and by ``page()`` as a fallback."""

from pathlib import Path

DIRECTORY = Path(__file__).resolve().parent

TITLES = {"impressum": "Impressum", "datenschutz": "Datenschutzerklärung"}


def shipped(key: str) -> dict:
    return {"title": TITLES[key], "body": (DIRECTORY / f"{key}.md").read_text(encoding="utf-8")}
