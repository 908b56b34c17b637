"""Seating that survives the real day: late arrivals, withdrawals, substitutes, swaps,
redraws with their log, the draw report and the printed draw."""

from io import BytesIO

import pytest
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from scoring.services import save_hand
from scoring.standings import compute_standings
from tournaments import services
from tournaments.models import ActionLog, Player, Seat


def seat_of(rnd, registration):
    return Seat.objects.get(table__round=rnd, registration=registration)


def pdf_text(content):
    return "\n".join(page.extract_text() for page in PdfReader(BytesIO(content)).pages)


@pytest.mark.django_db
def test_late_arrival_and_withdrawal_between_rounds(make_tournament):
    t = make_tournament(players=8)
    rnd1 = services.draw_next_round(t, seed=1)
    late = services.register(t, Player.objects.create(name="Spät Kommer"))
    leaver = t.registrations.get(start_number=1)
    table = rnd1.tables.get(seats__registration=leaver)
    save_hand(table, {"dealer": table.first_dealer, "outcome": "manual", "scores": [1, -1, 0, 0]})
    leaver.withdrawn = True
    leaver.save()
    never = services.register(t, Player.objects.create(name="Nie Gespielt"))
    never.withdrawn = True  # withdrew before he played: not ranked at all
    never.save()
    rnd2 = services.draw_next_round(t, seed=2)
    seated = set(Seat.objects.filter(table__round=rnd2).values_list("registration_id", flat=True))
    assert late.pk in seated and leaver.pk not in seated and len(seated) == 8
    rows = {r.entry.key: r for r in compute_standings(t).rows}
    assert rows[late.pk].entry.rounds[0] is None  # missed round 1
    assert rows[leaver.pk].entry.withdrawn and rows[leaver.pk].entry.rounds[1] is None  # keeps round 1
    assert rows[leaver.pk].entry.rounds[0] is not None
    assert never.pk not in rows


@pytest.mark.django_db
def test_swap_two_players_then_the_lock_after_the_first_hand(director_client, make_tournament, english):
    t = make_tournament(players=8)
    rnd = services.draw_next_round(t, seed=4)
    first, second = rnd.tables.order_by("number")
    a = first.seats.get(position=0).registration
    b = second.seats.get(position=2).registration
    url = reverse("tournaments_director:swap", args=[t.pk, rnd.number])
    director_client.post(url, {"first": a.pk, "second": b.pk})
    assert (seat_of(rnd, a).table, seat_of(rnd, a).position, seat_of(rnd, a).card) == (second, 2, "karo")
    assert (seat_of(rnd, b).table, seat_of(rnd, b).position, seat_of(rnd, b).card) == (first, 0, "tarock")
    c = first.seats.get(position=3).registration  # same table: places and cards change hands
    director_client.post(url, {"first": b.pk, "second": c.pk})
    assert (seat_of(rnd, b).position, seat_of(rnd, c).position) == (3, 0)
    save_hand(first, {"dealer": first.first_dealer, "outcome": "struck", "note": "x"})
    response = director_client.post(url, {"first": a.pk, "second": b.pk}, follow=True)
    assert "locked" in response.content.decode()
    assert seat_of(rnd, a).table == second  # unchanged
    assert ActionLog.objects.filter(action="swapped").count() == 2


@pytest.mark.django_db
def test_redraw_logs_every_attempt_with_its_seed(director_client, make_tournament):
    t = make_tournament(players=9)
    rnd = services.draw_next_round(t, seed=11, user=None)
    url = reverse("tournaments_director:redraw", args=[t.pk, 1])
    director_client.post(url)
    director_client.post(url)
    log = list(t.actions.values_list("action", "seed"))
    assert [a for a, _ in log] == ["drawn", "deleted", "drawn", "deleted", "drawn"]
    assert log[0][1] == 11 and log[1][1] == 11
    assert t.round_set.get().seed == log[-1][1]
    assert len({seed for _, seed in log[::2]}) == 3  # three draws, three seeds
    table = t.round_set.get().tables.first()
    save_hand(table, {"dealer": table.first_dealer, "outcome": "struck", "note": "x"})
    director_client.post(url)
    assert t.actions.count() == 5  # refused: the seating is locked


@pytest.mark.django_db
def test_substitute_takes_the_rest_of_the_round(director_client, make_tournament):
    t = make_tournament(players=5)
    rnd = services.draw_next_round(t, seed=3)
    reserve = services.register(t, Player.objects.create(name="Ersatz Mann"))
    table = rnd.tables.get()
    save_hand(table, {"dealer": 4, "contract": "dreier", "declarer": 1, "won": True})  # seat 1 +15
    leaving = table.seats.get(position=1)
    director_client.post(
        reverse("tournaments_director:substitute", args=[t.pk, 1]), {"seat": leaving.pk, "substitute": reserve.pk}
    )
    leaving.refresh_from_db()
    assert (leaving.substitute, leaving.substitute_from) == (reserve, 2)
    save_hand(table, {"dealer": 0, "contract": "dreier", "declarer": 1, "won": False})  # seat 1 −15
    rows = {r.entry.key: r.entry.rounds[0] for r in compute_standings(t).rows}
    assert rows[leaving.registration_id] == 15 and rows[reserve.pk] == -15
    sheet = director_client.get(table.get_absolute_url()).content.decode()
    assert "→ Ersatz Mann" in sheet


@pytest.mark.django_db
def test_draw_report_names_repeats_with_the_round_they_met(director_client, make_tournament, english):
    t = make_tournament(players=4, rounds=2)
    services.draw_next_round(t, seed=1)
    rnd2 = services.draw_next_round(t, seed=2)  # four players: everybody meets again
    page = Client().get(reverse("tournaments:round", args=[t.pk, 2])).content.decode()
    assert "6 pairs meet again" in page
    assert rnd2.report["sizes"] == [4] and len(rnd2.report["repeats"]) == 6
    assert all(rounds == [1] for _a, _b, rounds in rnd2.report["repeats"])  # they met in round 1
    assert "(round 1)" in page


@pytest.mark.django_db
def test_printed_seating_list_and_director_only_table_cards(director_client, make_tournament):
    t = make_tournament(players=9)
    rnd = services.draw_next_round(t, seed=5)
    response = Client().get(reverse("exports:seating_pdf", args=[t.pk, 1]))
    assert response.status_code == 200 and response.content.startswith(b"%PDF")
    text = pdf_text(response.content)
    names = sorted(t.registrations.values_list("player__name", flat=True))
    assert all(name in text for name in names)
    assert text.index(names[0], text.index(names[-1])) > 0  # the by-name list comes after the tables
    cards = reverse("exports_director:table_cards_pdf", args=[t.pk, 1])
    assert Client().get(cards).status_code == 302  # private links: directors only
    response = director_client.get(cards)
    assert response.status_code == 200 and len(PdfReader(BytesIO(response.content)).pages) == rnd.tables.count()
    assert "Tarock" in pdf_text(response.content)


@pytest.mark.django_db
def test_a_player_leaves_a_five_table_which_plays_on_as_a_four_table(director_client, make_tournament, english):
    from django.core.management import call_command
    from openpyxl import load_workbook

    from scoring.models import Hand

    t = make_tournament(players=5)
    table = services.draw_next_round(t, seed=3).tables.get()  # seats 0–4, first dealer seat 4
    rows_at_five = {4: [1, -1, 0, 0, 0], 0: [0, 2, -2, 0, 0], 1: [1, 0, -1, 0, 0]}  # the dealer sits out: 0
    for dealer, row in rows_at_five.items():  # three hands at five
        save_hand(table, {"dealer": dealer, "outcome": "manual", "scores": row})
    leaver = table.seats.get(position=2)
    names = {s.position: s.registration.player.name for s in table.seats.select_related("registration__player")}
    director_client.post(reverse("entry:drop_player", args=[table.pk]), {"seat": leaver.pk})
    leaver.refresh_from_db()
    assert leaver.left_after == 3
    # A double click, or a second player at once: refused, one player left, one log line.
    again = director_client.post(reverse("entry:drop_player", args=[table.pk]), {"seat": leaver.pk}, follow=True)
    assert "only one can leave" in again.content.decode()
    other = table.seats.get(position=3)
    director_client.post(reverse("entry:drop_player", args=[table.pk]), {"seat": other.pk})
    other.refresh_from_db()
    assert other.left_after is None and t.actions.filter(action="left").count() == 1
    # A tampered seat is not found, not a server error.
    assert director_client.post(reverse("entry:drop_player", args=[table.pk]), {"seat": "x"}).status_code == 404
    sheet = director_client.get(table.get_absolute_url()).context["sheet"]
    # Seats in play are 0, 1, 3, 4 (numbered 0–3 in the hand record). Hand 3 was dealt by seat 1;
    # seat 2 has left, so seat 3 deals hand 4 (index 2) and seat 4 is Vorhand (index 3).
    assert sheet.info.positions == [0, 1, 3, 4] and (sheet.next_dealer, sheet.next_vorhand) == (2, 3)
    assert sheet.next_dealer_name == names[3] and sheet.next_vorhand_name == names[4]
    # A Dreier by the Vorhand (record seat 3 = seat 4 at the table), won: 4-table row [-5, -5, -5, 15].
    response = director_client.post(
        reverse("entry:hand_create", args=[table.pk]),
        {"outcome": "played", "dealer": "2", "contract": "dreier", "declarer": "3", "won": "1", "number": "4"},
    )
    assert response.status_code == 302
    hand = Hand.objects.get(number=4)
    assert hand.record["seats"] == [0, 1, 3, 4] and hand.scores == [-5, -5, 0, -5, 15]
    # [2, 1, -3, 0, 0] from the three hands at five, plus [-5, -5, 0, -5, 15]
    assert list(table.seats.order_by("position").values_list("score", flat=True)) == [-3, -4, -3, -5, 15]
    rows = {r.entry.key: r.entry.rounds[0] for r in compute_standings(t).rows}
    assert rows[leaver.registration_id] == -3  # he keeps what he played
    labels = [r.label for r in director_client.get(table.get_absolute_url()).context["sheet"].rows]
    assert names[4] in labels[3] and "Dreier" in labels[3]
    # editing the hand keeps its seating; editing an earlier hand keeps the five seats
    edit = reverse("entry:hand_edit", args=[hand.pk])
    director_client.post(edit, {"outcome": "played", "dealer": "2", "contract": "dreier", "declarer": "3", "won": "0", "version": "1"})
    hand.refresh_from_db()
    assert hand.scores == [5, 5, 0, 5, -15]
    call_command("recompute")  # re-scoring the stored hands gives the stored rows
    hand.refresh_from_db()
    assert hand.scores == [5, 5, 0, 5, -15]
    wb = load_workbook(BytesIO(Client().get(f"/t/{t.pk}/hands.xlsx").content))
    long = [r for r in wb["Hands"].iter_rows(values_only=True) if r[2] == 4]
    assert long[0][4] == names[4]  # the declarer by name, not by the record's seat index
    # only one player can leave, and raw rows are refused at a reduced table
    response = director_client.post(reverse("entry:drop_player", args=[table.pk]), {"seat": table.seats.get(position=0).pk}, follow=True)
    assert "only one" in response.content.decode()
    response = director_client.post(reverse("entry:raw_rows", args=[table.pk]), {"rows": "1 -1 0 0 0"})
    assert response.status_code == 422


@pytest.mark.django_db
def test_all_rounds_at_the_start_minimise_repeats_over_all_rounds(make_tournament):
    # 16 players, 5 rounds of four 4-tables: a schedule where nobody meets twice exists.
    t = make_tournament(players=16, rounds=5, draw_mode="all_at_start")
    first = services.draw_next_round(t, seed=8)
    assert first.number == 1 and t.round_set.count() == 5
    assert sum(len(r.repeats) for r in t.round_set.all()) == 0
    assert all(r.report["mode"] == "all_at_start" for r in t.round_set.all())
    with pytest.raises(services.DrawRefused):
        services.draw_next_round(t, seed=9)


@pytest.mark.django_db
def test_by_standings_puts_similar_standings_together(make_tournament):
    t = make_tournament(players=8, draw_mode="by_standings")
    rnd1 = services.draw_next_round(t, seed=1)
    for table in rnd1.tables.all():  # seat 0 wins big, seat 3 loses big at each table
        save_hand(table, {"dealer": 3, "outcome": "manual", "scores": [30, 10, -10, -30]})
    winners = set(Seat.objects.filter(table__round=rnd1, position__in=[0, 1]).values_list("registration_id", flat=True))
    rnd2 = services.draw_next_round(t, seed=2)
    top = rnd2.tables.get(number=1)
    assert set(top.seats.values_list("registration_id", flat=True)) == winners


@pytest.mark.django_db
def test_pure_random_mode_ignores_earlier_rounds(make_tournament):
    def tables_by_start_number(rnd):
        return sorted(
            sorted(rnd.tournament.registrations.filter(seats__table=t).values_list("start_number", flat=True))
            for t in rnd.tables.all()
        )

    played = make_tournament(players=8, draw_mode="random", name="A")
    services.draw_next_round(played, seed=1)
    second = services.draw_next_round(played, seed=2)
    fresh = make_tournament(players=8, draw_mode="random", name="B")
    first_of_fresh = services.draw_next_round(fresh, seed=2)
    assert tables_by_start_number(second) == tables_by_start_number(first_of_fresh)
    assert second.report["mode"] == "random"
