"""Rights come from a role in the tournament (organiser, director, scorer), never from
``is_staff``; every director URL refuses everyone else and changes nothing; roles are given by
the organiser; the demo never touches an existing user."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import URLPattern, get_resolver, reverse

from scoring.exporters.base import Audience, get_exporter
from scoring.models import Hand, HandFlag
from scoring.services import save_hand
from tournaments import services
from tournaments.models import ActionLog, Player, Registration, Round, Seat, Tournament, TournamentRole
from tournaments.permissions import Level, SitePermissionRequiredMixin
from tournaments.roles import organisers_group

HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}
User = get_user_model()


def user(name, role=None, tournament=None, **flags):
    u = User.objects.create_user(name, password="pw-123-geheim", **flags)
    if role:
        TournamentRole.objects.create(tournament=tournament, user=u, level=role)
    return u


def client_for(u):
    c = Client()
    if u is not None:
        c.force_login(u)
    return c


def snapshot():
    """Everything a director's command could change."""
    return {
        "tournaments": list(Tournament.objects.order_by("pk").values_list("pk", "name", "data_version", "layout_version", "rounds")),
        "registrations": list(Registration.objects.order_by("pk").values_list("pk", "start_number", "withdrawn", "lot", "player_id")),
        "rounds": list(Round.objects.order_by("pk").values_list("pk", "number", "seed", "verified_at")),
        "seats": list(Seat.objects.order_by("pk").values_list("pk", "registration_id", "substitute_id", "left_after", "table__ended_after")),
        "hands": list(Hand.objects.order_by("pk").values_list("pk", "number", "record", "scores", "version")),
        "flags": list(HandFlag.objects.order_by("pk").values_list("pk", "resolved")),
        "players": list(Player.objects.order_by("pk").values_list("pk", "name", "club")),
        "roles": list(TournamentRole.objects.order_by("pk").values_list("pk", "user_id", "level")),
        "log": ActionLog.objects.count(),
    }


def director_urls(objects):
    """Every URL of the director namespaces, filled in from the view's own idea of which object
    its arguments name (``tournament_from``)."""
    resolver = get_resolver()
    found = []
    for namespace in ("tournaments_director", "entry", "exports_director", "live_director", "prizes_director", "archive"):
        _prefix, sub = resolver.namespace_dict[namespace]
        for pattern in sub.url_patterns:
            assert isinstance(pattern, URLPattern)
            view = pattern.callback.view_class
            args = {}
            for name in pattern.pattern.converters:
                if name == "number":
                    args[name] = 1
                elif name == "reg":
                    args[name] = objects["registration"].pk
                elif name == "table_pk":
                    args[name] = objects["table"].pk
                elif issubclass(view, SitePermissionRequiredMixin):
                    args[name] = objects["player"].pk
                else:
                    kind = getattr(view, "tournament_from", ("tournament", "pk"))[0]
                    args[name] = objects[kind].pk
            identifier = pattern.default_args.get("identifier")
            if identifier and get_exporter(identifier).audience == Audience.PUBLIC:
                continue  # an old address of a download that is public now
            found.append((f"{namespace}:{pattern.name}", reverse(f"{namespace}:{pattern.name}", kwargs=args), view))
    return found


POSTED = {
    "quick": "r 1 3 +", "number": "2", "outcome": "played", "dealer": "0", "source": "line", "reason": "weil",
    "rows": "1 -1 0 0", "seat": "", "withdrawn": "1", "name": "Neu", "club": "X", "seed": "5", "username": "x",
    "level": "director", "role": "1", "keep": "1", "merge": "2", "player": "1", "names": "Neuer Spieler",
}


@pytest.fixture
def day(make_tournament):
    """A tournament with round 1 drawn, a hand and a flag; a second tournament beside it."""
    t = make_tournament(players=4, name="Unser Turnier")
    rnd = services.draw_next_round(t, seed=7)
    table = rnd.tables.get()
    hand = save_hand(table, HAND)
    flag = HandFlag.objects.create(hand=hand, comment="Partner?")
    other = make_tournament(players=4, name="Das andere Turnier")
    return {
        "tournament": t, "round": rnd, "table": table, "hand": hand, "flag": flag, "other": other,
        "registration": t.registrations.first(), "player": t.registrations.first().player,
    }


@pytest.mark.django_db
def test_every_director_url_refuses_everyone_without_the_role_and_changes_nothing(day):
    t = day["tournament"]
    outsiders = {
        "anonymous": None,
        "staff without a role": user("staff", is_staff=True),
        "director of another tournament": user("fremd", Level.DIRECTOR, day["other"]),
        "scorer": user("schreiber", Level.SCORER, t),
    }
    urls = director_urls(day)
    assert len(urls) >= 30  # the resolver found them all, not an empty list
    for who, u in outsiders.items():
        c = client_for(u)
        for name, url, view in urls:
            if who == "scorer" and getattr(view, "required_role", None) == Level.SCORER:
                continue  # his own work: entering hands (tested below)
            before = snapshot()
            for method in ("get", "post"):
                response = getattr(c, method)(url, POSTED)
                if u is None:
                    assert response.status_code == 302 and "/accounts/login/" in response["Location"], (who, name, method)
                else:
                    assert response.status_code in (403, 405), (who, name, method, response.status_code)
            assert snapshot() == before, (who, name)


@pytest.mark.django_db
def test_a_scorer_enters_and_edits_hands_but_cannot_delete_verify_or_draw(day):
    t, table, hand = day["tournament"], day["table"], day["hand"]
    scorer = client_for(user("schreiber", Level.SCORER, t))
    sheet = scorer.get(reverse("scoring:sheet", args=[table.pk])).content.decode()
    assert 'name="quick"' in sheet  # the entry form is his
    assert reverse("entry:end_table", args=[table.pk]) not in sheet  # the table's commands are not
    posted = {"outcome": "played", "dealer": "1", "number": "2", "contract": "dreier", "declarer": "2", "won": "0"}
    response = scorer.post(reverse("entry:hand_create", args=[table.pk]), posted)
    assert response.status_code == 302, response.content.decode()[-3000:]
    assert table.hands.count() == 2
    assert scorer.post(reverse("entry:hand_delete", args=[hand.pk]), {"reason": "x"}).status_code == 403
    assert scorer.post(reverse("entry:verify_round", args=[day["round"].pk])).status_code == 403
    assert scorer.post(reverse("tournaments_director:draw", args=[t.pk]), {"number": "2"}).status_code == 403
    assert table.hands.count() == 2 and Round.objects.filter(tournament=t).count() == 1


@pytest.mark.django_db
def test_is_staff_grants_nothing_and_a_superuser_is_every_organiser(day):
    t = day["tournament"]
    staff = client_for(user("staff", is_staff=True))
    assert staff.get(reverse("tournaments_director:registrations", args=[t.pk])).status_code == 403
    assert staff.get(reverse("tournaments_director:create")).status_code == 403  # no "Organisers" group
    admin = client_for(user("admin", is_staff=True, is_superuser=True))
    assert admin.get(reverse("tournaments_director:roles", args=[t.pk])).status_code == 200


@pytest.mark.django_db
def test_the_creator_is_organiser_and_gives_roles(make_tournament, english):
    creator = user("veranstalter")
    creator.groups.add(organisers_group())
    c = client_for(creator)
    response = c.post(
        reverse("tournaments_director:create"),
        {"name": "Kirchtagsturnier", "date": "2026-12-05", "venue": "Imst", "ruleset_edition": "tiroler-tarockcup|2019/20",
         "rounds": "3", "hands_per_round": "16", "draw_mode": "avoid_repeats", "status": "planned"},
    )
    t = Tournament.objects.get(name="Kirchtagsturnier")
    assert response.status_code == 302, response.content.decode()[:2000]
    assert TournamentRole.objects.get(tournament=t, user=creator).level == Level.ORGANISER
    helper = user("helfer")
    roles_url = reverse("tournaments_director:roles", args=[t.pk])
    assert c.post(roles_url, {"username": "helfer", "level": "director"}).status_code == 302
    assert TournamentRole.objects.get(tournament=t, user=helper).level == Level.DIRECTOR
    refused = c.post(roles_url, {"username": "niemand", "level": "scorer"})
    assert refused.status_code == 422 and "niemand" in refused.content.decode()  # named, nothing given
    assert not User.objects.filter(username="niemand").exists()  # created only when asked (test_sign_in_link_service.py)
    # The director runs the day but does not give roles.
    assert client_for(helper).get(roles_url).status_code == 403
    assert client_for(helper).get(reverse("tournaments_director:registrations", args=[t.pk])).status_code == 200
    # The last organiser stays.
    own = TournamentRole.objects.get(tournament=t, user=creator)
    c.post(reverse("tournaments_director:remove_role", args=[t.pk]), {"role": str(own.pk)})
    assert TournamentRole.objects.filter(tournament=t, level=Level.ORGANISER).count() == 1
    logged = list(t.actions.values_list("action", "user__username", "detail"))
    assert ("created", "veranstalter", "") in logged
    assert ("role_given", "veranstalter", "Role given: helfer as director") in logged


@pytest.mark.django_db
def test_the_action_log_shows_who_did_what(director_client, director, day):
    t, table = day["tournament"], day["table"]
    reg = day["registration"]
    director_client.post(reverse("tournaments_director:withdraw", args=[t.pk, reg.pk]), {"withdrawn": "1"})
    director_client.post(reverse("tournaments_director:withdraw", args=[t.pk, reg.pk]), {"withdrawn": "1"})  # a double click
    director_client.post(reverse("entry:resolve_flag", args=[day["flag"].pk]))
    director_client.post(reverse("entry:end_table", args=[table.pk]))
    entries = list(t.actions.exclude(action="drawn").values_list("action", "user__username"))
    assert entries == [("withdrawn", "leiter"), ("flag_resolved", "leiter"), ("table_ended", "leiter")]
    page = director_client.get(reverse("tournaments_director:action_log", args=[t.pk]) + "?action=withdrawn")
    text = page.content.decode()
    assert page.status_code == 200 and reg.player.name in text and "Partner?" not in text
    scorer = client_for(user("schreiber", Level.SCORER, t))
    assert scorer.get(reverse("tournaments_director:action_log", args=[t.pk])).status_code == 403


@pytest.mark.django_db
def test_the_action_log_keeps_the_name_of_a_user_gone_and_filters_by_it(director_client, director, day):
    t, reg = day["tournament"], day["registration"]
    helper = client_for(user("helfer", Level.DIRECTOR, t))
    helper.post(reverse("tournaments_director:withdraw", args=[t.pk, reg.pk]), {"withdrawn": "1"})
    User.objects.filter(username="helfer").delete()
    url = reverse("tournaments_director:action_log", args=[t.pk])
    page = director_client.get(url + "?user=helfer").content.decode()
    assert "<td>helfer</td>" in page and "<option selected>helfer</option>" in page
    # A name nobody in the log has (a NUL included, which PostgreSQL cannot even compare) filters nothing.
    for junk in ("niemand", "hel\x00fer"):
        response = director_client.get(url, {"user": junk})
        assert response.status_code == 200 and "<td>helfer</td>" in response.content.decode()


@pytest.mark.django_db
def test_build_demo_leaves_an_existing_user_alone(settings):
    settings.DEBUG = True
    someone = User.objects.create_user("director", password="mein-eigenes-passwort", email="a@b.at")
    call_command("build_demo", verbosity=0)
    someone.refresh_from_db()
    assert someone.check_password("mein-eigenes-passwort")
    assert not someone.is_superuser and not someone.is_staff and someone.email == "a@b.at"


@pytest.mark.django_db
def test_build_demo_refuses_a_production_site_unless_forced(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="--force"):
        call_command("build_demo", verbosity=0)
    assert not Tournament.objects.exists() and not User.objects.exists()


@pytest.mark.django_db
def test_the_roles_form_offers_the_scorer_first(director_client, make_tournament):
    """Giving a role without looking at the select gives the least one, never an organiser's."""
    t = make_tournament()
    page = director_client.get(reverse("tournaments_director:roles", args=[t.pk])).content.decode()
    assert re.search(r'<option value="scorer"[^>]*selected', page)
    assert not re.search(r'<option value="organiser"[^>]*selected', page)
