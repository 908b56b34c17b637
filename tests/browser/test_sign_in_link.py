"""An organiser gives the scorer's role to Anna, who has no account: the Roles page creates it and
shows a one-time sign-in link with its QR code (under the Content-Security-Policy as served). On
a phone (390 × 844) Anna opens the link, chooses a password, is logged in and opens her table's
sheet; the link opened a second time is refused with a page saying so."""

from urllib.parse import urlsplit

from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments import services
from tournaments.models import SignInLink, TournamentRole

PHONE = {"width": 390, "height": 844}


def watch_csp(page, violations):
    page.on("console", lambda m: violations.append(m.text) if "Content Security Policy" in m.text else None)


def test_a_new_scorer_signs_in_on_a_phone_through_the_link(browser, live_server, make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    olga = get_user_model().objects.create_user("olga", password="olga-Passwort-1")
    TournamentRole.objects.create(tournament=t, user=olga, level="organiser")
    violations = []

    laptop = browser.new_page(locale="en-GB")  # the policy enforced
    watch_csp(laptop, violations)
    laptop.goto(f"{live_server.url}/accounts/login/?next=/manage/t/{t.pk}/roles/")
    laptop.fill("input[name=username]", "olga")
    laptop.fill("input[name=password]", "olga-Passwort-1")
    laptop.keyboard.press("Enter")
    laptop.wait_for_selector("input[name=username]")  # the Roles page's form
    laptop.fill("input[name=username]", "anna")
    laptop.select_option("select[name=level]", "scorer")
    laptop.click("button:has-text('Give the role')")
    laptop.wait_for_selector("text=There is no account “anna” yet.")
    laptop.click("button:has-text('Create “anna” and give the role')")
    laptop.wait_for_selector("#sign-in-url")
    url = laptop.input_value("#sign-in-url")
    qr = laptop.locator("img[alt='QR code of the sign-in link']")
    assert qr.evaluate("img => img.complete && img.naturalWidth") >= 150  # drawn, big enough to scan from a screen
    assert qr.bounding_box()["width"] >= 200
    path = urlsplit(url).path
    assert path.startswith("/accounts/sign-in/")

    phone = browser.new_page(locale="en-GB", viewport=PHONE)
    watch_csp(phone, violations)
    phone.goto(live_server.url + path)
    phone.wait_for_selector("text=Welcome, anna!")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    phone.fill("input[name=new_password1]", "Schreib-Pass-2026")
    phone.fill("input[name=new_password2]", "Schreib-Pass-2026")
    phone.click("button:has-text('Save the new password')")
    phone.wait_for_url(f"{live_server.url}{t.get_absolute_url()}")
    assert phone.locator("text=Log out anna").count() == 1
    phone.click(f"a[href='{reverse('scoring:sheet', args=[table.pk])}']")
    phone.wait_for_selector("#hand-form")  # his table's sheet, with the entry form of a scorer
    assert SignInLink.objects.get(user__username="anna").used_at is not None

    again = browser.new_page(locale="en-GB", viewport=PHONE)
    response = again.goto(live_server.url + path)
    assert response.status == 410
    assert again.locator("text=This sign-in link was used already").count() == 1
    assert violations == []
