"""What differs between two versions of a text or an article, for people to read.

``word_diff`` marks changed words (``<del>``/``<ins>``) in two columns; ``article_changes``
names the blocks whose working copy differs from the published snapshot.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

from rules.models import Section

_TOKENS = re.compile(r"\s+|\w+|[^\w\s]", re.UNICODE)


@dataclass(frozen=True)
class FieldDiff:
    label: str
    old: SafeString
    new: SafeString

    @property
    def changed(self):
        return self.old != self.new


def word_diff(old: str, new: str) -> tuple[SafeString, SafeString]:
    """Both texts escaped, with removed words in ``<del>`` (old) and added ones in ``<ins>`` (new)."""
    old_tokens = _TOKENS.findall(old or "")
    new_tokens = _TOKENS.findall(new or "")
    left, right = [], []
    matcher = difflib.SequenceMatcher(a=old_tokens, b=new_tokens, autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        removed = escape("".join(old_tokens[a1:a2]))
        added = escape("".join(new_tokens[b1:b2]))
        if op == "equal":
            left.append(removed)
            right.append(added)
            continue
        if removed:
            left.append(f"<del>{removed}</del>")
        if added:
            right.append(f"<ins>{added}</ins>")
    return mark_safe("".join(left)), mark_safe("".join(right))  # noqa: S308 (escaped above)


def field_diffs(labels: dict[str, str], old: dict, new: dict) -> list[FieldDiff]:
    """One row per field (label → word diff of its text)."""
    rows = []
    for name, label in labels.items():
        before, after = _text(old.get(name)), _text(new.get(name))
        left, right = word_diff(before, after)
        rows.append(FieldDiff(label, left, right))
    return rows


def _text(value) -> str:
    if value is None:
        return ""
    if value is True:
        return "ja"
    if value is False:
        return "nein"
    return str(value)


KIND_LABELS = dict(Section.Kind.choices)
PART_NAMES = {"examples": "Beispiel", "mistakes": "Irrtum", "questions": "Frage"}
# Lists of the article's form: noun, plural, and the field a row is known by.
LIST_NAMES = {"sources": ("Quelle", "Quellen", "key"), "glossary": ("Begriff", "Begriffe", "term")}


def article_changes(published: dict | None, working: dict) -> list[str]:
    """The blocks that publishing ``working`` changes, one German line each."""
    if not published:
        return ["Erste Veröffentlichung des Artikels"]
    lines = []
    if published.get("source") != working.get("source"):
        lines.append("Quelle (Regelheft)")
    old_sections = {s["kind"]: s for s in published.get("sections", [])}
    new_sections = {s["kind"]: s for s in working.get("sections", [])}
    for kind, section in new_sections.items():
        heading = section.get("title") or KIND_LABELS.get(kind, kind)
        if kind not in old_sections:
            lines.append(f"Abschnitt „{heading}“ neu")
        elif old_sections[kind] != section:
            lines.append(f"Abschnitt „{heading}“ geändert")
    for kind, section in old_sections.items():
        if kind not in new_sections:
            lines.append(
                f"Abschnitt „{section.get('title') or KIND_LABELS.get(kind, kind)}“ entfernt"
            )
    if [s["kind"] for s in published.get("sections", [])] != [
        s["kind"] for s in working.get("sections", [])
    ] and set(old_sections) == set(new_sections):
        lines.append("Reihenfolge der Abschnitte")
    for key, noun in PART_NAMES.items():
        lines.extend(_part_changes(noun, published.get(key, []), working.get(key, [])))
    for key, (noun, plural, name) in LIST_NAMES.items():
        old, new = published.get(key, []), working.get(key, [])
        lines.extend(_list_changes(noun, plural, name, old, new))
    return lines


def _list_changes(noun: str, plural: str, name: str, old: list[dict], new: list[dict]) -> list[str]:
    """Rows of the article's own lists (sources by key, glossary by term)."""
    before = {row[name]: row for row in old}
    after = {row[name]: row for row in new}
    lines = []
    for value, row in after.items():
        if value not in before:
            lines.append(f"{noun} „{value}“ neu")
        elif before[value] != row:
            lines.append(f"{noun} „{value}“ geändert")
    lines.extend(f"{noun} „{value}“ entfernt" for value in before if value not in after)
    if not lines and [row[name] for row in old] != [row[name] for row in new]:
        lines.append(f"Reihenfolge der {plural}")
    return lines


def _part_changes(noun: str, old: list[dict], new: list[dict]) -> list[str]:
    lines = []
    old_titles = [p["title"] for p in old]
    new_titles = [p["title"] for p in new]
    for index, part in enumerate(new):
        if part["title"] not in old_titles:
            lines.append(f"{noun} „{part['title']}“ neu")
        elif part != old[old_titles.index(part["title"])]:
            lines.append(f"{noun} {index + 1} „{part['title']}“ geändert")
    for part in old:
        if part["title"] not in new_titles:
            lines.append(f"{noun} „{part['title']}“ entfernt")
    return lines


def as_list(lines: list[str]) -> SafeString:
    return format_html(
        "<ul>{}</ul>", mark_safe("".join(format_html("<li>{}</li>", line) for line in lines))
    )
