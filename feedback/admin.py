"""The editors' inbox for reader error reports, and the votes.

Reader text is shown through Django's escaping only (display values and
format_html arguments) – nothing a reader typed is ever marked safe.
"""

from django import forms
from django.contrib import admin
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.text import Truncator

from feedback import notifications
from feedback.models import ErrorReport, Vote
from feedback.signals import report_status_changed


def age_label(delta) -> str:
    """German "vor 3 Tagen" (Django's timesince gives the nominative "3 Tage")."""
    minutes = int(delta.total_seconds() // 60)
    for size, one, many in (
        (1440, "Tag", "Tagen"),
        (60, "Stunde", "Stunden"),
        (1, "Minute", "Minuten"),
    ):
        if minutes >= size:
            count = minutes // size
            return f"vor {count} {one if count == 1 else many}"
    return "gerade eben"


class SpamFilter(admin.SimpleListFilter):
    """Spam is hidden unless asked for: the default list shows real reports only."""

    title = "Spam"
    parameter_name = "spam"

    def lookups(self, request, model_admin):
        return [("ja", "nur Spam"), ("alle", "alle, auch Spam")]

    def choices(self, changelist):
        yield {
            "selected": self.value() is None,
            "query_string": changelist.get_query_string(remove=[self.parameter_name]),
            "display": "ohne Spam",
        }
        for lookup, title in self.lookup_choices:
            yield {
                "selected": self.value() == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request, queryset):
        if self.value() == "ja":
            return queryset.filter(is_spam=True)
        if self.value() == "alle":
            return queryset
        return queryset.filter(is_spam=False)


class SectionFilter(admin.SimpleListFilter):
    title = "Abschnitt"
    parameter_name = "abschnitt"

    def lookups(self, request, model_admin):
        rows = (
            ErrorReport.objects.exclude(section_kind="")
            .values_list("section_kind", "section_label")
            .order_by("section_kind")
            .distinct()
        )
        labels = {}
        for kind, label in rows:
            labels.setdefault(kind, label or kind)
        return [("-", "ganze Seite"), *sorted(labels.items(), key=lambda item: item[1])]

    def queryset(self, request, queryset):
        if self.value() == "-":
            return queryset.filter(section_kind="")
        if self.value():
            return queryset.filter(section_kind=self.value())
        return queryset


class ErrorReportForm(forms.ModelForm):
    notify_reader = forms.BooleanField(
        label="Leser per E-Mail benachrichtigen",
        required=False,
        initial=True,
        help_text="Nur wenn sich der Status ändert und eine E-Mail-Adresse angegeben ist. "
        "Die Mail enthält den neuen Status, die Antwort und den privaten Link.",
    )

    class Meta:
        model = ErrorReport
        fields = ["status", "public_answer", "internal_note", "is_spam"]
        widgets = {
            "public_answer": forms.Textarea(attrs={"rows": 4}),
            "internal_note": forms.Textarea(attrs={"rows": 3}),
        }


@admin.register(ErrorReport)
class ErrorReportAdmin(admin.ModelAdmin):
    form = ErrorReportForm
    list_display = [
        "summary", "game", "section_link", "state", "age", "has_email", "version",
    ]  # fmt: skip
    list_display_links = ["summary"]
    list_filter = [SpamFilter, "status", "game", SectionFilter, "created_at"]
    search_fields = ["message", "rulebook_reference", "public_answer", "email", "game__title"]
    list_select_related = ["game"]
    list_per_page = 50
    actions = ["mark_in_review", "mark_corrected", "mark_rejected", "mark_spam", "mark_not_spam"]
    readonly_fields = [
        "game", "section_link", "workbench", "message_display", "rulebook_reference", "email",
        "page_link", "article_version", "created_at", "status_changed_at", "handled_by_name",
        "reader_notified_at", "spam_reasons", "fill_seconds", "position_board",
    ]  # fmt: skip
    fieldsets = [
        (
            "Meldung",
            {
                "fields": [
                    "game",
                    "section_link",
                    "workbench",
                    "message_display",
                    "rulebook_reference",
                    "email",
                    "page_link",
                    "article_version",
                    "created_at",
                    "position_board",
                ]
            },
        ),
        (
            "Bearbeitung",
            {
                "fields": [
                    "status",
                    "public_answer",
                    "notify_reader",
                    "internal_note",
                    "status_changed_at",
                    "handled_by_name",
                    "reader_notified_at",
                ]
            },
        ),
        ("Spam-Prüfung", {"fields": ["is_spam", "spam_reasons", "fill_seconds"]}),
    ]

    class Media:
        css = {"all": ["admin_extra/editorial.css"]}

    def has_add_permission(self, request):
        return False  # reports come from readers only

    @admin.display(description="Status", ordering="status")
    def state(self, report):
        return format_html(
            '<span class="report-state report-state--{}">{}</span>',
            report.status,
            report.get_status_display(),
        )

    @admin.display(description="Bearbeitet von")
    def handled_by_name(self, report):
        # A name only: the user pages are for whoever manages accounts, not for editors.
        user = report.handled_by
        return (user.get_full_name() or user.get_username()) if user else "–"

    @admin.display(description="Korrigieren")
    def workbench(self, report):
        """Links from the report to the block it is about and to the page's draft."""
        from rules.admin import block_edit_url, preview_url  # rules' admin reads feedback

        article = getattr(report.game, "article", None)
        links = []
        if article is not None:
            for label, block in _blocks_for(article, report.section_kind):
                links.append((block_edit_url(block, report.pk), label))
            if not links or report.section_kind in ("", "auf-einen-blick"):
                links.append(
                    (
                        reverse("admin:games_game_change", args=[report.game_id]),
                        "Spieldaten bearbeiten",
                    )
                )
            links.append(
                (preview_url(report.game, report.section_kind, report.pk), "Vorschau des Entwurfs")
            )
        return format_html_join(" · ", '<a href="{}">{}</a>', links) or "–"

    @admin.display(description="Stellung")
    def position_board(self, report):
        """The position the reader reported from, drawn with the game's own table
        (rendered from the engine's view: escaped like every page)."""
        from games.play import positions

        return positions.board_html(report.position) or "–"

    @admin.display(description="Meldung", ordering="message")
    def summary(self, report):
        return Truncator(" ".join(report.message.split())).chars(90)

    @admin.display(description="Was stimmt nicht?")
    def message_display(self, report):
        # linebreaksbr-like, but every line is escaped by format_html.
        lines = report.message.splitlines() or [""]
        html = format_html("{}", lines[0])
        for line in lines[1:]:
            html = format_html("{}<br>{}", html, line)
        return html

    @admin.display(description="Abschnitt", ordering="section_kind")
    def section_link(self, report):
        label = report.section_label or "ganze Seite"
        return format_html(
            '<a href="{}" target="_blank" rel="noopener">{}</a>', report.get_section_url(), label
        )

    @admin.display(description="Seite")
    def page_link(self, report):
        return format_html(
            '<a href="{}" target="_blank" rel="noopener">{}</a>', report.page_url, report.page_url
        )

    @admin.display(description="Alter", ordering="created_at")
    def age(self, report):
        return age_label(timezone.now() - report.created_at)

    @admin.display(description="Fassung", ordering="article_version")
    def version(self, report):
        return report.article_version or "–"

    @admin.display(description="E-Mail", boolean=True)
    def has_email(self, report):
        return bool(report.email)

    def get_form(self, request, obj=None, change=False, **kwargs):
        form = super().get_form(request, obj, change=change, **kwargs)
        if obj is None or obj.is_closed or "nach_veroeffentlichung" not in request.GET:
            return form
        answer = _answer_after_publishing(obj)

        class AfterPublishing(form):
            """Just published from this report: suggest „korrigiert“ and an answer."""

            def __init__(self, *args, **kwargs):
                super().__init__(*args, **kwargs)
                self.initial["status"] = ErrorReport.Status.CORRECTED
                if not self.initial.get("public_answer"):
                    self.initial["public_answer"] = answer

        return AfterPublishing

    def save_model(self, request, obj, form, change):
        # Compared with the stored row: a suggested status (after publishing) is a change too.
        before = ErrorReport.objects.filter(pk=obj.pk).values("status", "public_answer").first()
        status_changed = before is not None and before["status"] != obj.status
        if status_changed or (before and before["public_answer"] != obj.public_answer):
            obj.handled_by = request.user
        if status_changed:
            obj.status_changed_at = timezone.now()
        super().save_model(request, obj, form, change)
        if status_changed:
            report_status_changed.send(ErrorReport, report_ids=[obj.pk], status=obj.status)
        if status_changed and form.cleaned_data.get("notify_reader") and obj.email:
            # After commit: no mail for a change that is rolled back. Failures are logged.
            transaction.on_commit(lambda: notifications.send_status_mail(obj, request))
            self.message_user(request, "Die meldende Person wird per E-Mail benachrichtigt.")

    def _set_status(self, request, queryset, status):
        changing = queryset.exclude(status=status)
        report_ids = list(changing.values_list("pk", flat=True))
        updated = changing.update(
            status=status, status_changed_at=timezone.now(), handled_by=request.user
        )
        report_status_changed.send(ErrorReport, report_ids=report_ids, status=status)
        self.message_user(
            request,
            f"{updated} Meldung{'en' if updated != 1 else ''} auf „{status.label}“ gesetzt "
            "(ohne E-Mail; zum Benachrichtigen die Meldung öffnen).",
        )

    @admin.action(description="Status: in Prüfung")
    def mark_in_review(self, request, queryset):
        self._set_status(request, queryset, ErrorReport.Status.IN_REVIEW)

    @admin.action(description="Status: korrigiert")
    def mark_corrected(self, request, queryset):
        self._set_status(request, queryset, ErrorReport.Status.CORRECTED)

    @admin.action(description="Status: abgelehnt")
    def mark_rejected(self, request, queryset):
        self._set_status(request, queryset, ErrorReport.Status.REJECTED)

    @admin.action(description="Als Spam markieren")
    def mark_spam(self, request, queryset):
        updated = queryset.update(is_spam=True)
        self.message_user(request, f"{updated} als Spam markiert.")

    @admin.action(description="Kein Spam (zurück in die Liste)")
    def mark_not_spam(self, request, queryset):
        updated = queryset.update(is_spam=False)
        self.message_user(request, f"{updated} als echte Meldung markiert.")


def _blocks_for(article, kind):
    """The blocks a report about section ``kind`` may mean: the section, and the examples,
    mistakes or questions listed in it."""
    found = []
    section = article.sections.filter(kind=kind).first() if kind else None
    if section is not None:
        found.append((f"Abschnitt „{section.heading}“ bearbeiten", section))
    parts = {"beispiel": "examples", "irrtuemer": "mistakes", "haeufige-fragen": "questions"}
    if kind in parts:
        for block in getattr(article, parts[kind]).all():
            found.append((f"„{Truncator(block.title).chars(40)}“ bearbeiten", block))
    return found


def _answer_after_publishing(report) -> str:
    article = getattr(report.game, "article", None)
    where = f"im Abschnitt „{report.section_label}“" if report.section_label else "auf der Seite"
    version = (
        f" (Fassung {article.published_version})" if article and article.published_version else ""
    )
    return f"Danke für deinen Hinweis! Wir haben den Text {where} korrigiert; die Korrektur ist online{version}."


@admin.register(Vote)
class VoteAdmin(admin.ModelAdmin):
    list_display = ["game", "stars", "created_at", "updated_at"]
    list_filter = ["stars", "game"]
    list_select_related = ["game"]
    readonly_fields = ["game", "visitor", "stars", "created_at", "updated_at"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False  # votes are the readers'; editors may only delete abuse
