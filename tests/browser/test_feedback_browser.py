import re

import pytest
from playwright.sync_api import expect

from feedback.models import ErrorReport, Vote
from tests.browser.conftest import DESKTOP, PHONE, assert_accessible, own_stars_in_place, screenshot

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def quick_readers(settings):
    # The minimum fill time is tested in tests/feedback; here a robot types fast.
    settings.FEEDBACK_MIN_FILL_SECONDS = 0


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


def new_page(browser, live_server, viewport, **options):
    context = browser.new_context(
        viewport=viewport, locale="de-DE", base_url=live_server.url, **options
    )
    return context, context.new_page()


def test_report_from_a_section_link_thanks_in_place_and_status_page(page, content, quick_readers):
    page.goto("/spiele/the-cat/")
    expect(page.get_by_role("heading", name="Fehler entdeckt?")).to_be_visible()
    assert_accessible(page)

    page.get_by_role("link", name="Fehler melden im Abschnitt „Ziel des Spiels“").click()
    form = page.locator("form#fehler-melden-inhalt")
    expect(form).to_be_visible()
    expect(page.get_by_label("Wo auf der Seite?")).to_have_value("ziel")
    expect(page.get_by_label("Was stimmt nicht?")).to_be_focused()
    assert page.url.endswith("/spiele/the-cat/")  # opened in place, no navigation
    page.get_by_label("Was stimmt nicht?").fill(
        "Im Regelheft steht, dass der Rufer bei einem Fehler null Punkte bekommt."
    )
    page.get_by_label("Was steht im Regelheft?").fill("S. 2")
    page.get_by_label("E-Mail für eine Antwort").fill("leserin@example.org")
    assert_accessible(page)
    screenshot(page, "feedback-form-desktop")

    page.get_by_role("button", name="Hinweis senden").click()
    thanks = page.locator(".report-thanks")
    expect(thanks).to_contain_text("Danke! Dein Hinweis ist angekommen.")
    expect(thanks).to_be_focused()
    report = ErrorReport.objects.get()
    assert not report.is_spam, report.spam_reasons
    assert report.section_kind == "ziel" and report.rulebook_reference == "S. 2"
    assert report.page_url.endswith("/spiele/the-cat/#ziel")
    assert report.article_version == 1
    assert_accessible(page)
    screenshot(page, "feedback-thanks-desktop")

    page.locator(f'.report-thanks a[href$="/meldung/{report.token}/"]').click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Dein Hinweis zu The Cat")
    expect(page.locator(".report-status__now")).to_contain_text("eingegangen")
    assert_accessible(page)
    screenshot(page, "feedback-status-desktop")


def test_vote_with_stars_and_change_it(page, content):
    page.goto("/spiele/the-cat/")
    expect(page.locator("#bewertung")).to_contain_text("Noch keine Stimmen – Sei der Erste!")
    own_stars_in_place(page)
    page.get_by_role("button", name="4 von 5 Sternen – sehr gut").click()
    expect(page.locator("#bewertung-meldung")).to_have_text(re.compile("4 von 5 Sternen vergeben"))
    expect(page.locator(".rating__average")).to_have_text("4,0")
    expect(page.get_by_role("button", name="4 von 5 Sternen – sehr gut")).to_have_attribute(
        "aria-pressed", "true"
    )
    # Keyboard: the focus stays on the stars after the swap.
    page.get_by_role("button", name="2 von 5 Sternen – geht so").focus()
    page.keyboard.press("Enter")
    expect(page.locator(".rating__average")).to_have_text("2,0")
    expect(page.get_by_role("button", name="2 von 5 Sternen – geht so")).to_be_focused()
    assert Vote.objects.count() == 1 and Vote.objects.get().stars == 2
    assert_accessible(page)
    page.goto("/")
    expect(page.locator(".game-card", has_text="The Cat")).to_contain_text("1 Stimme")
    expect(page.locator(".game-card", has_text="Alpaka")).to_contain_text("Noch keine Stimmen")


def test_report_and_vote_work_without_javascript(browser, live_server, content, quick_readers):
    context, page = new_page(browser, live_server, DESKTOP, java_script_enabled=False)
    try:
        # The Cat has no demo: this test is about the page, not a demo's markup.
        page.goto("/spiele/the-cat/")
        page.get_by_role("link", name="Fehler melden im Abschnitt „Ablauf“").click()
        expect(page).to_have_url(re.compile(r"\?abschnitt=ablauf#fehler-melden$"))
        expect(page.get_by_label("Wo auf der Seite?")).to_have_value("ablauf")
        page.get_by_label("Was stimmt nicht?").fill("Die Reihenfolge der Züge ist anders.")
        page.get_by_role("button", name="Hinweis senden").click()
        expect(page).to_have_url(re.compile(r"/meldung/[\w-]{43,}/\?neu=1$"))
        expect(page.locator(".report-thanks")).to_contain_text("Danke!")

        page.goto("/spiele/the-cat/")
        # The cached page holds no CSRF token: a star opens the rating page, which votes.
        page.get_by_role("button", name="5 von 5 Sternen – großartig").click()
        expect(page).to_have_url(re.compile(r"/spiele/the-cat/sterne/\?sterne=5$"))
        expect(page.locator(".notice")).to_contain_text("5 von 5 Sternen gewählt")
        page.get_by_role("button", name="5 von 5 Sternen – großartig").click()
        expect(page).to_have_url(re.compile(r"/spiele/the-cat/#bewertung$"))
        expect(page.locator(".rating__average")).to_have_text("5,0")
    finally:
        context.close()
    assert ErrorReport.objects.get().section_kind == "ablauf"


def test_phone_layout_of_stars_form_and_status(browser, live_server, content, quick_readers):
    context, page = new_page(browser, live_server, PHONE)
    try:
        page.goto("/spiele/the-cat/?abschnitt=spielende#fehler-melden")
        expect(page.get_by_label("Wo auf der Seite?")).to_have_value("spielende")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert_accessible(page)
        screenshot(page, "feedback-game-phone")
        page.get_by_label("Was stimmt nicht?").fill("kurz")
        page.get_by_label("Was stimmt nicht?").evaluate("el => el.removeAttribute('minlength')")
        page.get_by_role("button", name="Hinweis senden").click()
        expect(page.locator(".report-form__errors")).to_be_visible()
        expect(page.locator(".report-form .errorlist")).to_contain_text("etwas genauer")
        assert_accessible(page)
        page.get_by_label("Was stimmt nicht?").fill("Die Wertung am Rundenende fehlt ein Satz.")
        page.get_by_role("button", name="Hinweis senden").click()
        expect(page.locator(".report-thanks")).to_be_visible()
        report = ErrorReport.objects.get()
        report.status = ErrorReport.Status.CORRECTED
        report.public_answer = "Danke! Wir haben den Satz zur Wertung ergänzt."
        report.save()
        page.goto(report.get_status_url())
        expect(page.locator(".report-answer")).to_contain_text("ergänzt")
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert_accessible(page)
        screenshot(page, "feedback-status-phone")
    finally:
        context.close()


@pytest.mark.parametrize(("viewport", "name"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_admin_report_list(browser, live_server, content, editor, viewport, name):
    from games.models import Game

    game = Game.objects.get(slug="the-cat")
    ErrorReport.objects.create(
        game=game,
        section_kind="spielende",
        section_label="Spielende und Wertung",
        message='Bonuspunkt fehlt <script>alert("x")</script>',
        page_url=f"{live_server.url}/spiele/the-cat/#spielende",
        email="leser@example.org",
        article_version=1,
    )
    ErrorReport.objects.create(game=game, message="Spam", page_url="http://x/", is_spam=True)
    context, page = new_page(browser, live_server, viewport)
    try:
        page.goto("/admin/login/")
        page.get_by_label("Benutzername").fill("editor")
        page.get_by_label("Passwort").fill("geheim-123")
        page.get_by_role("button", name="Anmelden").click()
        expect(page.locator("#neue-fehlermeldungen")).to_contain_text("1 neue Fehlermeldung")
        screenshot(page, f"feedback-admin-index-{name}")
        page.locator("#neue-fehlermeldungen a").click()
        expect(page.locator("#result_list")).to_contain_text(
            'Bonuspunkt fehlt <script>alert("x")</script>'
        )
        expect(page.locator("#result_list")).not_to_contain_text("Spam")
        screenshot(page, f"feedback-admin-list-{name}")
    finally:
        context.close()
