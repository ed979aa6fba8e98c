"""Ints in templates skip Django's number formatting, with exactly Django's text."""

from __future__ import annotations

import datetime
import decimal

from django.template import Context, Template, base
from django.test import override_settings
from django.utils import formats, translation

from site_config import fast_numbers

VALUES = [0, 7, -3, 999, 1000, 12345, -1234567, 10**20]


def _drawn(value) -> str:
    return Template("{{ value }}").render(Context({"value": value}))


def test_templates_use_the_fast_path():
    assert base.localize is fast_numbers.localize


def test_ints_read_as_django_formats_them():
    with translation.override("de-de"):
        for value in VALUES:
            assert fast_numbers.localize(value) == formats.localize(value) == str(value)
            assert _drawn(value) == str(value)


def test_other_values_still_go_through_django():
    with translation.override("de-de"):
        assert _drawn(2.5) == "2,5"
        assert _drawn(decimal.Decimal("1.25")) == "1,25"
        assert _drawn(True) == "True"
        assert _drawn(datetime.date(2026, 12, 6)) == formats.localize(datetime.date(2026, 12, 6))


@override_settings(USE_THOUSAND_SEPARATOR=True)
def test_thousand_separators_switched_on_fall_back_to_django():
    with translation.override("de-de"):
        assert _drawn(1234567) == formats.localize(1234567) == "1.234.567"
        assert _drawn(-12) == "-12"
