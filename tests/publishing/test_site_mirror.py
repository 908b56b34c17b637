"""A mirror on the public site is read-only: no command changes it (the data version's ``touch``
refuses), nobody holds a role in it (not even a superuser), its director pages refuse every
change; its stable address and its old addresses lead to its current copy."""

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse

from archive.backup import export_tournament
from publishing.models import Mirror, MirrorAlias
from scoring.models import Hand, HandFlag, SheetConfirmation
from tournaments.errors import Refused
from tournaments.models import Round, Table, Tournament, TournamentRole
from tournaments.permissions import Can, Level, has_role, remember_role, role_of
from tournaments.versioning import MirrorReadOnly, touch, touch_players, touch_table

from .test_site_push import key, organiser, push, venue, venue_table  # noqa: F401 (fixtures)


@pytest.fixture
def mirror(client, key, venue):  # noqa: F811
    """The copy of ``venue`` the site keeps after one push."""
    assert push(client, key[1], export_tournament(venue), uid=venue.uid).status_code == 200
    return Mirror.objects.get().tournament


@pytest.fixture
def admin(django_user_model):
    return django_user_model.objects.create_superuser("admin", password="x-123-geheim")


def versions(t):
    return tuple(Tournament.objects.filter(pk=t.pk).values_list("data_version", "layout_version").get())


def test_touch_refuses_a_mirror_and_leaves_its_row_alone(mirror, venue, english):  # noqa: F811
    before = versions(mirror)
    table = venue_table(mirror)
    for change in (lambda: touch(mirror.pk), lambda: touch(mirror.pk, hands_only=True), lambda: touch_table(table.pk)):
        with pytest.raises(MirrorReadOnly) as refused:
            change()
        assert isinstance(refused.value, Refused) and isinstance(refused.value, PermissionDenied)
        assert "read-only" in refused.value.message and mirror.mirrored_from in refused.value.message
    assert versions(mirror) == before
    # Any other tournament, and one that does not exist, as before.
    own = versions(venue)
    touch(venue.pk)
    touch_table(venue_table(venue).pk, hands_only=True)
    assert versions(venue) == (own[0] + 2, own[1] + 1)
    touch(10**9)


def test_a_change_of_the_register_bumps_a_mirror_too(mirror):
    before = versions(mirror)
    touch_players([mirror.registrations.first().player_id])
    assert versions(mirror) == (before[0] + 1, before[1] + 1)


def test_nobody_has_a_role_in_a_mirror(mirror, venue, admin, organiser, django_user_model):  # noqa: F811
    assert role_of(admin, venue.pk) == Level.ORGANISER
    assert role_of(admin, mirror.pk) is None
    assert not has_role(admin, mirror.pk, Level.SCORER)
    can = Can(admin, mirror.pk)
    assert not (can.score or can.direct or can.organise)
    # A role row someone put there (the admin site) gives nothing either.
    scorer = django_user_model.objects.create_user("schreiber", password="x-123-geheim")
    TournamentRole.objects.create(tournament=mirror, user=scorer, level=Level.DIRECTOR)
    assert role_of(scorer, mirror.pk) is None
    remember_role(scorer, mirror.pk, Level.DIRECTOR, mirror=True)
    assert role_of(scorer, mirror.pk) is None
    # The key's organiser owns it only through the mirror.
    assert role_of(organiser, mirror.pk) is None


def test_a_remembered_role_asks_nothing_more(venue, django_user_model, django_assert_num_queries):  # noqa: F811
    scorer = django_user_model.objects.create_user("schreiber", password="x-123-geheim")
    remember_role(scorer, venue.pk, Level.SCORER)
    with django_assert_num_queries(0):
        assert has_role(scorer, venue.pk, Level.SCORER)
        assert Can(scorer, venue.pk).score


def test_a_superusers_changes_to_a_mirror_are_refused(client, mirror, admin):
    client.force_login(admin)
    table = venue_table(mirror)
    hand = Hand.objects.filter(table=table).first()
    before = (versions(mirror), Round.objects.filter(tournament=mirror).count(), Hand.objects.filter(table=table).count(),
              list(Tournament.objects.filter(pk=mirror.pk).values("name", "venue", "rounds")))
    posts = [
        (reverse("tournaments_director:edit", args=[mirror.pk]), {"name": "Umbenannt", "date": "2026-11-21", "rounds": 3}),
        (reverse("tournaments_director:draw", args=[mirror.pk]), {}),
        (reverse("tournaments_director:delete_last_round", args=[mirror.pk]), {}),
        (reverse("tournaments_director:roles", args=[mirror.pk]), {"username": "admin", "level": "director"}),
        (reverse("entry:hand_create", args=[table.pk]), {"line": "R 1 2 +"}),
        (reverse("entry:hand_edit", args=[hand.pk]), {"line": "R 1 2 +"}),
        (reverse("entry:hand_delete", args=[hand.pk]), {"reason": "weg"}),
        (reverse("entry:end_table", args=[table.pk]), {}),
        (reverse("archive:delete", args=[mirror.pk]), {"confirm": mirror.name}),
    ]
    for url, data in posts:
        assert client.post(url, data).status_code == 403, url
    for url in (reverse("tournaments_director:edit", args=[mirror.pk]), reverse("entry:hand_create", args=[table.pk])):
        assert client.get(url).status_code == 403, url
    after = (versions(mirror), Round.objects.filter(tournament=mirror).count(), Hand.objects.filter(table=table).count(),
             list(Tournament.objects.filter(pk=mirror.pk).values("name", "venue", "rounds")))
    assert after == before
    # The public pages show no director's buttons to him.
    answer = client.get(f"/t/{mirror.pk}/")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert reverse("tournaments_director:draw", args=[mirror.pk]) not in page
    assert reverse("tournaments_director:edit", args=[mirror.pk]) not in page


def test_the_private_link_of_a_mirrors_table_changes_nothing(client, mirror):
    table = venue_table(mirror)
    hand = Hand.objects.filter(table=table).first()
    before = versions(mirror)
    url = reverse("scoring:private_sheet", args=[table.token])
    assert client.post(url, {"confirm": "1", "name": "Spieler 01"}).status_code == 403
    assert client.post(url, {"hand": hand.pk, "comment": "falsch"}).status_code == 403
    assert not SheetConfirmation.objects.filter(table=table).exists()
    assert not HandFlag.objects.filter(hand__table=table).exists()
    assert versions(mirror) == before


def test_the_stable_address_leads_to_the_current_copy(client, mirror, venue):  # noqa: F811
    answer = client.get(f"/m/{venue.uid}/")
    assert (answer.status_code, answer["Location"]) == (302, f"/t/{mirror.pk}/")
    answer = client.get(f"/m/{venue.uid}/round/1/?after=1")
    assert answer["Location"] == f"/t/{mirror.pk}/round/1/?after=1"
    assert client.get("/m/00000000-0000-0000-0000-000000000000/").status_code == 404
    assert client.get("/m/not-a-uuid/").status_code == 404


def test_the_alias_middleware_acts_on_a_404_of_an_old_copy_only(client, mirror):
    assert client.get(f"/t/{mirror.pk}/").status_code == 200  # the current copy: no redirect
    assert client.get(f"/t/{mirror.pk}/no-such-page/").status_code == 404  # not an old copy
    assert client.get("/t/999999/").status_code == 404
    MirrorAlias.objects.create(tournament_id=999999, mirror=mirror.mirror)
    answer = client.get("/t/999999/standings/")
    assert (answer.status_code, answer["Location"]) == (302, f"/t/{mirror.pk}/standings/")
    assert client.post("/t/999999/standings/").status_code != 302  # reads only
    api = client.get("/api/v1/tournaments/999999/standings/?lang=de")  # a club's page reading the API
    assert (api.status_code, api["Location"], api["Access-Control-Allow-Origin"]) == (
        302, f"/api/v1/tournaments/{mirror.pk}/standings/?lang=de", "*")
    assert client.get("/table/999999/").status_code == 404  # a table no cache remembers
    # A mirror whose copy is gone leads nowhere.
    Mirror.objects.filter(pk=mirror.mirror.pk).update(tournament=None)
    assert client.get("/t/999999/standings/").status_code == 404


def test_a_mirrors_pages_cost_the_usual_queries_for_a_visitor(client, mirror):
    """The read-only checks add nothing to an anonymous visitor's pages: no role is asked."""
    assert Table.objects.filter(round__tournament=mirror).exists()
    for url in (f"/t/{mirror.pk}/", f"/t/{mirror.pk}/standings/"):
        assert client.get(url).status_code == 200


def test_every_page_of_a_mirror_says_where_it_is_run_from_and_when_it_was_updated(client, mirror, english):
    note = f"A read-only copy, published from {mirror.mirrored_from}"
    for url in (f"/t/{mirror.pk}/", f"/t/{mirror.pk}/standings/", f"/t/{mirror.pk}/round/1/"):
        page = client.get(url).content.decode()
        assert note in page and f"version {mirror.mirror.version}" in page, url


def test_the_api_names_a_mirror_by_the_venues_identifier_in_every_version(client, key, venue):  # noqa: F811
    """A club follows a mirror through the API by the venue's identifier: each version is a new
    copy with an identifier of its own, but the API shows the venue's, the same every time."""
    from archive.backup import export_tournament
    from tournaments.versioning import touch

    def listed():
        return [t["uid"] for t in client.get("/api/v1/tournaments/").json()["results"] if t["mirrored_from"]]

    assert push(client, key[1], export_tournament(venue), uid=venue.uid).status_code == 200
    assert listed() == [str(venue.uid)]
    touch(venue.pk)
    venue.refresh_from_db()
    assert push(client, key[1], export_tournament(venue), uid=venue.uid).json()["status"] == "stored"
    assert listed() == [str(venue.uid)]
    copy = Mirror.objects.get().tournament
    assert client.get(f"/api/v1/tournaments/{copy.pk}/").json()["uid"] == str(venue.uid)


@pytest.mark.parametrize("page", ["tournaments:detail", "scoring:standings"])
def test_a_mirrors_page_reads_its_note_with_the_tournament(client, mirror, page, english):
    """The most read pages of a mirror, rendered again with every version, read the note's
    version and time in the same query as the tournament, not in one of their own."""
    from django.core.cache import cache
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    cache.clear()
    with CaptureQueriesContext(connection) as queries:
        answer = client.get(reverse(page, args=[mirror.pk]))
    note = Mirror.objects.get(tournament=mirror)
    assert answer.status_code == 200
    assert f"version {note.version}" in answer.content.decode() and mirror.mirrored_from in answer.content.decode()
    assert not [q["sql"] for q in queries.captured_queries if q["sql"].startswith('SELECT "publishing_mirror"')]
