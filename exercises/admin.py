"""Exercises in the admin: texts, and the position with its answers as typed fields.

„Mit der Engine prüfen“ draws the board as readers will see it and lets the engine
judge the intended answer and the intended wrong one; saving refuses an exercise the
engine contradicts (``exercises.kinds.check``). Nobody types JSON.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.template.loader import render_to_string
from django.utils.html import format_html

from exercises import kinds
from exercises.models import Exercise, ExerciseProgress
from games.example_fields import CHOICE, SHOWN, CheckFieldsMixin, check_form_class, kind_of

SOURCE = "exercises"


class ExerciseForm(CheckFieldsMixin, forms.ModelForm):
    check_field = "setup"
    expect_field = "expect"
    source = SOURCE

    class Meta:
        model = Exercise
        fields = [
            "game", "position", "title", "section", "question",
            "right_text", "wrong_text", "solution_text", "is_published",
        ]  # fmt: skip

    def verify_check(self, check: dict) -> dict:
        try:
            return kinds.check(check)
        except kinds.ExerciseMismatch as error:
            raise ValidationError(f"Die Engine widerspricht der Übung: {error}.") from None

    def steps_of(self, check: dict) -> list[dict]:
        """The board as drawn for readers, then the engine's word on both answers."""
        kind = kinds.kind_for(check)
        steps = [{"title": "So sieht der Tisch aus", "board": self.board_html(check), "lines": []}]
        for key, label in ((kinds.ANSWER, "Richtige Antwort"), (kinds.WRONG, "Falsche Antwort")):
            token = check.get(key, "")
            verdict = kinds.judge(check, token)
            outcome = "gilt als richtig" if verdict.right else kind.reason_label(verdict.why)
            steps.append(
                {"title": f"{label} „{token}“: {outcome}", "lines": list(verdict.happened)}
            )
        return steps

    @staticmethod
    def board_html(check: dict) -> str:
        kind = kinds.kind_for(check)
        return render_to_string(
            kind.template, {"board": kind.board(kinds.position_of(check)), "solution": {}}
        )

    def clean(self):
        cleaned = super().clean()
        if self.engine_preview is None and self.schema is None and not self.errors:
            raise ValidationError("Eine Übung braucht eine Übungsart mit Stellung.")
        return cleaned


@admin.register(Exercise)
class ExerciseAdmin(admin.ModelAdmin):
    list_display = ["title", "game", "number", "section", "is_published", "engine_state"]
    list_filter = ["game", "is_published"]
    search_fields = ["title", "question"]
    ordering = ["game__title", "position", "pk"]
    change_form_template = "admin/exercises/exercise_change_form.html"

    @admin.display(description="Nr.")
    def number(self, obj):
        return obj.position + 1

    @admin.display(description="Engine")
    def engine_state(self, obj):
        problem = kinds.mismatch(obj.setup or {}, obj.expect)
        if problem is None:
            return "stimmt"
        return format_html('<span title="{}">widerspricht</span>', problem)

    def _active_kind(self, request, obj):
        if request.method == "POST":
            return request.POST.get(CHOICE, "")
        if CHOICE in request.GET:
            return request.GET[CHOICE]
        return kind_of(obj.setup) if obj is not None else ""

    def get_form(self, request, obj=None, change=False, **kwargs):
        kwargs["form"] = check_form_class(ExerciseForm, self._active_kind(request, obj))
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fieldsets(self, request, obj=None):
        form = check_form_class(ExerciseForm, self._active_kind(request, obj))
        check, expect = form.typed_names()
        fieldsets = [
            (
                None,
                {"fields": ["game", ("position", "is_published"), "title", "section", "question"]},
            ),
            ("Erklärungen", {"fields": ["right_text", "wrong_text", "solution_text"]}),
            ("Stellung und Antworten", {"fields": [CHOICE, SHOWN, *check]}),
        ]
        if expect:
            fieldsets.append(
                (
                    "Was die Engine zur falschen Antwort sagen soll",
                    {
                        "fields": expect,
                        "description": "Die Engine prüft beide Antworten; "
                        "widerspricht sie, wird nicht gespeichert.",
                    },
                )
            )
        return fieldsets


@admin.register(ExerciseProgress)
class ExerciseProgressAdmin(admin.ModelAdmin):
    """Counts only: which exercises readers miss most (no visitor ids shown)."""

    list_display = ["exercise", "misses", "solved_at"]
    list_filter = ["exercise__game"]
    fields = ["exercise", "misses", "solved_at"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
