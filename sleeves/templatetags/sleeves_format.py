from decimal import Decimal

from django import template

from sleeves.calculation import format_mm

register = template.Library()


@register.filter
def mm(value) -> str:
    """Millimetres the German way: Decimal("4.0") → "4", Decimal("2.5") → "2,5"."""
    if value in (None, ""):
        return ""
    return format_mm(value if isinstance(value, Decimal) else Decimal(str(value)))
