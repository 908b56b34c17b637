"""Limits that keep one upload or one field from taking the server down, and names that
cannot disguise themselves."""

import io
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.exporters import base as exporters
from tournaments.models import Player, Registration


def import_url(t):
    return reverse("tournaments_director:import_players", args=[t.pk])


@pytest.mark.django_db
def test_an_import_of_more_than_2000_rows_is_refused_whole(director_client, make_tournament, english):
    t = make_tournament(players=0)
    content = "".join(f"Spieler {i};Imst\n" for i in range(2001)).encode()
    response = director_client.post(import_url(t), {"file": SimpleUploadedFile("liste.csv", content)})
    page = response.content.decode()
    assert "2001 players" in page and "at most 2000" in page
    assert Player.objects.count() == 0 and Registration.objects.count() == 0


@pytest.mark.django_db
def test_a_workbook_that_unpacks_to_too_much_is_not_opened(director_client, make_tournament, english):
    t = make_tournament(players=0)
    packed = io.BytesIO()
    with zipfile.ZipFile(packed, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b" " * (25 * 1024 * 1024))  # 25 MB of blanks, 25 KB packed
    assert len(packed.getvalue()) < 1024 * 1024
    response = director_client.post(import_url(t), {"file": SimpleUploadedFile("liste.xlsx", packed.getvalue())})
    assert "was not opened" in response.content.decode()
    assert Player.objects.count() == 0


@pytest.mark.django_db
def test_a_name_with_a_direction_character_is_refused_where_it_is_typed(director_client, make_tournament, english):
    t = make_tournament(players=0)
    disguised = "Anna \u202eregeB"  # shows as "Anna Berger" reversed
    response = director_client.post(reverse("tournaments_director:player_create"), {"name": disguised, "club": ""})
    assert response.status_code == 200 and "U+202E" in response.content.decode()
    response = director_client.post(reverse("tournaments_director:registrations", args=[t.pk]), {"names": disguised})
    assert "U+202E" in response.content.decode()
    response = director_client.post(import_url(t), {"file": SimpleUploadedFile("l.csv", f"{disguised};Imst\n".encode())})
    assert "U+202E" in response.content.decode()
    assert Player.objects.count() == 0


@pytest.mark.django_db
def test_the_register_and_the_field_are_paginated(director_client, make_tournament):
    from tournaments import services

    t = make_tournament(players=0)
    for i in range(1, 151):
        services.register(t, Player.objects.create(name=f"Gast {i:03d}", club="Imst"))
    register = reverse("tournaments_director:players")
    first = director_client.get(register).content.decode()
    assert "Gast 001" in first and "Gast 100" in first and "Gast 101" not in first
    assert "Gast 150" in director_client.get(register + "?page=2").content.decode()
    field = reverse("tournaments_director:registrations", args=[t.pk])
    assert "Gast 150" not in director_client.get(field).content.decode()
    assert "Gast 150" in director_client.get(field + "?page=2").content.decode()


@pytest.mark.django_db
def test_every_export_of_a_field_over_the_limit_goes_to_the_worker(make_tournament, monkeypatch):
    t = make_tournament(players=4)
    standings = exporters.get_exporter("standings-pdf")
    assert not standings.is_heavy(t, {})
    monkeypatch.setattr(exporters, "FIELD_INLINE_MAX", 3)
    assert standings.is_heavy(t, {})
