"""A director enters hands in a real browser (Playwright driving Debian's Chromium).

The entry form's show/hide logic is JavaScript, which the Django test client cannot see: here the
form must offer only what the contract allows and save a hand typed with the keyboard.
"""


import pytest

from scoring.models import Hand
from tournaments import services

from .helpers import log_in_to_sheet, type_line


def test_director_logs_in_and_enters_a_dreier_by_keyboard(page, live_server, director, make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    names = [s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")]

    log_in_to_sheet(page, live_server, table)

    # Rufer: the partner is offered; Dreier: no partner, no König ultimo, but Pagat.
    page.select_option("select[name=contract]", "rufer")
    assert page.is_visible("select[name=partner]")
    assert page.is_visible("select[name=bonus_koenig_ultimo]")
    page.select_option("select[name=contract]", "dreier")
    assert not page.is_visible("select[name=partner]")
    assert not page.is_visible("select[name=bonus_koenig_ultimo]")
    assert page.is_visible("select[name=bonus_pagat]")
    # Piccolo: no bonuses at all.
    page.select_option("select[name=contract]", "piccolo")
    assert not page.is_visible("select[name=bonus_pagat]")

    page.select_option("select[name=contract]", "dreier")
    page.focus("select[name=declarer]")
    page.keyboard.type(names[1])  # type-ahead in the select, as a scorer would
    assert page.input_value("select[name=declarer]") == "1"
    page.check("input[name=won][value='1']")
    page.select_option("select[name=bonus_pagat]", "d:a:1")
    page.focus("input[name=note]")
    page.keyboard.type("Pagat angesagt")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")

    hand = Hand.objects.get()
    # koenigrufen.md §1: Dreier 5 + announced Pagat 2 = 7 per opponent, declarer +21.
    assert hand.scores == [-7, 21, -7, -7]
    assert "21" in page.inner_text("#hand-1")


def test_a_refused_hand_shows_the_message_and_keeps_the_input(page, live_server, director, make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    log_in_to_sheet(page, live_server, table)
    page.select_option("select[name=contract]", "trischaken")
    for seat, points in enumerate(["30", "20", "10", "5"]):  # 65 points, not 70
        page.fill(f"input[name=points_{seat}]", points)
    page.click("button.primary")
    page.wait_for_selector(".errors")
    assert "70" in page.inner_text(".errors")
    assert page.input_value("input[name=points_0]") == "30"
    assert page.input_value("select[name=contract]") == "trischaken"
    assert not Hand.objects.exists()


def test_quick_entry_by_keyboard_updates_the_sheet_in_place(page, live_server, director, make_tournament):
    t = make_tournament(players=4)
    for reg, name in zip(t.registrations.order_by("start_number"), ["Anna Berger", "Karl Dorn", "Maria Egger", "Hans Falk"]):
        reg.player.name = name
        reg.player.save()
    table = services.draw_next_round(t, seed=7).tables.get()
    names = [s.registration.player.name for s in table.seats.select_related("registration__player").order_by("position")]
    log_in_to_sheet(page, live_server, table)
    page.evaluate("window.__same_page = true")  # gone if the page reloads instead of swapping

    # "d 2 + pag!": Dreier, seat 2 declares, won, Pagat announced by the declarer's team.
    page.focus("#quick")
    page.keyboard.type("d 2 + pag!")
    page.wait_for_selector(".preview-row")  # the computed row is shown before saving
    assert "+21" in page.inner_text(".preview-row")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    assert page.evaluate("window.__same_page") is True
    assert Hand.objects.get().scores == [-7, 21, -7, -7]
    # focus is back on the quick line for hand 2, a Rufer by Vorhand with a partner by initials
    page.wait_for_function("document.activeElement && document.activeElement.id === 'quick'")
    initials = "".join(w[0] for w in names[3].split()).lower()  # e.g. "hf" for Hans Falk
    page.keyboard.type(f"r 2 {initials} -")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-2")
    # Rufer lost, 2 against 2: seat 1 (Vorhand of hand 2) with seat 3, −1 each.
    assert Hand.objects.get(number=2).scores == [1, -1, 1, -1]


def preview(page):
    return page.inner_text("#preview")


def save_refused(page):
    """Press Enter on a line the preview refused and wait for the sheet to come back."""
    page.evaluate("document.querySelector('#hand-form').dataset.before = '1'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-form:not([data-before]) .preview-errors")


def test_bled_hand_by_keyboard_with_kontra_and_mond(page, live_server, director, make_tournament):
    """tarok-bled.md §3: "2 2 45 k m3" = Dvojko by seat 2 (forehand of hand 1 is seat 2), 45 card
    points, kontra, the Mond of seat 3 captured: (20 + 10) × 2 = 60 for seat 2, −21 for seat 3."""
    t = make_tournament(players=3, ruleset="tarok-bled", edition="2005", rounds=4, hands_per_round=21)
    table = services.draw_next_round(t, seed=7).tables.get()

    log_in_to_sheet(page, live_server, table)
    type_line(page, "2 2 45 k m3")  # the digit codes of before still read
    # The fields show what the server read.
    assert page.input_value("select[name=contract]") == "dvojko"
    assert page.input_value("select[name=declarer]") == "1"
    assert page.input_value("input[name=declarer_points]") == "45"
    assert page.input_value("select[name=kontra]") == "1"
    assert page.input_value("select[name=mond_lost_by]") == "2"
    assert page.is_visible("select[name=bonus_trula]")
    assert not page.is_visible("select[name=kontra_by]")  # Klop only
    assert "d 2 45 k m3" in preview(page)  # and its canonical line
    page.focus("#quick")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    assert Hand.objects.get().scores == [0, 60, -21]

    # Klop: everyone's points, kontra by seat 3; no declarer, no game kontra.
    page.wait_for_function("document.activeElement && document.activeElement.id === 'quick'")
    type_line(page, "k 20 30 21 k3")
    assert page.is_visible("select[name=kontra_by]")
    assert not page.is_visible("select[name=declarer]")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-2")
    klop = Hand.objects.get(number=2)
    # Hand 2: dealer seat 1, forehand seat 2; points in seat order 0, 1, 2 = 20, 30, 21.
    # §4: kontra by seat 2 (21 points), not the most: everyone loses 2 × his points.
    assert klop.record["kontra_by"] == 2
    assert klop.scores == [-40, -60, -42]
    assert page.locator(".radelci").first.inner_text() == "○"  # everyone got a radelc


def test_bled_kontra_typed_and_erased_and_kralji_are_told_apart(page, live_server, director, make_tournament):
    """tarok-bled.md §2, §3: a Trojka by forehand (seat 2 after dealer seat 1) with 40 card points
    is 10 + 5 = 15; a kontra doubles the game (30); erasing it gives 15 again; "kr" is Kralji, a
    silent bonus of 10 (25), not a kontra. A Trula in a Berač is refused (§6: no bonuses)."""
    t = make_tournament(players=3, ruleset="tarok-bled", edition="2005", rounds=4, hands_per_round=21)
    table = services.draw_next_round(t, seed=7).tables.get()
    log_in_to_sheet(page, live_server, table)

    type_line(page, "t 2 40 k")
    assert "+30" in preview(page)
    page.keyboard.press("Backspace")
    page.keyboard.press("Backspace")
    page.wait_for_function("() => JSON.parse(document.querySelector('#preview-state').textContent).typed === 't 2 40'")
    assert "+15" in preview(page) and "+30" not in preview(page)
    assert page.input_value("select[name=kontra]") == "0"  # the field followed the erased kontra
    page.keyboard.type(" kr")
    page.wait_for_function("() => JSON.parse(document.querySelector('#preview-state').textContent).typed === 't 2 40 kr'")
    assert "+25" in preview(page) and "Kralji" in preview(page)
    assert page.input_value("select[name=kontra]") == "0"

    type_line(page, "b 2 + tru")
    assert "“tru”: Trula is not allowed in a Berač." in preview(page)
    save_refused(page)  # nothing saved, the line stays
    assert page.input_value("#quick") == "b 2 + tru"
    assert not Hand.objects.exists()

    type_line(page, "t 2 40 kr")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    assert Hand.objects.get().scores == [0, 25, 0]


@pytest.mark.parametrize(
    "ruleset, edition, players, refused, message, fixed, row",
    [
        # koenigrufen.md §1: the negative contracts carry no bonus; Piccolo won by seat 3: 2 × 3.
        ("tiroler-tarockcup", "2019/20", 4, "p 3 + pag", "“pag”: Pagat is not allowed in a Piccolo.", "p 3 +", [-2, -2, 6, -2]),
        # koenigrufen.md §2: no Mondfang in the WTC; Pagatrufer with seat 3: 1 + Pagat 2 = 3 each.
        ("wiener-tarockcup", "2020", 4, "pr 1 3 + pag! mf", "“mf” is neither a code of Wiener Tarockcup 2020 nor a player at this table.", "pr 1 3 + pag!", [3, -3, 3, -3]),
        # cego-ichenheim.md §2: only the Cego games go against a Solo; Solo p = 40 → B 1, ×1: +2 / −1.
        ("cego-ichenheim", "ichenheim", 3, "s 1 40 gs", "“gs” is not allowed in a Solo.", "s 1 40", [2, -1, -1]),
    ],
    ids=["tirol", "wtc", "cego"],
)
def test_a_forbidden_token_is_refused_kept_then_fixed_and_saved(page, live_server, director, make_tournament,
                                                                 ruleset, edition, players, refused, message, fixed, row):
    t = make_tournament(players=players, ruleset=ruleset, edition=edition)
    table = services.draw_next_round(t, seed=7).tables.get()
    dealer = table.dealer_of(1, players)
    log_in_to_sheet(page, live_server, table)
    # Seat numbers in the lines above count from the first dealer's Vorhand: rotate the row to the table.
    shift = (dealer + 1) % players
    refused_line = renumber(refused, shift, players)
    fixed_line = renumber(fixed, shift, players)

    type_line(page, refused_line)
    assert message in preview(page)
    save_refused(page)
    assert message in page.inner_text("#hand-form")
    assert page.input_value("#quick") == refused_line  # the typed line is kept
    assert not Hand.objects.exists()

    type_line(page, fixed_line)
    page.wait_for_selector(".preview-row")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    assert Hand.objects.get().scores == [row[(seat - shift) % players] for seat in range(players)]


def renumber(line, shift, players):
    """``line`` with its seat numbers (after the contract) moved on by ``shift`` seats."""
    words = line.split()
    seats = 2 if words[0] in ("pr", "r") else 1
    for i in range(1, 1 + seats):
        if words[i].isdigit():
            words[i] = str((int(words[i]) - 1 + shift) % players + 1)
    return " ".join(words)


def test_changed_fields_write_the_line_and_enter_saves_it(page, live_server, director, make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    page.set_viewport_size({"width": 390, "height": 844})  # a phone
    log_in_to_sheet(page, live_server, table)
    page.select_option("select[name=contract]", "dreier")
    page.select_option("select[name=declarer]", "1")
    page.check("input[name=won][value='0']")
    page.wait_for_function("() => document.querySelector('#quick').value === 'd 2 -'")
    assert "−15" in preview(page) or "-15" in preview(page)
    page.focus("#quick")
    page.keyboard.press("Enter")
    page.wait_for_selector("#hand-1")
    # koenigrufen.md §1: Dreier lost, 1 against 3: −15 for seat 2, +5 for the others.
    assert Hand.objects.get().scores == [5, -15, 5, 5]
