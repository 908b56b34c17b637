"""The members of a prize category and of a cup sub-ranking are found by typing and picked, on a
phone and under the site's Content-Security-Policy (no inline script); without JavaScript a small
field's players are ticked from the full list."""

import datetime

from scoring.cups.models import Cup, CupRanking
from scoring.prizes.models import PrizeCategory
from tournaments.models import Player, Registration, Tournament

from .helpers import log_in


def test_a_director_finds_and_picks_the_ladies_among_200_players_on_a_phone(browser, live_server, director):
    t = Tournament.objects.create(name="Großturnier", date=datetime.date(2026, 11, 21), ruleset="tiroler-tarockcup", edition="2019/20")
    people = Player.objects.bulk_create(
        [Player(name="Andreas Hofer-Mair", club="Absam"), Player(name="Anna Berger", club="Imst"), Player(name="Anna Bergmann", club="Zams")]
        + [Player(name=f"Spieler {i:03d}", club="Imst") for i in range(197)]
    )
    Registration.objects.bulk_create([Registration(tournament=t, player=p, start_number=i) for i, p in enumerate(people, start=1)])
    ladies = PrizeCategory.objects.create(tournament=t, order=1, kind="group", name="Damen", places=1, amount=10)
    ladies.members.add(Registration.objects.get(tournament=t, player__name="Anna Bergmann"))

    page = browser.new_page(locale="en-GB", viewport={"width": 390, "height": 844})
    errors = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    log_in(page, live_server, f"/manage/t/{t.pk}/prizes/")
    search = page.locator("#id_cat-0-members")
    search.wait_for()
    assert page.locator("input[name=cat-0-members]").count() == 1  # the chosen one only, not 200
    search.fill("anna berg")
    page.wait_for_selector("[data-picker-found] button")
    found = page.locator("[data-picker-found] button")
    assert found.all_inner_texts() == ["Anna Berger (Imst)", "Anna Bergmann (Zams) (chosen)"]
    found.first.click()
    assert "Added: Anna Berger (Imst)" in page.inner_text("[data-picker-status]")
    search.fill("hofer-m")
    page.wait_for_selector("[data-picker-found] button:text('Andreas Hofer-Mair (Absam)')")
    search.press("Enter")  # the only one found is picked; the form is not sent
    assert page.locator("input[name=cat-0-members]:checked").count() == 3
    page.locator("label:has-text('Anna Bergmann') input").uncheck()  # taken off again
    page.click("button.primary")
    page.wait_for_selector("text=The prizes are saved.")
    assert sorted(r.player.name for r in ladies.members.all()) == ["Andreas Hofer-Mair", "Anna Berger"]
    assert not [e for e in errors if "Content Security Policy" in e or "Refused" in e]


def test_a_cup_organiser_picks_a_sub_rankings_players_by_search(browser, live_server, director):
    Player.objects.bulk_create([Player(name="Andreas Hofer-Mair", club="Absam")] + [Player(name=f"Spieler {i:03d}", club="Imst") for i in range(120)])
    cup = Cup.objects.create(name="Testcup", ruleset="tiroler-tarockcup", method="tirol", counting="all")
    youth = CupRanking.objects.create(cup=cup, name="Jugend")
    page = browser.new_page(locale="en-GB", viewport={"width": 1366, "height": 768})
    log_in(page, live_server, f"/manage/cups/{cup.pk}/edit/")
    search = page.locator("#id_ranking-0-members")
    search.wait_for()
    search.fill("Hofer-Mair")
    page.click("[data-picker-found] button:text('Andreas Hofer-Mair (Absam)')")
    page.click("button.primary")
    page.wait_for_selector("text=The cup is saved.")
    assert [p.name for p in youth.members.all()] == ["Andreas Hofer-Mair"]


def test_without_javascript_a_small_fields_players_are_ticked_from_the_full_list(browser, live_server, director, make_tournament):
    t = make_tournament(players=6)
    context = browser.new_context(locale="en-GB", java_script_enabled=False)
    page = context.new_page()
    log_in(page, live_server, f"/manage/t/{t.pk}/prizes/")
    page.wait_for_selector("select[name=cat-0-kind]")
    page.select_option("select[name=cat-0-kind]", "group")
    page.fill("input[name=cat-0-name]", "Damen")
    page.check("label:has-text('Spieler 02') input")
    page.fill("#id_cat-0-members", "Spieler 05")  # typed: added on saving
    page.click("button.primary")
    page.wait_for_selector("text=The prizes are saved.")
    assert sorted(r.player.name for r in t.prize_categories.get().members.all()) == ["Spieler 02", "Spieler 05"]
