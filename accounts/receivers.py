"""Signal receivers: login adopts the browser's visitor id, logout starts a fresh one,
and the feedback app's events earn points."""

from django.contrib import messages
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts import services
from feedback.models import ErrorReport, Vote
from feedback.signals import report_status_changed
from games import visitors


@receiver(user_logged_in, dispatch_uid="accounts.adopt_on_login")
def adopt_on_login(sender, request, user, **kwargs):
    if request is not None:  # None: e.g. a login without a request
        adopt_browser(request, user)


def adopt_browser(request, user) -> None:
    """Take over this browser's visitor id (see services.adopt) and tell the reader what moved."""
    adoption = services.adopt(user, visitors.existing_visitor_id(request))
    visitors.switch_visitor(request, adoption.visitor)
    if adoption.vote_conflicts:
        for title, stars in adoption.vote_conflicts:
            messages.info(
                request,
                f"Für „{title}“ gab es zwei Bewertungen von dir; behalten haben wir die "
                f"neuere mit {stars} von 5 Sternen.",
            )
    if adoption.anything:
        messages.success(request, _adoption_summary(adoption))


def _adoption_summary(adoption) -> str:
    parts = []
    for count, one, many in (
        (adoption.votes, "eine Bewertung", "{} Bewertungen"),
        (adoption.reports, "eine Fehlermeldung", "{} Fehlermeldungen"),
        (adoption.demos, "eine Demo-Partie", "{} Demo-Partien"),
        (adoption.seats, "einen Platz in einem Raum", "{} Plätze in Räumen"),
        (adoption.points, "einen Punkt", "{} Punkte"),
    ):
        if count:
            parts.append(one if count == 1 else many.format(count))
    listed = ", ".join(parts[:-1]) + (" und " if len(parts) > 1 else "") + parts[-1]
    return f"Aus diesem Browser übernommen: {listed}."


@receiver(user_logged_out, dispatch_uid="accounts.fresh_visitor_on_logout")
def fresh_visitor_on_logout(sender, request, user, **kwargs):
    # The next person at this browser must not continue the reader's votes and games.
    if request is not None:
        visitors.switch_visitor(request, visitors.new_visitor_id(), is_new=True)


@receiver(post_save, sender=Vote, dispatch_uid="accounts.points_for_first_vote")
def points_for_first_vote(sender, instance, created, raw=False, **kwargs):
    if created and not raw:
        # The vote view reads this to say „+5 Punkte“ at the vote box.
        instance.points_awarded = services.award_first_vote(instance)


@receiver(report_status_changed, dispatch_uid="accounts.points_for_accepted_reports")
def points_for_accepted_reports(sender, report_ids, status, **kwargs):
    if status == ErrorReport.Status.CORRECTED:
        services.award_accepted_reports(report_ids)
