from decimal import Decimal

import pytest


@pytest.fixture
def sleeve_content(content):
    """Shipped games and shipped sleeve data, loaded in the order `load_content` uses."""
    from sleeves.content_loader import load_all

    return load_all()


@pytest.fixture
def poker():
    from sleeves.models import CardSize

    return CardSize.objects.get_or_create(width_mm=Decimal("63.5"), height_mm=Decimal("88"))[0]


@pytest.fixture
def euro():
    from sleeves.models import CardSize

    return CardSize.objects.get_or_create(width_mm=Decimal("59"), height_mm=Decimal("92"))[0]


def make_product(brand_name, size, inner=("66", "91"), per_pack=100, **fields):
    from sleeves.models import Brand, SleeveProduct

    brand, _ = Brand.objects.get_or_create(name=brand_name)
    return SleeveProduct.objects.create(
        brand=brand,
        name=fields.pop("name", f"{brand_name} {size}"),
        card_size=size,
        inner_width_mm=Decimal(inner[0]),
        inner_height_mm=Decimal(inner[1]),
        per_pack=per_pack,
        **fields,
    )
