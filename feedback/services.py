"""Spam scoring, rate limits and vote statistics for reader feedback.

No captcha: a honeypot field, a minimum fill time, per-IP/per-game rate limits
and a link count decide whether a report is spam. Spam is stored (flagged) so the
filter can be checked, but the sender is never told – the response is the same.

Rate limits (site_config/ratelimit.py) count in Django's cache per client
address; behind a reverse proxy set TRUSTED_PROXIES so X-Forwarded-For is used.
"""

import re
import secrets
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.core.cache import cache
from django.db.models import Avg, Count, IntegerField, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils.crypto import salted_hmac

from feedback.models import ErrorReport, Vote
from games import clock
from games.visitors import visitor_id
from rules.models import Section
from site_config import content_versions
from site_config.ratelimit import DAY, HOUR, Limit, client_ip, hit

# Reports: more than these from one address are stored as spam.
REPORTS_PER_IP = Limit("report-ip", 10, HOUR)
REPORTS_PER_IP_AND_GAME = Limit("report-ip-game", 4, HOUR)
# Only reports that pass every spam rule count here; beyond it a report is held for review
# („zu prüfen“), never marked spam: a flood must not bury a genuine report.
REPORTS_PER_GAME = Limit("report-game", 40, HOUR)
# Beyond this a client is a flood: nothing more is stored (a known case: 16,200 spam rows).
REPORTS_FLOOD_PER_IP = Limit("report-flood", 60, HOUR)
# Votes: changing a vote counts too; beyond the limit the reader is told to wait.
VOTES_PER_IP = Limit("vote-ip", 40, HOUR)
VOTES_PER_IP_AND_GAME = Limit("vote-ip-game", 8, HOUR)
# New votes (not changes): clearing the cookie must not let one address stuff a game's rating.
NEW_VOTES_PER_IP_AND_GAME = Limit("vote-new-ip-game", 3, DAY)

MAX_LINKS = 1
# Each alternative consumes a whole link, so "https://www.x.com/a" counts once.
LINK_PATTERN = re.compile(
    r"https?://\S+|www\.\S+|\[url[^\]]*\]|<a\s[^>]*>"
    r"|\b[\w-]+\.(?:com|net|org|ru|xyz|top|info|io|biz|click|shop)\b(?:/\S*)?",
    re.IGNORECASE,
)
TIMESTAMP_SALT = "feedback.form-rendered"


def min_fill_seconds() -> float:
    return getattr(settings, "FEEDBACK_MIN_FILL_SECONDS", 4)


def max_form_age() -> float:
    """After this many seconds the form's timestamp no longer counts as a fill time."""
    return getattr(settings, "FEEDBACK_MAX_FORM_AGE", 6 * HOUR)


def form_timestamp() -> str:
    """Signed render time for the form; the reply tells how long the reader took.

    A random part makes every token unique, so single use (claim_timestamp) never
    catches two readers who opened the form in the same instant.
    """
    return signing.dumps([clock.now().timestamp(), secrets.token_urlsafe(8)], salt=TIMESTAMP_SALT)


def seconds_since(token: str) -> float | None:
    try:
        value = signing.loads(token, salt=TIMESTAMP_SALT)
        # Tokens rendered before the random part was added are a bare number.
        rendered = float(value[0] if isinstance(value, list) else value)
    except (signing.BadSignature, TypeError, ValueError, IndexError):
        return None
    return clock.now().timestamp() - rendered


def claim_timestamp(token: str) -> bool:
    """Single use: True the first time a (validly signed) token is sent, False after that.

    The cache remembers used tokens until they would have expired anyway.
    """
    digest = salted_hmac("feedback.used-token", token, algorithm="sha256").hexdigest()[:32]
    return cache.add(f"feedback:used-token:{digest}", 1, timeout=int(max_form_age()) + 60)


def count_links(*texts: str) -> int:
    return sum(len(LINK_PATTERN.findall(text or "")) for text in texts)


@dataclass(frozen=True)
class Assessment:
    reasons: tuple[str, ...]
    fill_seconds: float | None
    drop: bool = False  # a flood: do not even store it
    hold: str = ""  # why a report that is not spam waits for an editor („zu prüfen“)

    @property
    def is_spam(self):
        return bool(self.reasons)


def assess_report(request, game, cleaned: dict) -> Assessment:
    """Every spam rule, in one place.

    The per-address limits count every submission; the per-game limit counts only reports
    that passed everything else, and going over it holds a report instead of marking spam.
    """
    ip = client_ip(request)
    reasons = []
    if cleaned.get("website"):
        reasons.append("Honeypot ausgefüllt")
    token = cleaned.get("t", "")
    elapsed = seconds_since(token)
    if elapsed is None:
        reasons.append("ohne gültigen Zeitstempel")
    elif not claim_timestamp(token):
        reasons.append("Zeitstempel schon benutzt")
    elif elapsed < min_fill_seconds():
        reasons.append(f"zu schnell ({elapsed:.1f} s)")
    elif elapsed > max_form_age():
        reasons.append(f"Zeitstempel abgelaufen ({elapsed / HOUR:.0f} h)")
    links = count_links(cleaned.get("message", ""), cleaned.get("rulebook_reference", ""))
    if links > MAX_LINKS:
        reasons.append(f"{links} Links")
    flood = hit(REPORTS_FLOOD_PER_IP, ip)
    if hit(REPORTS_PER_IP, ip):
        reasons.append("Ratenlimit je IP")
    if hit(REPORTS_PER_IP_AND_GAME, ip, game.pk):
        reasons.append("Ratenlimit je IP und Spiel")
    hold = ""
    if not reasons and hit(REPORTS_PER_GAME, game.pk):
        hold = (
            f"Zurückgehalten: mehr als {REPORTS_PER_GAME.count} Meldungen zu diesem Spiel "
            "in einer Stunde. Bitte prüfen, ob die Meldung echt ist."
        )
    seconds = None if elapsed is None else max(0.0, elapsed)
    return Assessment(tuple(reasons), seconds, drop=flood, hold=hold)


def _position(request, game, reference: str) -> dict | None:
    """The demo or replay position the reader reported from (None: none attached)."""
    if not reference or not game.demo_engine:
        return None
    from games.play import positions

    return positions.resolve(reference, visitor_id(request), game.demo_engine)


def create_report(request, game, cleaned: dict, section_label: str) -> ErrorReport:
    """Store a report (spam flagged, held over the per-game limit, floods dropped).

    Returns the report, saved or not."""
    assessment = assess_report(request, game, cleaned)
    url = request.build_absolute_uri(game.get_absolute_url())
    kind = cleaned.get("section_kind", "")
    report = ErrorReport(
        game=game,
        section_kind=kind,
        section_label=section_label,
        message=cleaned["message"],
        rulebook_reference=cleaned.get("rulebook_reference", ""),
        email=cleaned.get("email", ""),
        page_url=f"{url}#{kind}" if kind else url,
        article_version=cleaned.get("fassung"),
        is_spam=assessment.is_spam,
        status=ErrorReport.Status.HELD if assessment.hold else ErrorReport.Status.NEW,
        internal_note=assessment.hold,
        spam_reasons=", ".join(assessment.reasons)[:200],
        fill_seconds=None if assessment.fill_seconds is None else int(assessment.fill_seconds),
        visitor=visitor_id(request),
        position=_position(request, game, cleaned.get("stellung", "")),
    )
    if not assessment.drop:
        report.save()
    return report


# Votes ---------------------------------------------------------------------


def with_vote_stats(queryset, visitor: str | None = None):
    """Annotate vote_count, vote_average (and my_stars) as subqueries: no N+1, no join fan-out."""
    votes = Vote.objects.filter(game=OuterRef("pk")).order_by().values("game")
    queryset = queryset.annotate(
        vote_count=Coalesce(
            Subquery(votes.annotate(n=Count("pk")).values("n"), output_field=IntegerField()), 0
        ),
        vote_average=Subquery(votes.annotate(avg=Avg("stars")).values("avg")),
    )
    if visitor:
        mine = Vote.objects.filter(game=OuterRef("pk"), visitor=visitor).values("stars")[:1]
        queryset = queryset.annotate(my_stars=Subquery(mine))
    return queryset


def attach_vote_stats(game, votes_version: str):
    """Set vote_count and vote_average on one game (as ``with_vote_stats`` annotates a
    list), kept per process under the votes' content version (site_config.content_versions)
    until any vote changes."""

    def count() -> dict:
        votes = Vote.objects.filter(game=game)
        return votes.aggregate(vote_count=Count("pk"), vote_average=Avg("stars"))

    stats = content_versions.kept(f"vote-stats:{game.pk}:{votes_version}", count)
    game.vote_count = stats["vote_count"]
    game.vote_average = stats["vote_average"]
    return game


def vote_allowed(request, game, visitor: str) -> bool:
    ip = client_ip(request)
    over_ip = hit(VOTES_PER_IP, ip)
    over_game = hit(VOTES_PER_IP_AND_GAME, ip, game.pk)
    is_new = not Vote.objects.filter(game=game, visitor=visitor).exists()
    over_new = is_new and hit(NEW_VOTES_PER_IP_AND_GAME, ip, game.pk)
    return not (over_ip or over_game or over_new)


def cast_vote(game, visitor: str, stars: int) -> Vote:
    vote, _ = Vote.objects.update_or_create(game=game, visitor=visitor, defaults={"stars": stars})
    return vote


# The form's section list ----------------------------------------------------

GENERAL_CHOICE = ("", "Ganze Seite / weiß nicht genau")
GLANCE_CHOICE = (Section.Kind.AT_A_GLANCE.value, "Auf einen Blick (Spieler, Dauer, Alter …)")
DEMO_CHOICE = ("demo", "Demo „Ausprobieren“")


def section_choices(article, sections, has_demo: bool) -> list[tuple[str, str]]:
    """What a reader can point at on this page, in page order."""
    choices = [GENERAL_CHOICE, GLANCE_CHOICE]
    kinds = {section.kind for section in sections}
    if has_demo:
        choices.append(DEMO_CHOICE)
    for section in sections:
        if section.kind != Section.Kind.AT_A_GLANCE:
            choices.append((section.kind, section.heading))
    if article is not None:
        if Section.Kind.EXAMPLES not in kinds and article.examples.all():
            choices.append((Section.Kind.EXAMPLES.value, "Beispiele"))
        if Section.Kind.MISTAKES not in kinds and article.mistakes.all():
            choices.append((Section.Kind.MISTAKES.value, "Häufige Irrtümer"))
    return choices
