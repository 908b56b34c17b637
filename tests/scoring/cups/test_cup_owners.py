"""A cup is kept by its organisers (``scoring/cups/roles.py``): whoever creates it keeps it,
only they and a superuser change it, import into it and name its other organisers; everyone else
gets 403 and changes nothing. Every cup command writes exactly one line of the cup's action log,
with who did it."""

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from scoring.cups.models import Cup, CupAction, CupRanking, CupResult
from scoring.cups.roles import may_put_in_cup
from tournaments.models import Tournament
from tournaments.roles import organisers_group

pytestmark = pytest.mark.django_db
User = get_user_model()
Action = CupAction.Action

RESULTS = "Turnier;Datum;Rang;Name;Verein\r\nCup Imst;2025-10-04;1;Anna Huber;Imst\r\nCup Imst;2025-10-04;2;Bert Maier;Telfs\r\n"


def organiser(name):
    """A user of the "Organisers" group (he may create cups), logged in on his own client."""
    user = User.objects.create_user(name, password="pw-123-geheim")
    user.groups.add(organisers_group())
    client = Client()
    client.force_login(user)
    return user, client


def cup_data(name="Tiroler Cup 2026/27", counting="all", rankings=(), **more):
    """The settings page's POST: the cup's fields and its sub-rankings as ``(id or "", name, delete)``."""
    data = {"name": name, "ruleset": "tiroler-tarockcup", "method": "tirol", "counting": counting, "final_top": "", "final_min_played": "",
            "ranking-TOTAL_FORMS": str(len(rankings)), "ranking-INITIAL_FORMS": str(sum(1 for r in rankings if r[0])),
            "ranking-MIN_NUM_FORMS": "0", "ranking-MAX_NUM_FORMS": "1000", **more}
    for i, (pk, ranking_name, delete) in enumerate(rankings):
        data.update({f"ranking-{i}-id": str(pk), f"ranking-{i}-name": ranking_name, f"ranking-{i}-club": ""})
        if delete:
            data[f"ranking-{i}-DELETE"] = "on"
    return data


def log():
    """The cup log as ``[(action, user name, detail)]``, oldest first."""
    return [(a.action, a.user_name, a.detail) for a in CupAction.objects.order_by("created", "pk")]


@pytest.fixture
def anna_cup():
    """Anna's cup, created on its settings page, with a sub-ranking "Damen"."""
    anna, client = organiser("anna")
    response = client.post(reverse("cups_manage:create"), cup_data(rankings=[("", "Damen", False)]))
    assert response.status_code == 302
    return Cup.objects.get(), anna, client


def test_whoever_creates_a_cup_keeps_it_and_the_creation_is_logged_with_him(anna_cup):
    cup, anna, _client = anna_cup
    assert list(cup.organisers.all()) == [anna]
    assert log() == [(Action.CREATED, "anna", "Tiroler Cup 2026/27"), (Action.RANKING_ADDED, "anna", "Damen")]
    assert CupAction.objects.filter(user=anna).count() == 2


def test_a_user_outside_the_organisers_group_creates_no_cup(client):
    client.force_login(User.objects.create_user("gast", password="pw-123-geheim"))
    assert client.post(reverse("cups_manage:create"), cup_data()).status_code == 403
    assert not Cup.objects.exists() and not CupAction.objects.exists()


def test_another_organiser_gets_403_everywhere_in_someone_elses_cup_and_changes_nothing(anna_cup):
    cup, _anna, _client = anna_cup
    ranking = cup.rankings.get()
    _bert, bert = organiser("bert")  # may create cups of his own, but this one is Anna's
    before = (log(), list(Cup.objects.values()), list(CupRanking.objects.values()), list(cup.organisers.values_list("username", flat=True)))
    pk = cup.pk
    refused = [
        bert.get(reverse("cups_manage:edit", args=[pk])),
        bert.post(reverse("cups_manage:edit", args=[pk]), cup_data(name="Berts Cup", rankings=[(ranking.pk, "Herren", False)])),
        bert.get(reverse("cups_manage:import", args=[pk])),
        bert.post(reverse("cups_manage:import", args=[pk]), {"file": SimpleUploadedFile("r.csv", RESULTS.encode())}),
        bert.post(reverse("cups_manage:import", args=[pk]), {"import": "1", "digest": "x"}),
        bert.post(reverse("cups_manage:remove_results", args=[pk]), {"event": "Cup Imst", "date": "2025-10-04"}),
        bert.post(reverse("cups_manage:add_organiser", args=[pk]), {"username": "bert"}),
        bert.post(reverse("cups_manage:remove_organiser", args=[pk]), {"user": str(cup.organisers.get().pk)}),
        bert.get(reverse("cups_manage:log", args=[pk])),
    ]
    assert [r.status_code for r in refused] == [403] * len(refused)
    after = (log(), list(Cup.objects.values()), list(CupRanking.objects.values()), list(cup.organisers.values_list("username", flat=True)))
    assert after == before
    # The public table offers him no settings.
    assert reverse("cups_manage:edit", args=[pk]) not in bert.get(cup.get_absolute_url()).content.decode()
    # Anonymous visitors are sent to the login.
    assert Client().get(reverse("cups_manage:edit", args=[pk])).status_code == 302


def test_each_command_of_the_settings_page_writes_one_action_with_its_actor(anna_cup, english):
    cup, _anna, anna = anna_cup
    damen = cup.rankings.get()
    CupAction.objects.all().delete()
    url = reverse("cups_manage:edit", args=[cup.pk])
    assert anna.get(url).status_code == 200

    anna.post(url, cup_data(counting="3", rankings=[(damen.pk, "Damen", False)]))
    assert log() == [(Action.EDITED, "anna", "Results counted: all → 3")]

    anna.post(url, cup_data(counting="3", rankings=[(damen.pk, "Damen", False), ("", "Jugend", False)]))
    anna.post(url, cup_data(counting="3", rankings=[(damen.pk, "Frauen", False), (cup.rankings.get(name="Jugend").pk, "Jugend", False)]))
    anna.post(url, cup_data(counting="3", rankings=[(damen.pk, "Frauen", False), (cup.rankings.get(name="Jugend").pk, "Jugend", True)]))
    assert log()[1:] == [
        (Action.RANKING_ADDED, "anna", "Jugend"),
        (Action.RANKING_CHANGED, "anna", "Frauen: Name: Damen → Frauen"),
        (Action.RANKING_REMOVED, "anna", "Jugend"),
    ]
    # Saving unchanged writes nothing.
    anna.post(url, cup_data(counting="3", rankings=[(damen.pk, "Frauen", False)]))
    assert len(log()) == 4
    # A refused save writes nothing either.
    assert anna.post(url, cup_data(counting="most", rankings=[(damen.pk, "Frauen", False)])).status_code == 422
    assert len(log()) == 4


def test_import_and_removal_of_results_are_logged_with_their_actor(anna_cup, english):
    cup, _anna, anna = anna_cup
    CupAction.objects.all().delete()
    url = reverse("cups_manage:import", args=[cup.pk])
    preview = anna.post(url, {"file": SimpleUploadedFile("r.csv", RESULTS.encode())})
    assert preview.status_code == 200 and not CupAction.objects.exists()  # a preview is no command
    anna.post(url, {"import": "1", "digest": preview.context["digest"]})
    assert CupResult.objects.count() == 2
    assert log() == [(Action.RESULTS_IMPORTED, "anna", "Cup Imst (2025-10-04): 2")]

    page = anna.get(url).content.decode()
    assert "Imported so far" in page and "Cup Imst" in page
    removed = anna.post(reverse("cups_manage:remove_results", args=[cup.pk]), {"event": "Cup Imst", "date": "2025-10-04"}, follow=True)
    assert "2 results of “Cup Imst” removed." in removed.content.decode()
    assert not CupResult.objects.exists()
    assert log()[1:] == [(Action.RESULTS_REMOVED, "anna", "Cup Imst (2025-10-04): 2")]
    again = anna.post(reverse("cups_manage:remove_results", args=[cup.pk]), {"event": "Cup Imst", "date": "2025-10-04"}, follow=True)
    assert "Nothing was removed" in again.content.decode() and len(log()) == 2  # a second click logs nothing


def test_organisers_are_named_by_user_name_and_a_cup_keeps_one(anna_cup, english):
    cup, anna_user, anna = anna_cup
    bert_user, bert = organiser("bert")
    CupAction.objects.all().delete()
    add = reverse("cups_manage:add_organiser", args=[cup.pk])
    remove = reverse("cups_manage:remove_organiser", args=[cup.pk])

    assert "There is no active user “niemand”." in anna.post(add, {"username": "niemand"}, follow=True).content.decode()
    anna.post(add, {"username": " bert "})
    assert set(cup.organisers.all()) == {anna_user, bert_user}
    assert log() == [(Action.ORGANISER_ADDED, "anna", "bert")]
    page = anna.get(reverse("cups_manage:edit", args=[cup.pk])).content.decode()
    assert "bert" in page and "Add the organiser" in page

    # Bert keeps the cup now: he edits it, and takes Anna off.
    assert bert.post(reverse("cups_manage:edit", args=[cup.pk]), cup_data(name="Cup 27", rankings=[(cup.rankings.get().pk, "Damen", False)])).status_code == 302
    bert.post(remove, {"user": str(anna_user.pk)})
    assert list(cup.organisers.all()) == [bert_user]
    assert log()[1:] == [(Action.EDITED, "bert", "Name: Tiroler Cup 2026/27 → Cup 27"), (Action.ORGANISER_REMOVED, "bert", "anna")]
    assert anna.get(reverse("cups_manage:edit", args=[cup.pk])).status_code == 403

    # The last organiser stays.
    refused = bert.post(remove, {"user": str(bert_user.pk)}, follow=True)
    assert "A cup keeps at least one organiser" in refused.content.decode()
    assert list(cup.organisers.all()) == [bert_user] and len(log()) == 3


def test_a_superuser_keeps_every_cup_and_is_logged_as_himself(anna_cup):
    cup, _anna, _client = anna_cup
    admin = User.objects.create_superuser("admin", password="pw-123-geheim")
    client = Client()
    client.force_login(admin)
    CupAction.objects.all().delete()
    response = client.post(reverse("cups_manage:edit", args=[cup.pk]), cup_data(counting="half", rankings=[(cup.rankings.get().pk, "Damen", False)]))
    assert response.status_code == 302
    assert [(a.action, a.user, a.user_name) for a in CupAction.objects.all()] == [(Action.EDITED, admin, "admin")]
    assert client.get(reverse("cups_manage:log", args=[cup.pk])).status_code == 200


def test_the_cups_organisers_read_its_log(anna_cup, english):
    cup, _anna, anna = anna_cup
    page = anna.get(reverse("cups_manage:log", args=[cup.pk]))
    text = page.content.decode()
    assert page.status_code == 200 and "cup created" in text and "sub-ranking added" in text and "anna" in text
    assert reverse("cups_manage:log", args=[cup.pk]) in anna.get(cup.get_absolute_url()).content.decode()


def test_a_tournament_joining_and_leaving_the_cup_is_in_the_cups_log(anna_cup, make_tournament, director, english):
    cup, _anna, _client = anna_cup
    cup.organisers.add(director)  # the tournament's organiser keeps the cup too
    t = make_tournament(players=4, name="Herbstturnier")
    client = Client()
    client.force_login(director)
    CupAction.objects.all().delete()
    data = {"name": t.name, "date": "2026-11-21", "venue": "", "ruleset_edition": "tiroler-tarockcup|2019/20", "rounds": "3",
            "hands_per_round": "16", "draw_mode": "avoid_repeats", "status": "planned", "cup": str(cup.pk)}
    assert client.post(reverse("tournaments_director:edit", args=[t.pk]), data).status_code == 302
    client.post(reverse("tournaments_director:edit", args=[t.pk]), {**data, "venue": "Imst"})  # the cup unchanged: nothing logged
    client.post(reverse("tournaments_director:edit", args=[t.pk]), {**data, "cup": ""})
    assert log() == [
        (Action.TOURNAMENT_JOINED, "leiter", "Herbstturnier (2026-11-21)"),
        (Action.TOURNAMENT_LEFT, "leiter", "Herbstturnier (2026-11-21)"),
    ]
    assert Tournament.objects.get(pk=t.pk).cup is None


def test_only_a_cups_organiser_may_put_a_tournament_in_it(anna_cup):
    cup, anna, _client = anna_cup
    bert = User.objects.create_user("bert", password="pw-123-geheim")
    assert may_put_in_cup(anna, cup) and not may_put_in_cup(bert, cup)
    assert may_put_in_cup(bert, None) and may_put_in_cup(bert, cup, current_cup_id=cup.pk)  # leaving, or staying, is his


def test_the_tournament_form_offers_and_accepts_only_the_cups_its_user_keeps(anna_cup, make_tournament, director, english):
    cup, _anna, _client = anna_cup  # the director organises the tournament, Anna keeps the cup
    cup.organisers.remove(director)
    t = make_tournament(players=4, name="Herbstturnier")
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournaments_director:edit", args=[t.pk])).content.decode()
    assert f'value="{cup.pk}"' not in page
    data = {"name": t.name, "date": "2026-11-21", "venue": "", "ruleset_edition": "tiroler-tarockcup|2019/20", "rounds": "3",
            "hands_per_round": "16", "draw_mode": "avoid_repeats", "status": "planned", "cup": str(cup.pk)}
    response = client.post(reverse("tournaments_director:edit", args=[t.pk]), data)
    assert response.status_code == 200 and Tournament.objects.get(pk=t.pk).cup is None
    assert not CupAction.objects.filter(action=Action.TOURNAMENT_JOINED).exists()
    # Put in the cup by its keeper, the tournament stays in it when its director saves it again.
    Tournament.objects.filter(pk=t.pk).update(cup=cup)
    assert client.post(reverse("tournaments_director:edit", args=[t.pk]), {**data, "venue": "Imst"}).status_code == 302
    assert Tournament.objects.get(pk=t.pk).cup == cup


def test_the_demo_director_keeps_the_demo_cup():
    from scoring.demo import DEMO_USERNAME, build_demo_cup

    cup = build_demo_cup()
    director = User.objects.get(username=DEMO_USERNAME)
    assert list(cup.organisers.all()) == [director]
    client = Client()
    client.force_login(director)
    assert client.get(reverse("cups_manage:edit", args=[cup.pk])).status_code == 200


def test_a_null_character_in_a_user_name_or_an_event_is_refused_by_name_not_a_server_error(anna_cup, english):
    # PostgreSQL cannot hold a null character in text: it must never reach a query.
    cup, anna_user, anna = anna_cup
    bert_user, _bert = organiser("bert")
    CupAction.objects.all().delete()
    added = anna.post(reverse("cups_manage:add_organiser", args=[cup.pk]), {"username": "be\x00rt"}, follow=True)
    assert added.status_code == 200
    assert "No organiser was added. The user name: Character 3 is a null character (U+0000)" in added.content.decode()
    assert list(cup.organisers.all()) == [anna_user] and not CupAction.objects.exists()

    preview = anna.post(reverse("cups_manage:import", args=[cup.pk]), {"file": SimpleUploadedFile("r.csv", RESULTS.encode())})
    anna.post(reverse("cups_manage:import", args=[cup.pk]), {"import": "1", "digest": preview.context["digest"]})
    CupAction.objects.all().delete()
    removed = anna.post(reverse("cups_manage:remove_results", args=[cup.pk]), {"event": "Cup\x00Imst", "date": "2025-10-04"}, follow=True)
    assert removed.status_code == 200
    assert "Nothing was removed. The tournament: Character 4 is a null character (U+0000)" in removed.content.decode()
    assert CupResult.objects.count() == 2 and not CupAction.objects.exists()
