"""A first-time director registers his field and draws round 1 in the browser: the tournament
page leads him with a "Register players" button and offers no draw before anybody is registered;
a hyphenated name typed in full in the search finds the player; a pasted list registers the
names the register knows once without asking, asks only about a name two players have, and
the rest is registered meanwhile; the draw keeps its seed under "Advanced" and out of the
message."""

import re

from tournaments.models import Player, Tournament

from .helpers import log_in


def submit(page, selector):
    with page.expect_navigation():
        page.click(selector)


def test_register_the_field_and_draw_round_one(page, live_server, director):
    hofer = Player.objects.create(name="Andreas Hofer-Mair", club="Imst")
    anna = Player.objects.create(name="Anna Berger", club="Imst")
    falk_vomp = Player.objects.create(name="Hans Falk", club="Vomp")
    Player.objects.create(name="Hans Falk", club="Lienz")
    t = Tournament.objects.create(name="Erster Abend", date="2026-11-27", ruleset="tiroler-tarockcup", edition="2019/20")
    base = live_server.url
    log_in(page, live_server, t.get_absolute_url())
    page.wait_for_selector("h1")

    # No players: a button to register them, and no draw but what is missing.
    assert page.locator("a.button", has_text="Register players").is_visible()
    assert page.locator("a", has_text="Draw round 1").count() == 0
    assert "No player is registered yet: register the players before the draw." in page.inner_text("main")
    submit(page, "a.button:has-text('Register players')")

    # The search finds the hyphenated name typed in full.
    page.fill("#player-q", "Andreas Hofer-Mair")
    page.wait_for_selector("#player-search-results li:has-text('Andreas Hofer-Mair')")
    submit(page, "#player-search-results li:has-text('Andreas Hofer-Mair') button")
    assert list(t.registrations.values_list("player", flat=True)) == [hofer.pk]

    # A pasted list: Anna is the register's without a question, Hans Falk (two of them) waits.
    page.fill("textarea[name=names]", "Anna Berger\nHans Falk\nKarl Dorn; Imst\nMaria Egger")
    submit(page, "form.card button.primary")
    messages = page.inner_text("ul.messages")
    assert "3 players registered, 2 of them new in the register." in messages
    assert "Taken from the register by the name: Anna Berger (Imst)." in messages
    assert "Hans Falk is in the register more than once" in messages
    assert t.registrations.count() == 4 and t.registrations.filter(player=anna).exists()
    assert page.input_value("textarea[name=names]") == "Hans Falk"
    page.check(f"input[name=choice_1][value='{falk_vomp.pk}']")
    submit(page, "form.card button.primary")
    assert t.registrations.count() == 5 and t.registrations.filter(player=falk_vomp).exists()
    headers = page.locator("table.grid thead th").all_inner_texts()
    assert headers[:3] == ["No.", "Name", "Town or club"]

    # Five players: round 1 can be drawn; the seed waits under "Advanced".
    page.goto(f"{base}{t.get_absolute_url()}")
    submit(page, "a.button:has-text('Draw round 1')")
    assert not page.locator("#id_seed").is_visible()
    page.click("summary:has-text('Advanced')")
    assert page.locator("#id_seed").is_visible()
    assert "Leave it empty for a fresh random draw." in page.inner_text("details")
    submit(page, "button.primary:has-text('Draw')")
    rnd = t.round_set.get()
    assert page.inner_text("ul.messages").strip() == "Round 1 is drawn."
    assert not re.search(str(rnd.seed), page.inner_text("ul.messages"))
