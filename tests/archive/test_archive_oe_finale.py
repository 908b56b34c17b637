"""An Ö-Finale's settings come back with its tournament: the archive carries its Finalpunkte table,
its option (sum the Vorrundenpunkte) and its qualifying cups by name
(``../shared/rules/koenigrufen-raiffeisen.md`` §6.9). A restore links the cups of this site of
those names, whoever restores it (the finale only reads their tables), and leaves out a cup this
site lacks, saying so in the summary, the restore's log entry and the restore page's messages. An
edited archive whose Finalpunkte table the settings form would refuse is refused, naming the
Ö-Finale and the rank, with nothing written. An archive written before the Ö-Finale existed (no
``oe_finale``) restores as before."""

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse

from archive import backup
from archive.backup import BackupRefused, check_archive, export_tournament, restore, summarize
from scoring.cups.models import Cup
from scoring.finale.forms import OeFinaleForm
from scoring.finale.models import OeFinale
from scoring.finale.services import finale_of, qualifiers
from tournaments.models import Player, Registration, Tournament
from tournaments.roles import organisers_group

HERE = Path(__file__).resolve().parent
# The organiser's table as he types it in the settings form: rank 1 gets 60 (ÖFM18), never more
# than the rank above, none negative.
TYPED = "60 57 55 53 51\n50 49 48 47 46"
TABLE = [60, 57, 55, 53, 51, 50, 49, 48, 47, 46]
TIROL, WIEN = "Tiroler Tarockcup 2026/27", "Wiener Tarockcup 2026/27"


@pytest.fixture
def cups(db):
    return (
        Cup.objects.create(name=TIROL, ruleset="tiroler-tarockcup", method="wtc_fixpunkte", oe_finale_table="40"),
        Cup.objects.create(name=WIEN, ruleset="wiener-tarockcup", method="wtc_fixpunkte", oe_finale_table="60"),
    )


@pytest.fixture
def final(make_tournament, cups):
    """A Raiffeisen Tarockcup day of 8 players made an Ö-Finale through its settings form: both
    cups, the Finalpunkte table :data:`TABLE`, the Vorrundenpunkte summed."""
    t = make_tournament(players=8, rounds=3, name="Ö-Finale 2027", ruleset="raiffeisen-tarockcup", edition="2023")
    form = OeFinaleForm(
        data={"cups": [c.pk for c in cups], "finalpunkte_text": TYPED, "sum_vorrundenpunkte": "on"},
        instance=OeFinale(tournament=t),
    )
    assert form.is_valid(), form.errors
    form.save()
    return t


@pytest.fixture
def content(final):
    return export_tournament(final)


@pytest.fixture
def stranger(db):
    """An organiser of the site who keeps no cup."""
    user = get_user_model().objects.create_user("fremd", password="geheim-123")
    user.groups.add(organisers_group())
    return user


def unpack(archive: bytes) -> dict:
    return json.loads(gzip.decompress(archive))


def edited(archive: bytes, change) -> bytes:
    """``archive`` with ``change`` applied to its data, its checksum recomputed as anyone can."""
    envelope = unpack(archive)
    change(envelope["data"])
    envelope["sha256"] = hashlib.sha256(backup._canonical(envelope["data"])).hexdigest()
    return gzip.compress(backup._canonical(envelope))


def settings_of(tournament) -> tuple:
    """``(Finalpunkte, summed, cup names)`` of the tournament's Ö-Finale, read from the database."""
    finale = OeFinale.objects.get(tournament=tournament)
    return finale.finalpunkte, finale.sum_vorrundenpunkte, sorted(finale.cups.values_list("name", flat=True))


def counts() -> list[int]:
    return [m.objects.count() for m in (Tournament, Player, Registration, OeFinale, OeFinale.cups.through, Cup)]


@pytest.mark.django_db
def test_the_archive_carries_the_row_and_the_cups_by_name(content):
    data = unpack(content)["data"]
    assert [(r["finalpunkte"], r["sum_vorrundenpunkte"]) for r in data["oe_finale"]] == [(TABLE, True)]
    assert data["oe_finale_cups"] == [TIROL, WIEN]
    assert unpack(content)["version"] == 1  # added as the prizes were: older programs read it


@pytest.mark.django_db
def test_restored_beside_the_original_it_keeps_the_table_the_option_and_the_cups(final, content, cups, english):
    summary = summarize(content)
    assert (summary.oe_finale, summary.oe_finale_cups, summary.oe_finale_dropped) == (True, (TIROL, WIEN), ())
    restored = restore(content)
    copy = restored.tournament
    assert copy.pk != final.pk
    assert settings_of(copy) == (TABLE, True, [TIROL, WIEN])
    assert set(copy.oe_finale.cups.all()) == set(cups)  # this site's cups, not copies of them
    assert settings_of(final) == (TABLE, True, [TIROL, WIEN])  # the original keeps its own
    assert restored.summary == summary
    # The restored finale is one to the services: its qualifying cups are the original's.
    assert [c.cup.name for c in qualifiers(finale_of(copy)).cups] == [TIROL, WIEN]


@pytest.mark.django_db
def test_restored_into_an_emptied_database_it_links_the_cups_of_those_names(final, cups, tmp_path, capsys, english):
    path = tmp_path / "finale.tarock.json.gz"
    call_command("export_tournament", str(final.pk), "--output", str(path), verbosity=0)
    Tournament.objects.all().delete()
    Player.objects.all().delete()
    Cup.objects.all().delete()
    assert OeFinale.objects.count() == 0
    # The site has cups of the same names again, under other ids.
    tirol = Cup.objects.create(name=TIROL, ruleset="tiroler-tarockcup", method="wtc_fixpunkte", oe_finale_table="40")
    wien = Cup.objects.create(name=WIEN, ruleset="wiener-tarockcup", method="wtc_fixpunkte", oe_finale_table="60")
    assert {tirol.pk, wien.pk}.isdisjoint({c.pk for c in cups})
    call_command("import_tournament", str(path))
    assert "Restored: Ö-Finale 2027" in capsys.readouterr().out
    restored = Tournament.objects.get()
    assert settings_of(restored) == (TABLE, True, [TIROL, WIEN])
    assert set(restored.oe_finale.cups.all()) == {tirol, wien}


@pytest.mark.django_db
def test_a_finale_without_cups_and_an_unticked_option_restores_so(final, english):
    OeFinale.objects.filter(tournament=final).update(sum_vorrundenpunkte=False, finalpunkte=[])
    final.oe_finale.cups.clear()
    content = export_tournament(final)
    assert unpack(content)["data"]["oe_finale_cups"] == []
    assert settings_of(restore(content).tournament) == ([], False, [])


@pytest.mark.django_db
def test_a_tournament_that_is_no_finale_restores_as_none(make_tournament, english):
    content = export_tournament(make_tournament(players=4))
    data = unpack(content)["data"]
    assert (data["oe_finale"], data["oe_finale_cups"]) == ([], [])
    restored = restore(content)
    assert not OeFinale.objects.filter(tournament=restored.tournament).exists()
    assert (restored.summary.oe_finale, restored.summary.oe_finale_cups, restored.summary.oe_finale_dropped) == (False, (), ())


@pytest.mark.django_db
def test_a_cup_this_site_lacks_is_left_out_and_named(final, content, cups, english):
    Cup.objects.filter(pk=cups[1].pk).update(name="Wiener Tarockcup 2027/28")
    notice = f"The archive's cup “{WIEN}” is not on this site: the Ö-Finale is restored without it."
    assert summarize(content).oe_finale_dropped == (notice,)
    restored = restore(content)
    assert restored.summary.oe_finale_cups == (TIROL,) and restored.summary.oe_finale_dropped == (notice,)
    assert settings_of(restored.tournament) == (TABLE, True, [TIROL])  # the rest restores
    assert restored.tournament.registrations.count() == 8
    assert notice in restored.tournament.actions.get(action="created").detail


@pytest.mark.django_db
def test_the_restore_page_links_the_cups_for_an_organiser_who_keeps_none_and_names_a_missing_one(
    content, cups, stranger, client, settings, tmp_path, english
):
    """No permission of the cups is asked: the finale only reads their tables."""
    assert not stranger.organised_cups.exists()
    Cup.objects.filter(pk=cups[0].pk).update(name="Tiroler Tarockcup 2027/28")
    settings.DATA_DIR = tmp_path
    client.force_login(stranger)
    url = reverse("archive:restore")
    shown = client.post(url, {"file": SimpleUploadedFile("finale.tarock.json.gz", content, content_type="application/gzip")})
    assert shown.status_code == 200
    fields = {"restore": "1", "upload": shown.context["upload"], "digest": shown.context["digest"]}
    done = client.post(url, fields, follow=True)
    shown_messages = [str(m) for m in done.context["messages"]]
    assert f"The archive's cup “{TIROL}” is not on this site: the Ö-Finale is restored without it." in shown_messages
    restored = Tournament.objects.exclude(pk=OeFinale.objects.order_by("pk").first().tournament_id).get(name="Ö-Finale 2027")
    assert settings_of(restored) == (TABLE, True, [WIEN])


def refused(archive: bytes, *words) -> BackupRefused:
    """The refusal of ``archive`` (the same from summarize, check_archive and restore, nothing
    written), naming each of ``words``."""
    before = counts()
    with pytest.raises(BackupRefused) as summarized:
        summarize(archive)
    with pytest.raises(BackupRefused) as restoring:
        restore(archive)
    assert counts() == before
    message = restoring.value.message
    assert summarized.value.message == message
    assert check_archive(archive).refusal.message == message
    for word in words:
        assert word in message, message
    return restoring.value


def with_table(table):
    def change(data):
        data["oe_finale"][0]["finalpunkte"] = table

    return change


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("table", "words"),
    [
        # Each message as the settings form words it, naming the rank.
        ([55, 50, 45], "Rank 1: the day's winner gets 60 Finalpunkte, not 55."),
        ([60, 57, 58], "Rank 3: 58 is more than the 57 of the rank above; the Finalpunkte never increase down the ranks."),
        ([60, 57, -1], "Rank 3: -1 is negative; there are no minus points."),
        ([60] + [1] * 100, "Rank 101: 1, but every rank from 101 on gets 0 Finalpunkte."),
        ([60, "57", 55], "Rank 2: “\"57\"” is not a whole number."),
        ([60, 57.5], "Rank 2: “57.5” is not a whole number."),
        ([60, True], "Rank 2: “true” is not a whole number."),
        ([60] + [0] * 1000, "Rank 1001: the table lists at most 1000 ranks"),
        ({"1": 60}, "its Finalpunkte table is not a list of numbers."),
    ],
)
def test_a_finalpunkte_table_the_settings_form_refuses_is_refused_naming_it(content, english, table, words):
    refusal = refused(edited(content, with_table(table)), "The archive was refused (Ö-Finale)", words, "Nothing was restored.")
    assert refusal.part == "oe_finale" and refusal.where == "Ö-Finale"
    assert backup.how_to_fix(refusal) == "correct it on the tournament's Ö-Finale settings page"


@pytest.mark.django_db
def test_the_same_table_typed_in_the_form_is_refused_with_the_same_words(final, english):
    form = OeFinaleForm(data={"cups": [], "finalpunkte_text": "60 57 58"}, instance=final.oe_finale)
    assert not form.is_valid()
    assert form.errors["finalpunkte_text"] == ["Rank 3: 58 is more than the 57 of the rank above; the Finalpunkte never increase down the ranks."]


@pytest.mark.django_db
def test_an_edited_option_or_a_second_finale_is_refused(content, english):
    refused(edited(content, lambda d: d["oe_finale"][0].update(sum_vorrundenpunkte="yes")), "sum the Vorrundenpunkte", "true or false")
    refused(edited(content, lambda d: d["oe_finale"][0].update(cups=[1, 2])), "fields this program does not know: cups")
    refused(edited(content, lambda d: d["oe_finale"].append(dict(d["oe_finale"][0], id=d["oe_finale"][0]["id"] + 1))), "one Ö-Finale at most")
    refused(edited(content, lambda d: d["oe_finale"][0].update(tournament_id=d["tournament"]["id"] + 1)), "points at no row of the archive")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("names", "words"),
    [
        ("Tiroler Tarockcup", "not a list of names"),
        ([TIROL, 7], "“7” is not a cup's name"),
        ([TIROL, ""], "is not a cup's name"),
        ([TIROL, TIROL], "twice"),
        ([TIROL, "Wiener \u202eTarockcup"], "U+202E"),
    ],
)
def test_edited_cup_names_are_refused(content, english, names, words):
    refusal = refused(edited(content, lambda d: d.update(oe_finale_cups=names)), words)
    assert refusal.part == "oe_finale_cups"


@pytest.mark.django_db
def test_cups_without_a_finale_are_refused(content, english):
    refused(edited(content, lambda d: d.update(oe_finale=[])), "cups of an Ö-Finale but has no Ö-Finale")


@pytest.mark.django_db
def test_an_archive_written_before_the_finale_restores_as_before(content, english):
    def older(data):
        del data["oe_finale"], data["oe_finale_cups"]

    restored = restore(edited(content, older))
    assert not OeFinale.objects.filter(tournament=restored.tournament).exists()
    assert restored.summary.players == 8 and not restored.summary.oe_finale


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["test_backup_v1_tirol.tarock.json.gz", "test_backup_v1_bled.tarock.json.gz", "before_the_layout_move.tarock.json.gz"])
def test_the_committed_older_archives_restore_without_a_finale(name, english):
    content = (HERE / name).read_bytes()
    assert "oe_finale" not in unpack(content)["data"]
    restored = restore(content)
    assert not OeFinale.objects.filter(tournament=restored.tournament).exists()
    assert restored.summary.oe_finale_dropped == ()
