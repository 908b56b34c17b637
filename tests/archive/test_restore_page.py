"""Restoring a tournament from its archive on the organiser's page: only for users who may create
tournaments; a refused file names its reason and writes nothing; a good one shows what it holds
and is restored once, by one more click, with the roles that could not come back listed."""

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils.html import escape

from archive import backup
from archive import views as views_restore
from scoring.services import save_hand
from tournaments import services
from tournaments.models import Tournament, TournamentRole
from tournaments.roles import organisers_group

URL = reverse("archive:restore")
HAND = {"dealer": 0, "contract": "rufer", "declarer": 1, "partner": 3, "won": True}


@pytest.fixture
def data_dir(settings, tmp_path):
    settings.DATA_DIR = tmp_path / "data"
    return settings.DATA_DIR


@pytest.fixture
def organiser(db):
    """A user of the "Organisers" group with no role in any tournament."""
    user = get_user_model().objects.create_user("obfrau", password="geheim-123")
    user.groups.add(organisers_group())
    return user


@pytest.fixture
def organiser_client(client, organiser, english):
    """The organiser, logged in, reading the pages in English (the texts asserted below)."""
    client.force_login(organiser)
    return client


@pytest.fixture
def archive(make_tournament):
    """The archive of a Tirol tournament of 4 players, one round, one hand, whose director
    ("gast") is not a user of the site it is restored into."""
    t = make_tournament(name="Herbstturnier", players=4)
    table = services.draw_next_round(t, seed=7).tables.get()
    guest = get_user_model().objects.create_user("gast", password="geheim-123")
    TournamentRole.objects.create(tournament=t, user=guest, level=TournamentRole.Level.DIRECTOR)
    save_hand(table, HAND, guest)
    content = backup.export_tournament(t)
    guest.delete()
    return content


def upload(client, content, name="herbst.tarock.json.gz"):
    return client.post(URL, {"file": SimpleUploadedFile(name, content, content_type="application/gzip")})


def confirm_fields(response):
    return {"restore": "1", "upload": response.context["upload"], "digest": response.context["digest"]}


def pending_files(data_dir):
    folder = data_dir / "restore"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


@pytest.mark.django_db
def test_anonymous_users_go_to_the_login_and_users_without_the_right_get_403(client, data_dir, archive):
    assert client.get(URL).status_code == 302 and "/login" in client.get(URL)["Location"]
    assert upload(client, archive).status_code == 302
    someone = get_user_model().objects.create_user("spieler", password="geheim-123")
    client.force_login(someone)
    assert client.get(URL).status_code == 403
    assert upload(client, archive).status_code == 403
    assert Tournament.objects.count() == 1 and pending_files(data_dir) == []


@pytest.mark.django_db
def test_the_tournament_list_links_the_page_for_organisers_only(client, organiser_client):
    assert URL in organiser_client.get(reverse("tournaments:list")).content.decode()
    client.logout()
    assert URL not in client.get(reverse("tournaments:list")).content.decode()


@pytest.mark.django_db
def test_a_damaged_archive_is_refused_with_its_reason_and_nothing_is_written(organiser_client, data_dir, archive):
    response = upload(organiser_client, archive[: len(archive) // 2])
    assert response.status_code == 422
    page = response.content.decode()
    assert "cannot be restored" in page
    with pytest.raises(backup.BackupRefused) as refused:
        backup.summarize(archive[: len(archive) // 2])
    assert escape(str(refused.value.message)) in page  # the reason, as the backup module words it
    assert "name=\"restore\"" not in page  # nothing to confirm
    assert Tournament.objects.count() == 1 and pending_files(data_dir) == []


@pytest.mark.django_db
def test_a_file_over_the_limit_is_refused_before_it_is_read(organiser_client, data_dir, archive, monkeypatch):
    monkeypatch.setattr(views_restore, "MAX_UPLOAD_BYTES", 1000)
    monkeypatch.setattr(backup, "summarize", lambda content: pytest.fail("an oversized upload was read"))
    response = upload(organiser_client, archive + b"\0" * 1000)
    assert response.status_code == 422
    [error] = response.context["form"].errors["file"]
    assert escape(error) in response.content.decode()
    assert pending_files(data_dir) == []


@pytest.mark.django_db
def test_a_good_archive_shows_what_it_holds_and_is_restored_once(organiser_client, organiser, data_dir, archive):
    before = set(Tournament.objects.values_list("pk", flat=True))
    shown = upload(organiser_client, archive)
    assert shown.status_code == 200
    page = shown.content.decode()
    summary = shown.context["summary"]
    assert summary.name == "Herbstturnier" and summary.players == 4 and summary.rounds == 1 and summary.hands == 1
    assert summary.ruleset_label == "Tiroler Tarockcup 2019/20" and summary.planned_rounds == 3
    for text in ("Herbstturnier", summary.ruleset_label, "1 of 3 drawn", "name=\"restore\""):
        assert text in page
    assert Tournament.objects.count() == len(before)  # nothing restored by looking

    fields = confirm_fields(shown)
    first = organiser_client.post(URL, fields)
    [new] = Tournament.objects.exclude(pk__in=before)
    assert first.status_code == 302 and first["Location"] == new.get_absolute_url()
    assert new.name == "Herbstturnier" and new.round_set.get().tables.get().hands.count() == 1
    assert TournamentRole.objects.get(tournament=new, user=organiser).level == TournamentRole.Level.ORGANISER
    assert pending_files(data_dir) == []

    again = organiser_client.post(URL, fields)  # a double click, a reload, the same form in another tab
    assert again.status_code == 302 and again["Location"] == new.get_absolute_url()
    assert Tournament.objects.exclude(pk__in=before).count() == 1
    followed = organiser_client.get(again["Location"])
    assert "restored already" in " ".join(str(m) for m in followed.context["messages"])


@pytest.mark.django_db
def test_two_confirmations_racing_restore_once(organiser_client, data_dir, archive):
    shown = upload(organiser_client, archive)
    fields = confirm_fields(shown)
    pending = organiser_client.session[views_restore.SESSION_PENDING]
    count = Tournament.objects.count()
    assert organiser_client.post(URL, fields).status_code == 302
    # The second click read the session before the first one saved it: its upload is still listed.
    session = organiser_client.session
    session[views_restore.SESSION_PENDING] = pending
    session.pop(views_restore.SESSION_DONE, None)
    session.save()
    second = organiser_client.post(URL, fields, follow=True)
    assert Tournament.objects.count() == count + 1
    assert "Nothing was restored" in second.content.decode()


@pytest.mark.django_db
def test_another_users_confirmation_restores_nothing(organiser_client, client, data_dir, archive):
    fields = confirm_fields(upload(organiser_client, archive))
    other = get_user_model().objects.create_user("zweiter", password="geheim-123")
    other.groups.add(organisers_group())
    from django.test import Client

    stranger = Client()
    stranger.force_login(other)
    count = Tournament.objects.count()
    assert stranger.post(URL, fields).status_code == 302
    assert Tournament.objects.count() == count
    assert organiser_client.post(URL, fields).status_code == 302  # still there for its uploader
    assert Tournament.objects.count() == count + 1


@pytest.mark.django_db
def test_roles_that_could_not_be_restored_are_listed(organiser_client, data_dir, archive):
    shown = upload(organiser_client, archive)
    assert "gast" in shown.content.decode()  # said before restoring, too
    restored = organiser_client.post(URL, confirm_fields(shown), follow=True)
    said = [str(m) for m in restored.context["messages"]]
    assert any("could not be restored" in m and "gast" in m for m in said)
    assert any("by name only" in m and "gast" in m for m in said)
    page = restored.content.decode()
    assert "gast" in page


@pytest.mark.django_db
def test_a_full_disk_keeps_no_half_upload_and_says_so(organiser_client, data_dir, archive, monkeypatch):
    import errno
    import os

    from tournaments import atomic

    def disk_full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic.os, "fsync", disk_full)
    response = upload(organiser_client, archive)
    assert response.status_code == 507
    assert "could not keep the upload" in response.content.decode() and 'name="restore"' not in response.content.decode()
    assert pending_files(data_dir) == []  # not even a temporary file


@pytest.mark.django_db
def test_roles_given_to_this_sites_users_of_the_same_name_are_shown_before_and_after(organiser_client, data_dir, archive):
    anna = get_user_model().objects.create_user("gast", password="geheim-123")  # someone else here, named alike
    shown = upload(organiser_client, archive)
    summary = shown.context["summary"]
    assert summary.granted_roles == (("gast", "director"),) and summary.skipped_roles == ()
    assert summary.matched_users == ("gast",)
    page = shown.content.decode()
    before = page.index('name="restore"')
    assert 0 <= page.index("Roles that will be given to the users of this site") < before
    assert page.index("gast (director)") < before

    restored = organiser_client.post(URL, confirm_fields(shown), follow=True)
    said = [str(m) for m in restored.context["messages"]]
    assert any("were given to the users of this site" in m and "gast (director)" in m for m in said)
    new = Tournament.objects.order_by("-pk").first()
    assert TournamentRole.objects.get(tournament=new, user=anna).level == TournamentRole.Level.DIRECTOR


@pytest.mark.django_db
def test_one_organisers_many_uploads_never_evict_anothers(organiser_client, organiser, data_dir, archive, english):
    from django.test import Client

    other = get_user_model().objects.create_user("zweiter", password="geheim-123")
    other.groups.add(organisers_group())
    second = Client()
    second.force_login(other)
    waiting = confirm_fields(upload(second, archive))

    another_session = Client()  # the same organiser in a second browser counts as the same one
    another_session.force_login(organiser)
    for client in [organiser_client] * 20 + [another_session] * 5:
        assert upload(client, archive).status_code == 200
    mine = [n for n in pending_files(data_dir) if n.startswith(f"u{organiser.pk}-")]
    assert len(mine) == views_restore.PENDING_PER_USER
    assert len(pending_files(data_dir)) == views_restore.PENDING_PER_USER + 1

    count = Tournament.objects.count()
    assert second.post(URL, waiting).status_code == 302
    assert Tournament.objects.count() == count + 1  # the other organiser's upload was still there


@pytest.mark.django_db
def test_uploads_nobody_confirmed_are_swept_by_age(organiser_client, data_dir, archive, english):
    import os
    import time

    old = confirm_fields(upload(organiser_client, archive))
    [name] = pending_files(data_dir)
    hours_ago = time.time() - (views_restore.PENDING_HOURS + 1) * 3600
    os.utime(data_dir / "restore" / name, (hours_ago, hours_ago))
    (data_dir / "restore" / "u999-left-by-a-killed-request.tarock.json.gz.claimed-0a1b").write_bytes(b"x")
    os.utime(data_dir / "restore" / "u999-left-by-a-killed-request.tarock.json.gz.claimed-0a1b", (hours_ago, hours_ago))

    fresh = upload(organiser_client, archive)  # any upload sweeps the folder
    assert pending_files(data_dir) == [f"u{fresh.wsgi_request.user.pk}-{fresh.context['upload']}.tarock.json.gz"]
    expired = organiser_client.post(URL, old, follow=True)
    assert "has expired" in expired.content.decode()
