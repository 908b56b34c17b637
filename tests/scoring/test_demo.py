"""The demo tournament: complete, valid under the ruleset, and the same every time."""

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from scoring.demo import DEMO_PASSWORD, DEMO_USERNAME, DEMOS, TIROL_DEMO_NAME, build_tirol_demo
from scoring.models import Hand
from tournaments.models import Tournament


@pytest.fixture
def demo(db):
    return build_tirol_demo()


def test_demo_is_a_complete_tirol_tournament(demo, client):
    rs = demo.get_ruleset()
    assert demo.registrations.count() == 22
    assert demo.round_set.count() == 3
    for rnd in demo.round_set.all():
        sizes = sorted(t.seats.count() for t in rnd.tables.all())
        assert sizes == [4, 4, 4, 5, 5]
        for table in rnd.tables.all():
            size = table.seats.count()
            assert table.hands.count() == {4: 16, 5: 20}[size]
    hands = list(Hand.objects.filter(table__round__tournament=demo).select_related("table"))
    assert len(hands) == 3 * (3 * 16 + 2 * 20)
    contracts = Counter(h.record.get("contract") for h in hands)
    assert contracts.most_common(2)[0][0] == "rufer"
    assert {"rufer", "dreier", "trischaken", "piccolo", "bettler"} <= set(contracts)
    for hand in hands:
        size = len(hand.scores)
        assert rs.validate(hand.record, size) == []
        assert rs.score(hand.record, size) == hand.scores  # re-scoring gives the stored row
    response = client.post("/accounts/login/", {"username": DEMO_USERNAME, "password": DEMO_PASSWORD})
    assert response.status_code == 302  # the demo login works through the login page


def test_demo_is_reproducible_and_idempotent(db, settings):
    # The README's run command (scripts/demo, DEBUG on): build_demo builds every demo, keeps them,
    # rebuilds them with --reset.
    settings.DEBUG = True
    call_command("build_demo")
    assert set(Tournament.objects.values_list("name", flat=True)) == {spec.name for spec in DEMOS}
    rows = list(Hand.objects.order_by("table__round__tournament__name", "table__round__number", "table__number", "number").values_list("scores", flat=True))
    call_command("build_demo")  # idempotent: keeps the existing demo
    assert Tournament.objects.filter(name=TIROL_DEMO_NAME).count() == 1
    call_command("build_demo", "--reset")
    again = list(Hand.objects.order_by("table__round__tournament__name", "table__round__number", "table__number", "number").values_list("scores", flat=True))
    assert again == rows
    # The demo director organises every demo tournament through his role, not as a superuser.
    director = get_user_model().objects.get(username=DEMO_USERNAME)
    assert not director.is_superuser and not director.is_staff
    assert set(director.tournament_roles.values_list("level", flat=True)) == {"organiser"}
    assert director.tournament_roles.count() == len(DEMOS)


def test_pages_keep_flat_query_counts(demo, client, django_assert_max_num_queries):
    table = demo.round_set.get(number=2).tables.first()
    with django_assert_max_num_queries(12):
        assert client.get(f"/t/{demo.pk}/standings/").status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get(f"/table/{table.pk}/").status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get(f"/t/{demo.pk}/").status_code == 200
