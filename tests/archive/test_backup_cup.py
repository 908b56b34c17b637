"""A restored tournament joins the archive's cup only where whoever restores it keeps that cup and
the cup ranks its ruleset: an organiser cannot push results into another's cup by restoring (or
editing) an archive. Otherwise it is restored without a cup, and the summary, the restore, the
restore page and the command say why; joining is written in the cup's log."""

import gzip
import hashlib
import json

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from archive import backup
from archive.backup import export_tournament, restore, summarize
from scoring.cups.models import Cup, CupAction
from tournaments.roles import organisers_group

URL = reverse("archive:restore")


@pytest.fixture
def keeper(db):
    """The organiser who keeps the cup "Tiroler Cup 2026"."""
    user = get_user_model().objects.create_user("cupchef", password="geheim-123")
    user.groups.add(organisers_group())
    return user


@pytest.fixture
def other(db):
    """An organiser of the site who keeps no cup."""
    user = get_user_model().objects.create_user("fremd", password="geheim-123")
    user.groups.add(organisers_group())
    return user


@pytest.fixture
def cup(keeper):
    cup = Cup.objects.create(name="Tiroler Cup 2026", ruleset="tiroler-tarockcup", method="tirol")
    cup.organisers.add(keeper)
    return cup


@pytest.fixture
def archive(make_tournament, cup):
    """The archive of a Tirol tournament of the cup."""
    return export_tournament(make_tournament(name="Cupturnier", players=4, cup=cup))


def joined(cup):
    return list(CupAction.objects.filter(cup=cup, action=CupAction.Action.TOURNAMENT_JOINED).values_list("user_name", "detail"))


def naming_cup(content: bytes, name: str) -> bytes:
    """``content`` edited to name the cup ``name``, its checksum recomputed as anyone can."""
    envelope = json.loads(gzip.decompress(content))
    envelope["data"]["cup"] = name
    envelope["sha256"] = hashlib.sha256(backup._canonical(envelope["data"])).hexdigest()
    return gzip.compress(backup._canonical(envelope))


@pytest.mark.django_db
def test_an_organiser_who_does_not_keep_the_cup_restores_without_it(archive, cup, other, english):
    before = joined(cup)
    summary = summarize(archive, user=other)
    assert summary.cup == "" and "Only the organisers of the cup “Tiroler Cup 2026”" in summary.cup_dropped
    restored = restore(archive, user=other)
    assert restored.tournament.cup is None and restored.summary.cup == ""
    assert restored.summary.cup_dropped == summary.cup_dropped
    assert joined(cup) == before  # nothing in the cup's log, nothing in its table
    assert summary.cup_dropped in restored.tournament.actions.get(action="created").detail


@pytest.mark.django_db
def test_an_edited_archive_cannot_push_a_tournament_into_a_cup(make_tournament, cup, other):
    content = naming_cup(export_tournament(make_tournament(name="Eingeschmuggelt", players=4)), cup.name)
    restored = restore(content, user=other)
    assert restored.tournament.cup is None and restored.summary.cup_dropped
    assert not cup.tournaments.filter(name="Eingeschmuggelt").exists()


@pytest.mark.django_db
def test_the_cups_organiser_restores_into_it_and_the_cups_log_says_so(archive, cup, keeper):
    summary = summarize(archive, user=keeper)
    assert (summary.cup, summary.cup_dropped) == (cup.name, None)
    restored = restore(archive, user=keeper)
    assert restored.tournament.cup == cup and (restored.summary.cup, restored.summary.cup_dropped) == (cup.name, None)
    assert joined(cup)[-1] == ("cupchef", "Cupturnier (2026-11-21)")


@pytest.mark.django_db
def test_the_sites_operator_restores_into_it_from_the_shell(archive, cup, tmp_path, capsys, english):
    path = tmp_path / "cup.tarock.json.gz"
    path.write_bytes(archive)
    count = len(joined(cup))
    call_command("import_tournament", str(path))
    assert "It is in the cup Tiroler Cup 2026." in capsys.readouterr().out
    assert cup.tournaments.filter(name="Cupturnier").count() == 2
    assert len(joined(cup)) == count + 1 and joined(cup)[-1][0] == ""  # a command: nobody by name


@pytest.mark.django_db
def test_a_cup_of_another_ruleset_is_never_joined(archive, cup, keeper, tmp_path, capsys, english):
    Cup.objects.filter(pk=cup.pk).update(ruleset="cego-ichenheim")
    for user in (keeper, None):
        restored = restore(archive, user=user)
        assert restored.tournament.cup is None and "ranks another ruleset" in restored.summary.cup_dropped
    path = tmp_path / "cup.tarock.json.gz"
    path.write_bytes(archive)
    call_command("import_tournament", str(path))
    assert "ranks another ruleset" in capsys.readouterr().out
    assert joined(cup) == []


@pytest.mark.django_db
def test_a_cup_this_site_does_not_have_is_named_as_missing(archive, cup, english):
    Cup.objects.filter(pk=cup.pk).update(name="Tiroler Cup 2027")
    restored = restore(archive)
    assert restored.tournament.cup is None
    assert restored.summary.cup_dropped == "The archive's cup “Tiroler Cup 2026” is not on this site: the tournament is restored without a cup."


@pytest.mark.django_db
def test_the_restore_page_says_which_cup_it_joins_or_why_not(archive, cup, keeper, other, client, settings, tmp_path, english):
    settings.DATA_DIR = tmp_path
    client.force_login(other)
    shown = client.post(URL, {"file": SimpleUploadedFile("cup.tarock.json.gz", archive, content_type="application/gzip")})
    assert "Only the organisers of the cup “Tiroler Cup 2026”" in shown.content.decode()
    fields = {"restore": "1", "upload": shown.context["upload"], "digest": shown.context["digest"]}
    done = client.post(URL, fields, follow=True)
    assert any("restored without a cup" in str(m) for m in done.context["messages"])
    assert cup.tournaments.count() == 1  # only the original

    client.force_login(keeper)
    shown = client.post(URL, {"file": SimpleUploadedFile("cup.tarock.json.gz", archive, content_type="application/gzip")})
    assert "It joins the cup Tiroler Cup 2026." in shown.content.decode()
    fields = {"restore": "1", "upload": shown.context["upload"], "digest": shown.context["digest"]}
    done = client.post(URL, fields, follow=True)
    assert any("It is in the cup Tiroler Cup 2026." in str(m) for m in done.context["messages"])
    assert cup.tournaments.count() == 2 and joined(cup)[-1][0] == "cupchef"
