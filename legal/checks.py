"""``manage.py check --deploy``: the Impressum and the Datenschutzerklärung are filled in."""

from django.core.checks import Tags, Warning, register
from django.db import DatabaseError


@register(Tags.security, deploy=True)
def legal_pages_filled_in(app_configs=None, **kwargs):
    from legal.models import LegalPage

    try:
        pages = list(LegalPage.objects.all())
    except DatabaseError:  # not migrated yet, or no database at hand: nothing to say
        return []
    warnings = []
    for page in pages:
        open_ = page.placeholders()
        if open_:
            warnings.append(
                Warning(
                    f"{page.get_key_display()} enthält noch {len(open_)} Platzhalter, "
                    f"z. B. {open_[0]}",
                    hint="Im Admin unter „Impressum und Datenschutz“ ausfüllen "
                    f"({page.get_absolute_url()}).",
                    obj=page,
                    id="legal.W001",
                )
            )
    return warnings
