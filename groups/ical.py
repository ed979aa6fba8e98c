"""iCalendar (RFC 5545) for game nights: one night as a download, a group as a subscription.

The ``icalendar`` library does the folding and escaping. Times are written in UTC, which
every calendar converts to the reader's zone.
"""

from datetime import UTC, timedelta

from icalendar import Calendar, Event

from games import clock

PRODID = "-//Kartenregeln//Spielegruppen//DE"


def _calendar(name: str | None = None) -> Calendar:
    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    if name:
        calendar.add("x-wr-calname", name)
        # Subscriptions: ask calendar apps to look again every few hours.
        calendar.add("refresh-interval", timedelta(hours=6), parameters={"VALUE": "DURATION"})
        calendar.add("x-published-ttl", "PT6H")
    return calendar


def _event(night, url: str, host: str, absolute=None) -> Event:
    event = Event()
    event.add("uid", f"{night.uid}@{host}")
    event.add("dtstamp", clock.now().astimezone(UTC))
    event.add("dtstart", night.starts_at.astimezone(UTC))
    event.add("dtend", night.ends_at.astimezone(UTC))
    event.add("sequence", night.sequence)
    event.add("summary", f"{night.title} – {night.group.name}")
    published = [game for game in night.games.all() if game.is_published]
    games = [game.title for game in published]
    lines = []
    if games:
        lines.append("Spiele: " + ", ".join(games))
        if absolute is not None:
            lines.extend(
                f"Regeln {game.title}: {absolute(game.get_absolute_url())}" for game in published
            )
    if night.note:
        lines.append(night.note)
    lines.append(url)
    event.add("description", "\n".join(lines))
    if night.place:
        event.add("location", night.place)
    event.add("url", url)
    event.add("status", "CONFIRMED")
    return event


def night_calendar(night, url: str, host: str, absolute=None) -> bytes:
    """``absolute(path)`` makes the games' rules links absolute (left out without it)."""
    calendar = _calendar()
    calendar.add_component(_event(night, url, host, absolute))
    return calendar.to_ical()


def group_calendar(group, nights, url_for, host: str, absolute=None) -> bytes:
    """``nights`` are the fixed nights to publish; ``url_for(night)`` their absolute URL."""
    calendar = _calendar(f"{group.name} – Spieleabende")
    for night in nights:
        calendar.add_component(_event(night, url_for(night), host, absolute))
    return calendar.to_ical()
