"""Standings order and tie-breaks (tournament-formats.md §1, §3; Tirol cup rules §7)."""

import pytest
from django.test import Client

from scoring.ranking import Entry, rank
from scoring.services import end_table, save_hand
from scoring.standings import compute_standings
from tournaments import services


def names(rows):
    return [r.entry.name for r in rows]


def test_total_then_best_round_then_second_best(english):
    rows = rank(
        [
            Entry("a", "Anna", rounds=[10, 10, 10], start_number=1),  # 30, best 10
            Entry("b", "Berta", rounds=[20, 5, 5], start_number=2),  # 30, best 20
            Entry("c", "Carl", rounds=[20, 8, 2], start_number=3),  # 30, best 20, 2nd 8
            Entry("d", "Dora", rounds=[40, 0, -5], start_number=4),  # 35
        ]
    )
    assert names(rows) == ["Dora", "Carl", "Berta", "Anna"]
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    assert rows[0].tiebreak == ""  # Dora leads on the total
    assert rows[1].tiebreak == ""  # Carl's total differs from Dora's
    assert "second-best round" in rows[2].tiebreak and "8" in rows[2].tiebreak and "5" in rows[2].tiebreak
    assert "best round" in rows[3].tiebreak and "20" in rows[3].tiebreak and "10" in rows[3].tiebreak


def test_level_players_share_the_rank_until_lots_are_drawn(english):
    entries = [
        Entry("a", "Anna", rounds=[10, 5], start_number=1),
        Entry("b", "Berta", rounds=[5, 10], start_number=2),
        Entry("c", "Carl", rounds=[1, 1], start_number=3),
    ]
    rows = rank(entries)
    assert [r.rank for r in rows] == [1, 1, 3]
    assert rows[1].shared and rows[0].needs_lot and rows[1].needs_lot and not rows[2].needs_lot
    entries[1].lot, entries[0].lot = 1, 2
    rows = rank(entries)
    assert names(rows) == ["Berta", "Anna", "Carl"]
    assert [r.rank for r in rows] == [1, 2, 3]
    assert "lot" in rows[1].tiebreak


def test_a_missing_round_is_worse_than_any_score():
    rows = rank([Entry("a", "Anna", rounds=[10, None]), Entry("b", "Berta", rounds=[12, -2])])
    assert names(rows) == ["Berta", "Anna"]


@pytest.mark.django_db
def test_standings_from_hands(make_tournament):
    t = make_tournament(players=4)
    table = services.draw_next_round(t, seed=1).tables.get()
    save_hand(table, {"dealer": 3, "contract": "dreier", "declarer": 1, "won": True})  # [-5, 15, -5, -5]
    save_hand(table, {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 2, "won": True})  # [-1, 1, 1, -1]
    seats = {s.position: s.registration.player.name for s in table.seats.select_related("registration__player")}
    standings = compute_standings(t)
    assert [(r.rank, r.entry.name, r.total) for r in standings.rows] == [
        (1, seats[1], 16),
        (2, seats[2], -4),
        (3, seats[0], -6),
        (3, seats[3], -6),
    ]
    assert standings.rows[3].shared


@pytest.mark.django_db
def test_standings_page_is_public_and_records_lots(director_client, make_tournament):
    client = Client()  # anonymous, separate from the director's session
    t = make_tournament(players=4, rounds=1)
    table = services.draw_next_round(t, seed=1).tables.get()
    save_hand(table, {"dealer": 3, "outcome": "manual", "scores": [0, 0, 0, 0]})
    end_table(table)  # the only round is over: the final standings, where lots count
    response = client.get(f"/t/{t.pk}/standings/")
    assert response.status_code == 200
    rows = response.context["standings"].rows
    assert all(r.rank == 1 for r in rows)  # all on 0: all level
    regs = [r.entry.key for r in rows]
    director_client.post(f"/manage/t/{t.pk}/lots/", {f"lot_{k}": str(i + 1) for i, k in enumerate(reversed(regs))})
    rows = client.get(f"/t/{t.pk}/standings/").context["standings"].rows
    assert [r.entry.key for r in rows] == list(reversed(regs))
    assert [r.rank for r in rows] == [1, 2, 3, 4]
    response = client.post(f"/manage/t/{t.pk}/lots/", {f"lot_{regs[0]}": "9"})
    assert response.status_code == 302 and "login" in response["Location"]


def test_lots_decide_only_when_the_whole_level_group_has_drawn():
    a = Entry("a", "Anna", rounds=[5, 5], lot=1, start_number=1)
    c = Entry("c", "Carl", rounds=[5, 5], start_number=2)
    d = Entry("d", "Dora", rounds=[5, 5], start_number=3)
    rows = rank([a, c, d])
    assert [r.rank for r in rows] == [1, 1, 1]
    assert all(r.needs_lot for r in rows)
    c.lot, d.lot = 3, 2
    rows = rank([a, c, d])
    assert names(rows) == ["Anna", "Dora", "Carl"] and [r.rank for r in rows] == [1, 2, 3]


@pytest.mark.django_db
def test_bad_lots_are_refused_and_nothing_is_saved(director_client, make_tournament):
    t = make_tournament(players=4)
    services.draw_next_round(t, seed=1)
    regs = list(t.registrations.values_list("pk", flat=True))
    for bad in ("²", "0", "99999999999999999999", "x"):
        response = director_client.post(f"/manage/t/{t.pk}/lots/", {f"lot_{regs[0]}": "1", f"lot_{regs[1]}": bad})
        assert response.status_code == 302
    assert not t.registrations.filter(lot__isnull=False).exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("after", "status"),
    # Not a number: ignored, the standings in total. A number that is no drawn round names nothing: 404.
    [("²", 200), ("-1", 200), ("abc", 200), ("0", 404), ("99", 404), ("1", 200)],
)
def test_standings_after_odd_values_never_fail(client, make_tournament, after, status):
    t = make_tournament(players=4)
    services.draw_next_round(t, seed=1)
    assert client.get(f"/t/{t.pk}/standings/", {"after": after}).status_code == status
