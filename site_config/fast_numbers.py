"""Whole numbers in templates without Django's number formatting machinery.

Every ``{{ n }}`` of an int goes through ``django.utils.formats.localize``, which
looks up three format settings for the active language on each call (about 8 µs);
a game table prints some twenty ints (points, counts, slots, versions), about a
tenth of drawing it. Without thousand separators (``USE_THOUSAND_SEPARATOR``, off
here) Django's result for an int is exactly ``str(n)``, so templates get that
directly; everything else (and ints once separators are switched on) still goes
through Django's ``localize``.
"""

from __future__ import annotations

from django.conf import settings
from django.template import base
from django.utils import formats


def localize(value, use_l10n=None):
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return formats.localize(value, use_l10n=use_l10n)


def install() -> None:
    """Templates' variable nodes use ``localize`` above (``django.template.base`` imported
    Django's by name; this replaces that one name only)."""
    base.localize = localize
