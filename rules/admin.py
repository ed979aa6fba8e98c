"""The article in the admin: a short form (source, blocks as a sortable list) and one
small form per block (section, example, mistake, question), each with its own history.

Every save changes the working copy; readers see the published snapshot until the page
is published (``editorial.publish``), which only „Redaktion“ may do.
"""

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.options import ActionLocation
from django.contrib.admin.utils import quote
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.formats import date_format
from django.utils.html import format_html
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.timezone import localtime
from reversion.admin import VersionAdmin

from editorial import changes
from editorial.history import ObjectHistoryMixin
from editorial.publish import pending, publish_page
from games.admin import SortableInlineMixin
from games.example_fields import CHOICE, SHOWN, CheckFieldsMixin, check_form_class, kind_of
from rules import publishing
from rules.models import (
    PUBLISH_PERMISSION,
    CommonMistake,
    FrequentQuestion,
    GlossaryEntry,
    RulesArticle,
    Section,
    Source,
    WorkedExample,
)

# Carried from a reader's report through edit, preview and publish back to the report.
REPORT_PARAM = "zur_meldung"


def can_publish(request) -> bool:
    return request.user.has_perm(PUBLISH_PERMISSION)


def block_anchor(block) -> str:
    """Where a block stands on the game page (templates: the ids of sections, examples …)."""
    if isinstance(block, Section):
        return block.anchor
    prefix = {WorkedExample: "beispiel", CommonMistake: "irrtum", FrequentQuestion: "frage"}[
        type(block)
    ]
    ids = list(type(block).objects.filter(article_id=block.article_id).values_list("pk", flat=True))
    return f"{prefix}-{ids.index(block.pk) + 1}" if block.pk in ids else prefix


def preview_url(game, anchor="", report_id=None) -> str:
    url = game.get_absolute_url()
    if report_id:
        url += f"?{REPORT_PARAM}={report_id}"
    return f"{url}#{anchor}" if anchor else url


def _report_id(request):
    value = request.GET.get(REPORT_PARAM, "")
    return int(value) if value.isdigit() else None


# Blocks -------------------------------------------------------------------------------------


class BlockForm(forms.ModelForm):
    """An empty position puts a new block at the end (BlockMixin.save)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if "position" in self.fields:
            self.fields["position"].required = False
            if self.instance.pk is None:
                self.initial["position"] = None
        for field in self.fields.values():
            if isinstance(field.widget, forms.Textarea):
                field.widget.attrs.setdefault("rows", 8)

    def clean_position(self):
        return self.cleaned_data.get("position")


class BlockAdmin(ObjectHistoryMixin, VersionAdmin):
    """One block of an article on a page of its own: opened from the game page's
    „Bearbeiten“ link or from a report; „Speichern und Vorschau“ shows the page."""

    form = BlockForm
    change_form_template = "admin/rules/block_change_form.html"
    list_select_related = ["article__game"]
    search_fields = ["title", "body", "article__game__title"]
    list_filter = ["article__game"]

    def get_model_perms(self, request):
        # Reached from the article and the game page, not from the admin index.
        return {}

    def get_readonly_fields(self, request, obj=None):
        return ["article"] if obj is not None else []

    def get_changeform_initial_data(self, request):
        initial = super().get_changeform_initial_data(request)
        if "artikel" in request.GET:
            initial["article"] = request.GET["artikel"]
        return initial

    def history_current(self, request, obj):
        return {name: getattr(obj, name) for name in self.history_fields}

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        form = context["adminform"].form
        errors = form.errors.as_data()
        only_preview = (
            getattr(form, "preview_only", False)
            and list(errors) == ["__all__"]
            and all(e.code == "preview" for e in errors["__all__"])
        )
        if only_preview:
            # „Mit der Engine prüfen“ is no mistake: no „Bitte korrigieren“ above the form.
            context["errors"] = []
            context["preview_only"] = True
        article = obj.article if obj is not None else None
        if article is not None:
            report_id = _report_id(request)
            context.update(
                {
                    "block_article": article,
                    "block_preview_url": preview_url(article.game, block_anchor(obj), report_id),
                    "block_article_url": reverse(
                        "admin:rules_rulesarticle_change", args=[article.pk]
                    ),
                }
            )
        return super().render_change_form(request, context, add, change, form_url, obj)

    def _after_save(self, request, obj):
        if "_preview" in request.POST:
            return HttpResponseRedirect(
                preview_url(obj.article.game, block_anchor(obj), _report_id(request))
            )
        return None

    def response_change(self, request, obj):
        return self._after_save(request, obj) or super().response_change(request, obj)

    def response_add(self, request, obj, post_url_continue=None):
        return self._after_save(request, obj) or super().response_add(
            request, obj, post_url_continue
        )

    def response_post_save_change(self, request, obj):
        return HttpResponseRedirect(
            reverse("admin:rules_rulesarticle_change", args=[obj.article_id])
        )

    response_post_save_add = response_post_save_change


@admin.register(Section)
class SectionAdmin(BlockAdmin):
    list_display = ["heading", "article", "position"]
    fields = [
        "article", ("kind", "title", "pages"), "body", "summary", "gist",
        ("figure", "figure_caption"), "figure_alt", "position",
    ]  # fmt: skip
    history_fields = {
        "title": "Überschrift", "body": "Text", "pages": "Beleg",
        "summary": "Zug auf einen Blick", "gist": "In Kürze", "figure": "Abbildung",
        "figure_alt": "Textalternative", "figure_caption": "Bildunterschrift",
    }  # fmt: skip
    search_fields = ["title", "body", "article__game__title"]


class PartAdmin(BlockAdmin):
    list_display = ["title", "article", "position"]
    fields = ["article", ("title", "pages"), "body", "position"]
    history_fields = {"title": "Titel", "body": "Text", "pages": "Beleg"}


@admin.register(CommonMistake)
class CommonMistakeAdmin(PartAdmin):
    pass


@admin.register(FrequentQuestion)
class FrequentQuestionAdmin(PartAdmin):
    history_fields = {"title": "Frage", "body": "Antwort", "pages": "Beleg"}


class WorkedExampleForm(CheckFieldsMixin, BlockForm):
    class Meta:
        model = WorkedExample
        fields = ["article", "title", "pages", "body", "position"]


@admin.register(WorkedExample)
class WorkedExampleAdmin(PartAdmin):
    """Text plus the position the engine plays, as typed fields (games.example_fields):
    „Mit der Engine prüfen“ shows the engine's result and steps, saving refuses a
    stated result the engine contradicts."""

    history_fields = {
        "title": "Titel", "body": "Text", "pages": "Beleg",
        "engine_check": "Engine-Prüfung", "expect": "Erwartetes Ergebnis",
    }  # fmt: skip

    def _active_kind(self, request, obj):
        if request.method == "POST":
            return request.POST.get(CHOICE, "")
        if CHOICE in request.GET:
            return request.GET[CHOICE]
        return kind_of(obj.engine_check) if obj is not None else ""

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = check_form_class(WorkedExampleForm, self._active_kind(request, obj))
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        form = check_form_class(WorkedExampleForm, self._active_kind(request, obj))
        check, expect = form.typed_names()
        fieldsets = [
            (None, {"fields": ["article", ("title", "pages"), "body", "position"]}),
            ("Engine-Prüfung", {"fields": [CHOICE, SHOWN, *check]}),
        ]
        if expect:
            fieldsets.append(
                (
                    "Ergebnis laut Beispieltext",
                    {
                        "fields": expect,
                        "description": "Was der Text sagt. Die Engine rechnet nach; "
                        "widerspricht sie, wird nicht gespeichert.",
                    },
                )
            )
        return fieldsets

    def history_current(self, request, obj):
        return {
            "title": obj.title, "body": obj.body, "pages": obj.pages,
            "engine_check": _readable(obj.engine_check), "expect": _readable(obj.expect),
        }  # fmt: skip

    def history_old(self, version):
        old = super().history_old(version)
        return {
            **old,
            "engine_check": _readable(old["engine_check"]),
            "expect": _readable(old["expect"]),
        }


def _readable(value) -> str:
    """A check or result as „Schlüssel: Wert“ lines (the diff shows them, never JSON)."""
    if not value:
        return ""
    return "\n".join(f"{key}: {item}" for key, item in value.items())


# The article ------------------------------------------------------------------------------


class BlockInline(SortableInlineMixin, admin.TabularInline):
    """A row per block: order by dragging, open the block's own form to edit its text."""

    readonly_fields = ["edit_links"]
    can_delete = True
    show_change_link = False

    def has_add_permission(self, request, obj=None):
        return False  # new blocks get their own form (link above the list)

    @admin.display(description="Bearbeiten")
    def edit_links(self, block):
        if block.pk is None:
            return ""
        opts = block._meta
        change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[block.pk])
        history = reverse(f"admin:{opts.app_label}_{opts.model_name}_history", args=[block.pk])
        return format_html(
            '<a href="{}">Bearbeiten</a> · <a href="{}">Verlauf</a>', change, history
        )


class SectionInline(BlockInline):
    model = Section
    fields = ["position", "kind", "title", "edit_links"]
    readonly_fields = ["kind", "title", "edit_links"]


class WorkedExampleInline(BlockInline):
    model = WorkedExample
    fields = ["position", "title", "edit_links"]
    readonly_fields = ["title", "edit_links"]


class CommonMistakeInline(WorkedExampleInline):
    model = CommonMistake


class FrequentQuestionInline(WorkedExampleInline):
    model = FrequentQuestion


# Reverting to an older version restores the working copy only; what is online
# changes when someone publishes again.
PUBLICATION_FIELDS = ("status", "published_snapshot", "published_version", "published_at")
SOURCE_LABELS = {
    "rulebook_title": "Regelheft", "rulebook_publisher": "Herausgeber",
    "rulebook_version": "Version", "rulebook_year": "Jahr", "rulebook_pages": "Seiten",
    "rulebook_read_on": "gelesen am", "source_note": "Quelle (Satz)",
}  # fmt: skip
PART_MODELS = (Section, WorkedExample, CommonMistake, FrequentQuestion)
# Lists edited in the article's own form (inlines); history and restore carry them too.
LIST_MODELS = (Source, GlossaryEntry)
OWN_MODELS = PART_MODELS + LIST_MODELS
# What the history compares of each row (field → label after the row's name).
ROW_FIELDS = {
    Source: {
        "key": "Kürzel", "label": "Kurzname", "title": "Was es ist",
        "edition": "Ausgabe", "read_on": "gelesen am", "covers": "Was sie abdeckt",
    },
    GlossaryEntry: {"term": "Begriff", "other_names": "Andere Namen", "body": "Erklärung"},
}  # fmt: skip
BLOCK_FIELDS = {"title": "Überschrift", "body": "Text"}


class SourceInline(SortableInlineMixin, admin.StackedInline):
    model = Source
    fields = ["position", ("key", "label"), "title", ("edition", "read_on"), "covers"]


class GlossaryEntryInline(SortableInlineMixin, admin.StackedInline):
    model = GlossaryEntry
    fields = ["position", ("term", "other_names"), "body"]


@admin.register(RulesArticle)
class RulesArticleAdmin(ObjectHistoryMixin, VersionAdmin):
    list_display = [
        "game", "status", "published_version", "pending_changes", "rulebook_publisher",
        "rulebook_read_on", "updated_at",
    ]  # fmt: skip
    list_filter = ["status", "rulebook_publisher"]
    search_fields = ["game__title", "sections__body"]
    list_select_related = ["game"]
    autocomplete_fields = ["game"]
    readonly_fields = ["status", "publication", "published_at", "updated_at", "add_links"]
    inlines = [
        SectionInline,
        WorkedExampleInline,
        CommonMistakeInline,
        FrequentQuestionInline,
        GlossaryEntryInline,
        SourceInline,
    ]
    actions = ["publish", "unpublish"]
    history_fields = SOURCE_LABELS
    fieldsets = [
        (None, {"fields": ["game", "status", "publication", "published_at", "updated_at"]}),
        (
            "Quelle",
            {
                "fields": [
                    ("rulebook_title", "rulebook_publisher"),
                    ("rulebook_version", "rulebook_year", "rulebook_pages"),
                    "rulebook_read_on",
                    "source_note",
                ]
            },
        ),
        ("Neuer Block", {"fields": ["add_links"]}),
    ]

    class Media:
        css = {"all": ["admin_extra/editorial.css"]}

    def get_search_results(self, request, queryset, search_term):
        queryset, _ = super().get_search_results(request, queryset, search_term)
        return queryset.distinct(), False

    def get_queryset(self, request):
        # The list compares working copy and snapshot; prefetch keeps that at 4 queries.
        return super().get_queryset(request).prefetch_related(*publishing.PARTS)

    def get_actions(self, request, action_location=ActionLocation.CHANGE_LIST):
        actions = super().get_actions(request, action_location=action_location)
        if not can_publish(request):
            actions.pop("publish", None)
            actions.pop("unpublish", None)
        return actions

    def get_urls(self):
        own = [
            path(
                "<path:object_id>/veroeffentlichen/",
                self.admin_site.admin_view(self.publish_view),
                name="rules_rulesarticle_publish",
            )
        ]
        return own + super().get_urls()

    @admin.display(description="unveröffentlichte Änderungen", boolean=True)
    def pending_changes(self, article):
        return publishing.has_unpublished_changes(article)

    @admin.display(description="Block hinzufügen")
    def add_links(self, article):
        if article.pk is None:
            return "Nach dem ersten Speichern."
        links = [
            format_html(
                '<a class="addlink" href="{}?artikel={}">{}</a>',
                reverse(f"admin:rules_{model._meta.model_name}_add"),
                article.pk,
                model._meta.verbose_name,
            )
            for model in PART_MODELS
        ]
        return format_html(
            '<span class="workbench-links">{}</span>',
            format_html(" ".join(["{}"] * len(links)), *links),
        )

    @admin.display(description="Veröffentlichung")
    def publication(self, article):
        if article.pk is None:
            return "Neuer Artikel – nach dem Speichern veröffentlichen."
        if not article.is_published or article.published_snapshot is None:
            state = "Nicht online. Die Seite zeigt Lesern „Die Regeln schreiben wir gerade“."
        else:
            state = (
                f"Online ist Fassung {article.published_version} vom "
                f"{date_format(localtime(article.published_at), 'j. F Y, H:i')} Uhr."
            )
        waiting = pending(article.game)
        detail = (
            format_html("Noch nicht online:{}", changes.as_list(waiting.lines))
            if waiting
            else "Entwurf und Online-Fassung sind gleich."
        )
        url = article.game.get_absolute_url()
        return format_html(
            '{} {}<a href="{}" target="_blank">Vorschau des Entwurfs</a>'
            ' · <a href="{}?{}={}" target="_blank">Online-Fassung ansehen</a>'
            ' · <a href="{}">Veröffentlichen …</a>',
            state, detail, url, url,
            publishing.PUBLIC_VERSION_PARAM, publishing.PUBLIC_VERSION_VALUE,
            reverse("admin:rules_rulesarticle_publish", args=[article.pk]),
        )  # fmt: skip

    def render_change_form(self, request, context, add=False, change=False, form_url="", obj=None):
        context["can_publish"] = can_publish(request)
        return super().render_change_form(request, context, add, change, form_url, obj)

    def response_change(self, request, obj):
        if "_publish" in request.POST:
            self._publish_one(request, obj)
            return HttpResponseRedirect(request.path)
        return super().response_change(request, obj)

    def response_add(self, request, obj, post_url_continue=None):
        if "_publish" in request.POST:
            self._publish_one(request, obj)
        return super().response_add(request, obj, post_url_continue)

    def _publish_one(self, request, article):
        if not can_publish(request):
            self.message_user(
                request,
                "Gespeichert als Entwurf. Veröffentlichen darf die Redaktion.",
                messages.WARNING,
            )
            return
        done = publish_page(article.game, request.user)
        self.message_user(request, done.message(article.game), messages.SUCCESS)

    def publish_view(self, request, object_id):
        """GET: what would go online; POST: publish the whole page in one step."""
        article = get_object_or_404(RulesArticle.objects.select_related("game"), pk=object_id)
        if not self.has_view_or_change_permission(request, article):
            raise PermissionDenied
        if request.method == "POST" and not can_publish(request):
            raise PermissionDenied  # „Lektorat“ sees what waits, „Redaktion“ publishes
        next_url = request.POST.get("next") or request.GET.get("next") or ""
        if not url_has_allowed_host_and_scheme(next_url, {request.get_host()}):
            next_url = ""
        if request.method == "POST":
            done = publish_page(article.game, request.user)
            self.message_user(request, done.message(article.game), messages.SUCCESS)
            return HttpResponseRedirect(
                next_url or reverse("admin:rules_rulesarticle_change", args=[article.pk])
            )
        context = {
            **self.admin_site.each_context(request),
            "opts": self.model._meta,
            "title": f"„{article.game}“ veröffentlichen",
            "article": article,
            "waiting": pending(article.game),
            "next": next_url,
            "preview_url": article.game.get_absolute_url(),
            "can_publish": can_publish(request),
        }
        return TemplateResponse(request, "admin/rules/publish_confirm.html", context)

    # History: the article's own fields, its blocks, sources and glossary, never the game
    # saved alongside.

    def history_extra_rows(self, request, obj, version):
        rows = []
        old_blocks = _blocks_in_revision(version, obj)
        for model in OWN_MODELS:
            current = {b.pk: b for b in model.objects.filter(article=obj)}
            old = {v.object_id: v.field_dict for v in old_blocks if v._model is model}
            if model in LIST_MODELS and not old:
                continue  # saved before this list existed: restore leaves it alone
            fields = ROW_FIELDS.get(model, BLOCK_FIELDS)
            for pk in sorted(set(current) | {int(k) for k in old}):
                before = old.get(str(pk), {})
                now = current.get(pk)
                label = _block_label(model, before, now)
                after = {name: getattr(now, name, "") for name in fields} if now else {}
                labels = {name: f"{label}: {text}" for name, text in fields.items()}
                rows.extend(changes.field_diffs(labels, before, after))
        return rows

    def after_recover(self, request, obj, version):
        self._restore_blocks(obj, version)
        publishing.unpublish(obj)  # back as a draft; publishing puts it online again

    def restore_version(self, request, obj, version):
        import reversion

        with reversion.create_revision():
            reversion.set_user(request.user)
            reversion.set_comment("Ältere Fassung des Artikels als Entwurf wiederhergestellt")
            for name in SOURCE_LABELS:
                if name in version.field_dict:
                    setattr(obj, name, version.field_dict[name])
            obj.save()
            self._restore_blocks(obj, version)
        return (
            "Der Artikel steht wieder wie in dieser Fassung – als Entwurf. Das Spiel und "
            "alles andere, was damals mit gespeichert wurde, bleibt unverändert."
        )

    def _restore_blocks(self, obj, version):
        """The article's own blocks, sources and glossary as saved in ``version``'s
        revision (nothing else). A revision without any source or glossary row (saved
        before these lists existed) leaves the current list alone."""
        old_blocks = _blocks_in_revision(version, obj)
        for model in OWN_MODELS:
            kept = {int(v.object_id) for v in old_blocks if v._model is model}
            if model in LIST_MODELS:
                if not kept:
                    continue
                # Deleted first: a source's key is unique within the article.
                model.objects.filter(article=obj).delete()
            model.objects.filter(article=obj).exclude(pk__in=kept).delete()
            for saved in (v for v in old_blocks if v._model is model):
                values = {k: v for k, v in saved.field_dict.items() if k != "id"}
                block = model(pk=int(saved.object_id), **values)
                block.article_id = obj.pk
                block.save()

    @admin.action(description="Ausgewählte Spielseiten veröffentlichen (Entwurf geht online)")
    def publish(self, request, queryset):
        if not can_publish(request):
            raise PermissionDenied
        for article in queryset.select_related("game"):
            publish_page(article.game, request.user)
        self.message_user(request, f"{len(queryset)} Artikel veröffentlicht.")

    @admin.action(description="Ausgewählte Artikel offline nehmen (Entwurf)")
    def unpublish(self, request, queryset):
        if not can_publish(request):
            raise PermissionDenied
        for article in queryset:
            publishing.unpublish(article)
        self.message_user(request, f"{len(queryset)} Artikel auf Entwurf gesetzt.")


def _blocks_in_revision(version, article):
    """The article's own blocks saved in ``version``'s revision (other objects ignored)."""
    found = []
    for other in version.revision.version_set.all():
        model = other._model
        if model in OWN_MODELS and other.field_dict.get("article_id") == article.pk:
            found.append(other)
    return found


def _block_label(model, before, now) -> str:
    if model is Section:
        kind = before.get("kind") or (now.kind if now else "")
        return f"Abschnitt „{dict(Section.Kind.choices).get(kind, kind)}“"
    if model is Source:
        return f"Quelle „{before.get('key') or (now.key if now else '')}“"
    if model is GlossaryEntry:
        return f"Begriff „{before.get('term') or (now.term if now else '')}“"
    title = before.get("title") or (now.title if now else "")
    return f"{model._meta.verbose_name} „{title}“"


def block_edit_url(block, report_id=None) -> str:
    opts = block._meta
    url = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[quote(block.pk)])
    return f"{url}?{REPORT_PARAM}={report_id}" if report_id else url
