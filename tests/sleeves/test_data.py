"""Models, the shipped data and its loader."""

from decimal import Decimal
from io import StringIO

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from games.models import Edition, Game
from sleeves.content_loader import load_all
from sleeves.models import Brand, CardFormat, CardSize, ShippedRecord, SleeveProduct, SleeveSettings
from tests.factories import make_game
from tests.sleeves.conftest import make_product

pytestmark = pytest.mark.django_db


def test_card_size_is_stored_normalised_and_duplicates_are_caught(poker):
    swapped = CardSize(width_mm=Decimal("92"), height_mm=Decimal("59"))
    swapped.save()
    assert (swapped.width_mm, swapped.height_mm) == (Decimal("59"), Decimal("92"))
    duplicate = CardSize(width_mm=Decimal("88"), height_mm=Decimal("63.5"))
    with pytest.raises(ValidationError, match="gibt es schon"):
        duplicate.full_clean()


def test_product_inner_size_is_normalised_and_checked(poker):
    product = make_product("Mayday Games", poker, inner=("91", "66"))
    assert (product.inner_width_mm, product.inner_height_mm) == (Decimal("66"), Decimal("91"))
    product.price = Decimal("4.99")
    with pytest.raises(ValidationError) as error:
        product.full_clean()
    assert "price_seen_on" in error.value.message_dict
    product.is_partner_link = True
    with pytest.raises(ValidationError) as error:
        product.full_clean()
    assert "shop_url" in error.value.message_dict


def test_card_format_edition_must_belong_to_the_game(poker):
    cat, other = make_game("the-cat"), make_game("anderes")
    foreign = Edition.objects.create(game=other, article_number="123")
    card_format = CardFormat(game=cat, edition=foreign, label="Karten", count=52, size=poker)
    with pytest.raises(ValidationError, match="anderen Spiel"):
        card_format.full_clean()
    expansion = CardFormat(game=cat, label="Karten", count=10, is_expansion=True)
    with pytest.raises(ValidationError, match="Erweiterung"):
        expansion.full_clean()


def test_settings_default_without_a_row_and_single_row_after_saving():
    assert SleeveSettings.current().tolerance_mm == Decimal("4.0")
    SleeveSettings(tolerance_mm=Decimal("2.5")).save()
    SleeveSettings(tolerance_mm=Decimal("3")).save()
    assert SleeveSettings.objects.count() == 1
    assert SleeveSettings.current().tolerance_mm == Decimal("3")


# --- shipped data -----------------------------------------------------------------------------


def test_shipped_sizes_products_and_pack_sizes(sleeve_content):
    sizes = {str(size.size) for size in CardSize.objects.all()}
    for label in ("63,5 × 88 mm", "56 × 87 mm", "59 × 92 mm", "57,5 × 89 mm", "44 × 68 mm",
                  "41 × 63 mm", "65 × 100 mm", "70 × 120 mm", "80 × 120 mm"):  # fmt: skip
        assert label in sizes

    def pack(brand, code):
        return SleeveProduct.objects.get(brand__name=brand, code=code).per_pack

    assert pack("Mayday Games", "MDG-7041") == 100
    assert pack("Sleeve Kings", "SKS-8810") == 110
    assert pack("Ultra Pro", "82602") == 50
    assert pack("Fantasy Flight Games", "FFS05") == 50
    assert (
        SleeveProduct.objects.get(brand__name="Dragon Shield", name="Standard Size").per_pack == 100
    )
    mayday = SleeveProduct.objects.get(code="MDG-7041")
    assert str(mayday.card_size.size) == "63,5 × 88 mm"
    assert str(mayday.inner_size) == "66 × 91 mm"
    # No invented prices: editors add them once they have seen one.
    assert not SleeveProduct.objects.filter(price__isnull=False).exists()
    assert SleeveProduct.objects.get(name__startswith="Pro-Fit").is_inner_sleeve


def test_shipped_formats_of_the_four_seed_games(sleeve_content):
    def formats(slug):
        return [
            (f.count, f.size.size.label if f.size else None)
            for f in CardFormat.objects.filter(game__slug=slug)
        ]

    assert formats("kaetzchen-angeln") == [(52, "63,5 × 88 mm")]
    assert formats("katz-und-maus") == [(104, "63,5 × 88 mm")]
    assert formats("alpaka") == [(56, None)]
    assert formats("the-cat") == [(52, None)]
    cat = CardFormat.objects.get(game__slug="the-cat")
    assert cat.label == "Katzenkarten" and cat.count_source == "Spielregel S. 1"


def test_loader_is_idempotent(sleeve_content):
    counts = (CardSize.objects.count(), SleeveProduct.objects.count(), CardFormat.objects.count())
    again = load_all()
    assert again.created == []
    assert (
        CardSize.objects.count(),
        SleeveProduct.objects.count(),
        CardFormat.objects.count(),
    ) == counts


def test_loader_never_undoes_editors_changes(sleeve_content):
    mayday = SleeveProduct.objects.get(code="MDG-7041")
    mayday.code, mayday.name, mayday.per_pack = "MDG-7041-NEU", "Umbenannt", 80
    mayday.save()
    CardFormat.objects.get(game__slug="alpaka").delete()
    Brand.objects.filter(name="Ultimate Guard").update(name="Ultimate Guard GmbH")
    tarot = CardSize.objects.get(name="Tarot")
    tarot.name = "Tarot (groß)"
    tarot.save()

    report = load_all()
    assert report.created == []
    assert not SleeveProduct.objects.filter(code="MDG-7041").exists()
    assert SleeveProduct.objects.get(code="MDG-7041-NEU").per_pack == 80
    assert not CardFormat.objects.filter(game__slug="alpaka").exists()
    assert not Brand.objects.filter(name="Ultimate Guard").exists()
    assert CardSize.objects.get(width_mm=70, height_mm=120).name == "Tarot (groß)"


def test_formats_wait_for_their_game(db):
    report = load_all()
    assert CardFormat.objects.count() == 0
    assert any("the-cat" in item for item in report.waiting)
    make_game("the-cat", title="The Cat")
    report = load_all()
    assert CardFormat.objects.filter(game__slug="the-cat").count() == 1
    assert any("the-cat" in item for item in report.created)
    assert ShippedRecord.objects.filter(key__startswith="format:the-cat").exists()


def test_loader_keeps_items_editors_created_first(db, poker):
    brand = Brand.objects.create(name="Mayday Games")
    SleeveProduct.objects.create(
        brand=brand, name="Eigene", code="MDG-7041", card_size=poker,
        inner_width_mm=Decimal("65"), inner_height_mm=Decimal("90"), per_pack=100,
    )  # fmt: skip
    load_all()
    assert SleeveProduct.objects.filter(code="MDG-7041").count() == 1
    assert SleeveProduct.objects.get(code="MDG-7041").name == "Eigene"


def test_load_content_command_loads_sleeves_after_the_games(db):
    out = StringIO()
    call_command("load_content", stdout=out)
    assert Game.objects.filter(slug="the-cat").exists()
    assert CardFormat.objects.filter(game__slug="the-cat").exists()
    assert "Produkt Mayday Games" in out.getvalue()
    assert "übersprungen" not in out.getvalue()
