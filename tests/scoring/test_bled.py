"""Slovenian Tarok, Bled rules (``tarok-bled.md``), through the services and the web layer.

Seats 0..2 in playing order; seat 0 drew Škis and deals hand 1, so forehand of hand k is seat
``k % 3`` (dealer ``(k - 1) % 3``). Rows are declarer-only (§3), Klop is everyone for himself (§4),
radelci double a holder's next hand (§5), the round is ranked by table points (§7).
"""

import re
from fractions import Fraction
from io import BytesIO, StringIO

import pytest
from django.conf import settings
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from scoring.models import Hand
from scoring.services import build_sheet, save_hand, table_rows
from scoring.standings import compute_standings
from tournaments import services
from tournaments.models import Seat, Tournament

BLED = {"ruleset": "tarok-bled", "edition": "2005"}


def bled_tournament(make_tournament, players=3, **fields):
    """A Bled tournament of ``players`` from the shared fixture, with rounds and hands as a
    director's form would default them for Bled (§1: 4 rounds of 21 hands)."""
    return make_tournament(players, **{"rounds": 4, "hands_per_round": 21, **BLED, **fields})


@pytest.fixture
def table(make_tournament):
    """Round 1 of a 3-player Bled tournament: one table of three."""
    t = bled_tournament(make_tournament, 3)
    return services.draw_next_round(t, seed=5).tables.get()


def post_hand(client, table, **fields):
    data = {"outcome": "played", **{k: str(v) for k, v in fields.items()}}
    return client.post(reverse("entry:hand_create", args=[table.pk]), data)


def names(table):
    return [s.registration.player.name for s in table.seats.order_by("position")]


def seat_scores(table):
    return list(table.seats.order_by("position").values_list("score", flat=True))


def radelci(table):
    """Radelci each seat holds now, as the sheet marks them (one ○ each)."""
    return [len(mark) for mark in build_sheet(table).marks.values()]


def rows(table):
    return list(table.hands.order_by("number").values_list("number", "scores"))


# Hand 1 of every table below: seat 0 deals, seat 1 is forehand and chooses Klop.
# §4: 20 + 30 + 20 = 70; nobody has 35 or more, nobody is empty; kontra by seat 2, who has 20 and
# not the most (seat 1 has 30) → everyone −K × points with K = 2: [−40, −60, −40]; then every
# seat gets a radelc (§5).
KLOP = {"contract": "klop", "dealer": 0, "points_0": 20, "points_1": 30, "points_2": 20, "kontra_by": 2}
KLOP_ROW = [-40, -60, -40]
# Hand 2: seat 1 deals; Dvojko by seat 0 (not forehand: allowed), 45 card points, kontra.
# §3: won (45 > 35), d = 10 → (20 + 10) × 2 (kontra) = 60; seat 0 holds a radelc → × 2 = 120.
DVOJKO = {"contract": "dvojko", "dealer": 1, "declarer": 0, "declarer_points": 45, "kontra": 1}


# ------------------------------------------------------------------------------- 1. the draw


@pytest.mark.django_db
def test_nine_players_three_tables_of_three_with_21_hands(make_tournament):
    t = bled_tournament(make_tournament, 9)
    assert t.get_ruleset().key == "tarok-bled"
    rnd = services.draw_next_round(t, seed=11)
    tables = list(rnd.tables.order_by("number"))
    assert [tb.seats.count() for tb in tables] == [3, 3, 3]
    assert sorted(Seat.objects.filter(table__round=rnd).values_list("registration", flat=True)) == sorted(
        t.registrations.values_list("pk", flat=True)
    )
    for tb in tables:
        assert t.hands_for_table(3) == 21
        # Seating cards: seat 0 drew Škis and deals hand 1; forehand of hand 1 is seat 1.
        assert list(tb.seats.order_by("position").values_list("card", flat=True)) == ["skis", "mond", "20"]
        assert tb.first_dealer == 0 and tb.dealer_of(1, 3) == 0 and tb.dealer_of(2, 3) == 1
        sheet = build_sheet(tb)
        assert (sheet.next_dealer, sheet.next_vorhand, sheet.info.cap, sheet.marks) == (0, 1, 21, {0: "", 1: "", 2: ""})


@pytest.mark.django_db
def test_director_form_defaults_four_rounds_of_21_hands(director_client):
    # The options ticked on the empty form, as a browser sends them back untouched.
    form = director_client.get(reverse("tournaments_director:create")).context["form"]
    ticked = [v for v in form["ruleset_options"].initial if v.startswith("tarok-bled|2005:")]
    data = {"name": "Bled 2027", "date": "2027-09-12", "venue": "Bled", "ruleset_edition": "tarok-bled|2005",
            "rounds": "", "hands_per_round": "", "status": "planned", "ruleset_options": ticked}
    assert director_client.post(reverse("tournaments_director:create"), data).status_code == 302
    t = Tournament.objects.get(name="Bled 2027")
    assert (t.ruleset, t.edition, t.rounds, t.hands_per_round) == ("tarok-bled", "2005", 4, 21)
    # tarok-bled.md §8: every option off by default but radelci_after_valat
    assert t.options == {
        "round_difference": False, "mond_penalty_20": False, "solo_difference": False, "rank_by_game_points": False,
        "klop_full_above_35": False, "radelci_after_valat": True, "solo_valat": False,
    }
    assert t.get_ruleset().victory_points == "table_points"


# ---------------------------------------------------------------- 2. entry through the views


@pytest.mark.django_db
def test_klop_then_doubled_dvojko_through_the_views(director_client, table, english):
    response = post_hand(director_client, table, **KLOP)
    assert response.status_code == 302
    klop = Hand.objects.get(table=table, number=1)
    assert klop.record["card_points"] == {"0": "20", "1": "30", "2": "20"} and klop.record["kontra_by"] == 2
    assert "declarer" not in klop.record and klop.record.get("kontra", 0) == 0
    assert klop.scores == KLOP_ROW

    response = post_hand(director_client, table, **DVOJKO)
    assert response.status_code == 302
    # (20 + 10) × 2 (kontra) × 2 (radelc) = 120; defenders 0 (declarer-only row)
    assert Hand.objects.get(table=table, number=2).scores == [120, 0, 0]
    # −40 + 120 = 80; −60; −40
    assert seat_scores(table) == [80, -60, -40]

    response = director_client.get(table.get_absolute_url())
    assert response.status_code == 200
    sheet = response.context["sheet"]
    # Everyone got one after the Klop; seat 0 won with his and lost it (§5).
    assert sheet.marks == {0: "", 1: "○", 2: "○"}
    assert [r.note for r in sheet.rows] == ["+ radelc", "radelc ×2"]
    page = response.content.decode()
    marks = re.findall(r'class="radelci"[^>]*>([^<]*)</span>', page)
    assert marks == ["", "○", "○"]
    for name, mark in zip(names(table), marks):
        assert re.search(re.escape(name) + r'\s*<span class="radelci"[^>]*>' + mark + "</span>", page)
    assert re.search(r'<span class="radelc">radelc ×2</span>', page)
    assert "120" in page


@pytest.mark.django_db
def test_trojka_by_a_defender_is_refused_and_keeps_the_input(director_client, table, english):
    post_hand(director_client, table, **KLOP)
    post_hand(director_client, table, **DVOJKO)
    # Hand 3: seat 2 deals, forehand is seat 0; Trojka by seat 1 is not allowed (§2, §6).
    response = post_hand(director_client, table, contract="trojka", dealer=2, declarer=1, declarer_points=40,
                         note="Miza 1 – preveri")
    assert response.status_code == 422
    assert table.hands.count() == 2
    form = response.context["form"]
    errors = " ".join(form.non_field_errors())
    assert "forehand" in errors and names(table)[0] in errors and "Trojka" in errors
    assert (form.data["contract"], form.data["declarer"], form.data["declarer_points"], form.data["dealer"]) == (
        "trojka", "1", "40", "2"
    )
    assert form["declarer_points"].value() == "40" and form["note"].value() == "Miza 1 – preveri"
    page = response.content.decode()
    assert 'value="40"' in page and 'value="Miza 1 – preveri"' in page
    assert seat_scores(table) == [80, -60, -40]  # nothing changed


# ----------------------------------------------------------- 3. editing re-scores later hands


@pytest.mark.django_db
def test_editing_an_earlier_hand_rescores_the_later_ones(director_client, table, english):
    post_hand(director_client, table, **KLOP)
    post_hand(director_client, table, **DVOJKO)
    assert rows(table) == [(1, KLOP_ROW), (2, [120, 0, 0])]
    first = table.hands.get(number=1)
    initial = director_client.get(reverse("entry:hand_edit", args=[first.pk])).context["form"].initial
    assert (initial["contract"], initial["kontra_by"], initial["points_1"]) == ("klop", 2, "30")
    # Hand 1 becomes a Trojka by forehand (seat 1), 40 points: (10 + 5) = 15, no radelci handed out.
    response = director_client.post(
        reverse("entry:hand_edit", args=[first.pk]),
        {"outcome": "played", "dealer": "0", "contract": "trojka", "declarer": "1", "declarer_points": "40",
         "version": str(first.version)},
    )
    assert response.status_code == 302
    # Hand 2 without a radelc: (20 + 10) × 2 (kontra) = 60.
    assert rows(table) == [(1, [0, 15, 0]), (2, [60, 0, 0])]
    assert seat_scores(table) == [60, 15, 0]
    second = table.hands.get(number=2)
    assert second.history.first().history_change_reason == "re-scored after an earlier hand changed"
    assert radelci(table) == [0, 0, 0]
    # And back into the Klop: hand 2 is doubled again.
    first.refresh_from_db()
    response = director_client.post(
        reverse("entry:hand_edit", args=[first.pk]),
        {"outcome": "played", **{k: str(v) for k, v in KLOP.items()}, "version": str(first.version)},
    )
    assert response.status_code == 302
    assert rows(table) == [(1, KLOP_ROW), (2, [120, 0, 0])]
    assert seat_scores(table) == [80, -60, -40]


@pytest.mark.django_db
def test_edit_carries_a_kept_radelc_to_a_later_hand(director_client, table):
    post_hand(director_client, table, **KLOP)  # radelci [1, 1, 1]
    post_hand(director_client, table, **DVOJKO)  # 120, seat 0 wins and gives his radelc back
    # Hand 3 (seat 2 deals): Dvojko by seat 0, 45 points, no kontra: 20 + 10 = 30, he holds none.
    post_hand(director_client, table, contract="dvojko", dealer=2, declarer=0, declarer_points=45)
    assert rows(table) == [(1, KLOP_ROW), (2, [120, 0, 0]), (3, [30, 0, 0])]
    # Hand 2 edited to 30 points, lost: d = 5 → −(20 + 5) × 2 (kontra) × 2 (radelc) = −100; a loss
    # keeps the radelc, so hand 3 is doubled now: 30 × 2 = 60.
    second = table.hands.get(number=2)
    response = director_client.post(
        reverse("entry:hand_edit", args=[second.pk]),
        {"outcome": "played", **{k: str(v) for k, v in DVOJKO.items()}, "declarer_points": "30"},
    )
    assert response.status_code == 302
    assert rows(table) == [(1, KLOP_ROW), (2, [-100, 0, 0]), (3, [60, 0, 0])]
    # −40 − 100 + 60 = −80
    assert seat_scores(table) == [-80, -60, -40]
    assert radelci(table) == [0, 1, 1]


@pytest.mark.django_db
def test_deleting_the_klop_rescores_the_following_hand(director_client, table):
    post_hand(director_client, table, **KLOP)
    post_hand(director_client, table, **DVOJKO)
    assert seat_scores(table) == [80, -60, -40]
    klop = table.hands.get(number=1)
    response = director_client.post(reverse("entry:hand_delete", args=[klop.pk]), {"reason": "wrong table"})
    assert response.status_code == 302
    # The Dvojko is hand 1 now, without a radelc: (20 + 10) × 2 = 60.
    assert rows(table) == [(1, [60, 0, 0])]
    assert seat_scores(table) == [60, 0, 0]
    assert radelci(table) == [0, 0, 0]


# ---------------------------------------------------------------- 4. Mond and bonuses by form


@pytest.mark.django_db
def test_trojka_with_kontrad_trula_and_mond_lost(director_client, table, english):
    # Hand 1: seat 0 deals, forehand seat 1 plays Trojka with 40: (10 + 5) = 15; trula announced and
    # made, kontra on it: 20 × 2 = 40 → 55; the game has no kontra. Seat 0 lost the Mond: −21.
    response = post_hand(director_client, table, contract="trojka", dealer=0, declarer=1, declarer_points=40,
                         bonus_trula="d:a:1", bonus_kontra_trula=1, mond_lost_by=0)
    assert response.status_code == 302
    hand = table.hands.get(number=1)
    assert hand.record["bonuses"] == [{"bonus": "trula", "team": "declarer", "announced": True, "made": True, "kontra": 1}]
    assert hand.record["mond_lost_by"] == 0
    assert hand.scores == [-21, 55, 0]
    # Hand 2: seat 1 deals, forehand seat 2 plays Klop: 25 + 25 + 20 = 70, no kontra → [−25, −25, −20].
    assert post_hand(director_client, table, contract="klop", dealer=1, points_0=25, points_1=25,
                     points_2=20).status_code == 302
    # Hand 3: seat 2 deals, forehand seat 0 (holds a radelc) plays the same Trojka with seat 2 losing
    # the Mond: (15 + 40) × 2 = 110; the Mond is not doubled: −21.
    assert post_hand(director_client, table, contract="trojka", dealer=2, declarer=0, declarer_points=40,
                     bonus_trula="d:a:1", bonus_kontra_trula=1, mond_lost_by=2).status_code == 302
    assert rows(table) == [(1, [-21, 55, 0]), (2, [-25, -25, -20]), (3, [110, 0, -21])]
    # −21 − 25 + 110 = 64; 55 − 25 = 30; −20 − 21 = −41
    assert seat_scores(table) == [64, 30, -41]
    sheet = build_sheet(table)
    assert "Trula announced kontra" in sheet.rows[2].label  # the sheet says the trula was kontra'd
    assert "radelc ×2" in sheet.rows[2].note


@pytest.mark.django_db
def test_game_kontra_does_not_double_bonuses_and_mond_20_option(director_client, make_tournament):
    t = bled_tournament(make_tournament, 3, options={"mond_penalty_20": True})
    table = services.draw_next_round(t, seed=5).tables.get()
    # Trojka by forehand (seat 1), 50 points, kontra: (10 + 15) × 2 = 50; silent kralji made +10
    # (not doubled by the game's kontra) → 60; Mond lost by seat 2: −20 with the option.
    response = post_hand(director_client, table, contract="trojka", dealer=0, declarer=1, declarer_points=50,
                         kontra=1, bonus_kralji="d:s:1", mond_lost_by=2)
    assert response.status_code == 302
    assert rows(table) == [(1, [0, 60, -20])]


# --------------------------------------------------------------------- 5. table points standings


def two_tables(make_tournament, **fields):
    """6 players, round 1: table 1 ends [50, 20, −10], table 2 [30, 30, 0] (manual rows, which
    Bled accepts with any sum). Returns the tournament and registration ids per table by seat."""
    t = bled_tournament(make_tournament, 6, **fields)
    rnd = services.draw_next_round(t, seed=3)
    tables = list(rnd.tables.order_by("number"))
    assert [tb.seats.count() for tb in tables] == [3, 3]
    for tb, scores in zip(tables, ([50, 20, -10], [30, 30, 0])):
        save_hand(tb, {"dealer": 0, "outcome": "manual", "scores": scores})
    regs = [list(tb.seats.order_by("position").values_list("registration_id", flat=True)) for tb in tables]
    return t, regs


@pytest.mark.django_db
def test_standings_by_table_points_then_game_points(make_tournament, english):
    t, (a, b) = two_tables(make_tournament)
    rows_ = compute_standings(t).rows
    by_key = {r.entry.key: r for r in rows_}
    # §7: table 1: 50 > 20 > −10 → 2, 1, ½. Table 2: two firsts share (2 + 1) / 2 = 1½, third ½.
    assert [by_key[k].entry.victory for k in a] == [[Fraction(2)], [Fraction(1)], [Fraction(1, 2)]]
    assert [by_key[k].entry.total for k in a] == [2, 1, Fraction(1, 2)]
    assert [by_key[k].entry.total for k in b] == [Fraction(3, 2), Fraction(3, 2), Fraction(1, 2)]
    assert [by_key[k].entry.game_total for k in a + b] == [50, 20, -10, 30, 30, 0]
    # Order: 2 (a0) · 1½ (b0, b1: level, shared) · 1 (a1) · ½ (b2, game points 0) · ½ (a2, −10).
    assert [r.entry.key for r in rows_][0] == a[0]
    assert {r.entry.key for r in rows_[1:3]} == {b[0], b[1]}
    assert [r.entry.key for r in rows_[3:]] == [a[1], b[2], a[2]]
    assert [r.rank for r in rows_] == [1, 2, 2, 4, 5, 6]
    assert rows_[2].shared and rows_[1].needs_lot and rows_[2].needs_lot
    assert rows_[5].tiebreak == "game points: 0 to -10"
    assert not rows_[4].shared and rows_[4].tiebreak == ""  # ½ below 1: no tie-break needed

    page = Client().get(f"/t/{t.pk}/standings/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "1½" in html and "Table points" in html and "Game points" in html
    assert "game points: 0 to -10" in html


@pytest.mark.django_db
def test_rank_by_game_points_option(make_tournament):
    t, (a, b) = two_tables(make_tournament, options={"rank_by_game_points": True})
    rows_ = compute_standings(t).rows
    assert all(r.entry.victory is None for r in rows_)
    # 50 · 30 · 30 (level) · 20 · 0 · −10
    assert [r.entry.total for r in rows_] == [50, 30, 30, 20, 0, -10]
    assert [r.entry.key for r in rows_][0] == a[0]
    assert [r.entry.key for r in rows_][3:] == [a[1], b[2], a[2]]
    assert [r.rank for r in rows_] == [1, 2, 2, 4, 5, 6]
    assert Client().get(f"/t/{t.pk}/standings/").status_code == 200


# --------------------------------------------------------------------------------- 6. the demo


@pytest.mark.django_db
def test_bled_demo_is_complete_consistent_and_uses_radelci():
    from scoring.demo import build_bled_demo

    t = build_bled_demo()
    rs = t.get_ruleset()
    assert (t.ruleset, t.edition) == ("tarok-bled", "2005")
    assert (t.registrations.count(), t.round_set.count()) == (18, 4)
    doubled = 0
    for rnd in t.round_set.all():
        tables = list(rnd.tables.all())
        assert len(tables) == 6
        for tb in tables:
            assert tb.seats.count() == 3
            hands = list(tb.hands.order_by("number"))
            assert [h.number for h in hands] == list(range(1, 22))
            records = [h.record for h in hands]
            assert table_rows(rs, records, 3) == [h.scores for h in hands]
            doubled += sum(rs.breakdown(r, 3, records[:i]).doubled for i, r in enumerate(records))
            totals = [sum(col) for col in zip(*(h.scores for h in hands))]
            assert seat_scores(tb) == totals
    assert doubled >= 1
    out = StringIO()
    call_command("recompute", stdout=out, stderr=StringIO())
    assert "0 rows changed, 0 hands refused" in out.getvalue()


# ------------------------------------------------------------------------------- 7. Slovenian


@pytest.mark.django_db
def test_sheet_and_standings_in_slovenian(table):
    save_hand(table, {"dealer": 0, "contract": "klop", "card_points": {"0": 20, "1": 30, "2": 20}})
    save_hand(table, {"dealer": 1, "contract": "dvojko", "declarer": 0, "declarer_points": 45})
    assert rows(table) == [(1, [-20, -30, -20]), (2, [60, 0, 0])]  # (20 + 10) × 2 (radelc)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "sl"
    sheet = client.get(table.get_absolute_url())
    assert sheet.status_code == 200 and sheet["Content-Language"] == "sl"
    html = sheet.content.decode()
    assert "Delilec" in html and "Skupaj" in html  # "Dealer", "Total" in locale/sl django.po
    assert "○" in html
    standings = client.get(f"/t/{table.round.tournament_id}/standings/")
    assert standings.status_code == 200
    html = standings.content.decode()
    assert "Lestvica" in html and "Ob izenačenju" in html  # "Standings", "Tie-break"


# --------------------------------------------------------------------------------- 8. exports


def played_table(table):
    """Klop (20/30/20, no kontra: [−20, −30, −20]) then a Dvojko by seat 0 with 45 doubled by his
    radelc: (20 + 10) × 2 = 60."""
    save_hand(table, {"dealer": 0, "contract": "klop", "card_points": {"0": 20, "1": 30, "2": 20}})
    save_hand(table, {"dealer": 1, "contract": "dvojko", "declarer": 0, "declarer_points": 45})
    assert rows(table) == [(1, [-20, -30, -20]), (2, [60, 0, 0])]
    return table.round.tournament_id


@pytest.mark.django_db
def test_bled_standings_xlsx(table):
    from openpyxl import load_workbook

    pk = played_table(table)
    # Table points are Fractions (§7: a shared place is 1½); the workbook must still be written.
    xlsx = Client().get(f"/t/{pk}/standings.xlsx")
    assert xlsx.status_code == 200 and xlsx.content
    wb = load_workbook(BytesIO(xlsx.content))
    assert len(wb.worksheets) >= 3
    standings = list(wb.worksheets[0].iter_rows(values_only=True))
    assert len(standings) == 1 + 3  # header + three players


@pytest.mark.django_db
def test_bled_standings_xlsx_with_a_shared_place(make_tournament):
    from openpyxl import load_workbook

    t, _regs = two_tables(make_tournament)
    xlsx = Client().get(f"/t/{t.pk}/standings.xlsx")
    assert xlsx.status_code == 200
    assert len(list(load_workbook(BytesIO(xlsx.content)).worksheets[0].iter_rows(values_only=True))) == 7


@pytest.mark.django_db
def test_bled_pdfs(director_client, table):
    pk = played_table(table)
    pdf = Client().get(f"/t/{pk}/standings.pdf")
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    sheets = director_client.get(reverse("exports_director:score_sheets_pdf", args=[pk, 1]))
    assert sheets.status_code == 200 and sheets.content.startswith(b"%PDF")
    results = director_client.get(reverse("exports_director:table_results_pdf", args=[pk, 1]))
    assert results.status_code == 200 and results.content.startswith(b"%PDF")


# ------------------------------------------------------------------------------- more entry


@pytest.mark.django_db
def test_four_table_dealer_rests_and_gets_a_radelc(director_client, make_tournament):
    t = bled_tournament(make_tournament, 4)
    table = services.draw_next_round(t, seed=5).tables.get()
    assert list(table.seats.order_by("position").values_list("card", flat=True)) == ["skis", "mond", "20", "19"]
    # Hand 1: seat 0 deals and rests (§1); forehand seat 1 chooses Klop, played by seats 1–3:
    # 30 + 20 + 20 = 70, no kontra → [0, −30, −20, −20]; then all four get a radelc (§5).
    response = post_hand(director_client, table, contract="klop", dealer=0, points_1=30, points_2=20, points_3=20)
    assert response.status_code == 302
    # Hand 2: seat 1 deals and rests; Enojko by seat 0 with 36: (30 + 1) × 2 (radelc) = 62.
    response = post_hand(director_client, table, contract="enojko", dealer=1, declarer=0, declarer_points=36)
    assert response.status_code == 302
    assert rows(table) == [(1, [0, -30, -20, -20]), (2, [62, 0, 0, 0])]
    assert radelci(table) == [0, 1, 1, 1]
    assert seat_scores(table) == [62, -30, -20, -20]


@pytest.mark.django_db
def test_manual_row_gives_radelci_by_its_contract_struck_gives_none(director_client, table):
    # A struck hand (seat 0 deals) changes nothing; a manual Klop row (seat 1 deals) hands out
    # radelci like a Klop (§5); the Dvojko after it (seat 2 deals, by seat 0 with 45) is doubled:
    # (20 + 10) × 2 = 60.
    assert post_hand(director_client, table, dealer=0, outcome="struck", reason="misdeal").status_code == 302
    assert radelci(table) == [0, 0, 0]
    response = post_hand(director_client, table, dealer=1, outcome="manual", score_0=-10, score_1=-30, score_2=-30,
                         manual_contract="klop")
    assert response.status_code == 302
    assert table.hands.get(number=2).record["contract"] == "klop"
    assert post_hand(director_client, table, contract="dvojko", dealer=2, declarer=0, declarer_points=45).status_code == 302
    assert rows(table) == [(1, [0, 0, 0]), (2, [-10, -30, -30]), (3, [60, 0, 0])]
    assert seat_scores(table) == [50, -30, -30]


@pytest.mark.django_db
def test_preview_scores_with_the_radelci(director_client, table):
    post_hand(director_client, table, **KLOP)
    data = {"outcome": "played", **{k: str(v) for k, v in DVOJKO.items()}}
    response = director_client.post(reverse("entry:hand_preview", args=[table.pk]), data)
    assert response.status_code == 200
    assert response.context["scores"] == [120, 0, 0]
    assert "+120" in response.content.decode()
    assert table.hands.count() == 1  # nothing saved


@pytest.mark.django_db
def test_bled_standings_pdf_writes_table_points_as_players_do(make_tournament, monkeypatch):
    """§7: a shared first place is 1½ table points — the PDF must not print the Fraction "3/2"."""
    import scoring.exporters.standings

    captured = []
    monkeypatch.setattr(scoring.exporters.standings, "html_to_pdf", lambda html: captured.append(html) or b"%PDF-stub")
    t, _regs = two_tables(make_tournament)
    assert Client().get(f"/t/{t.pk}/standings.pdf").status_code == 200
    html = captured[0]
    assert "3/2" not in html and "1/2" not in html
    assert "1½" in html and "½" in html


@pytest.mark.django_db
def test_bled_certificates_write_table_points_as_players_do(director_client, make_tournament, monkeypatch):
    import tournaments.pdf

    captured = []
    monkeypatch.setattr(tournaments.pdf, "html_to_pdf", lambda html: captured.append(html) or b"%PDF-stub")
    t, _regs = two_tables(make_tournament)
    # places 1–3: 2 (table 1 winner) and the two shared 1½ of table 2
    response = director_client.get(reverse("exports_director:certificates_pdf", args=[t.pk]) + "?places=3")
    assert response.status_code == 200
    html = captured[0]
    assert "3/2" not in html
    assert html.count("1½") >= 2


@pytest.mark.django_db
def test_recompute_restores_a_stale_doubled_row(table):
    played_table(table)  # hand 2 is 60 after the Klop's radelc
    Hand.objects.filter(table=table, number=2).update(scores=[30, 0, 0])  # as if scored without history
    Seat.objects.filter(table=table).update(score=0)
    out = StringIO()
    call_command("recompute", stdout=out, stderr=StringIO())
    assert "1 rows changed, 0 hands refused" in out.getvalue()
    assert rows(table) == [(1, [-20, -30, -20]), (2, [60, 0, 0])]
    assert seat_scores(table) == [40, -30, -20]


@pytest.mark.django_db
def test_rules_page_states_the_options_in_force(client, make_tournament, english):
    """The public rules page says how Bled scores, with the tournament's options (§3, §5, §7)."""
    t = bled_tournament(make_tournament, options={"mond_penalty_20": True, "rank_by_game_points": True})
    html = client.get(f"/t/{t.pk}/rules/").content.decode()
    assert re.search(r"<title>\s*Tarok Bled \(2005\)", html)  # the rules stay out of the title
    assert "Radelci: after every Klop" in html
    assert "−20" in html  # the Mond penalty option
    assert "ranks by game points" in html
    assert "Berač" in html and "Klop" in html
