"""The prize settings show each category's own fields — club and members for a group
only — and never hide a field that holds something typed."""

from .helpers import log_in


def test_a_category_shows_the_fields_of_its_kind(browser, live_server, director, make_tournament):
    t = make_tournament(players=4)
    page = browser.new_page(locale="en-GB", viewport={"width": 390, "height": 844})
    log_in(page, live_server, f"/manage/t/{t.pk}/prizes/")
    page.wait_for_selector("select[name=cat-0-kind]")
    assert page.is_visible("input[name=cat-0-shares]") and not page.is_visible("input[name=cat-0-club]")
    page.select_option("select[name=cat-0-kind]", "group")
    assert page.is_visible("input[name=cat-0-club]") and page.is_visible("#id_cat-0-members")  # the members' search
    page.fill("input[name=cat-0-club]", "Imst")
    page.select_option("select[name=cat-0-kind]", "last")
    assert not page.is_visible("input[name=cat-0-shares]")
    assert page.is_visible("input[name=cat-0-club]")  # typed: it stays, to be seen (and refused or used)
