"""A pasted list and the New player fields against the register: two lines of one player are a
problem naming both (never one line passed over without a word); a name typed as a new player is
not taken for a namesake without asking; the register is narrowed by the database and read once
a submit, and what it lets through is exactly every player of each name."""

import unicodedata
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments import services
from tournaments.models import Player
from tournaments.registration import register as registration


@pytest.fixture
def register(db):
    return {
        "anna": Player.objects.create(name="Anna Berger", club="Imst"),
        "hans": Player.objects.create(name="Hans Falk", club="Vomp"),
        "hans2": Player.objects.create(name="Hans Falk", club="Lienz"),
    }


def page_url(t):
    return reverse("tournaments_director:registrations", args=[t.pk])


@pytest.mark.django_db
def test_two_lines_of_one_player_are_a_problem_naming_both(director_client, make_tournament, register, english):
    t = make_tournament(players=0)
    # The second line is Anna by her name alone: not passed over as "registered" without a word.
    response = director_client.post(page_url(t), {"names": "Anna Berger; Imst\nAnna Berger\nKarl Dorn"})
    page = response.content.decode()
    assert response.status_code == 422
    assert "Line 2 is the same player as line 1: Anna Berger (Imst)." in page
    assert "Nothing was registered: correct line 2 as marked below." in page
    assert not t.registrations.exists() and not Player.objects.filter(name="Karl Dorn").exists()
    # Chosen as the player an earlier line is: the same problem.
    response = director_client.post(
        page_url(t), {"names": "Hans Falk; Vomp\n\nHans Falk", "choice_3": str(register["hans"].pk)}
    )
    assert response.status_code == 422
    assert "Line 3 is the same player as line 1: Hans Falk (Vomp)." in response.content.decode()
    # The New player fields and a pasted line of one player: named as the new player.
    response = director_client.post(page_url(t), {"names": "Anna Berger", "new_name": "Anna Berger", "new_club": "Imst"})
    page = response.content.decode()
    assert response.status_code == 422
    assert "The new player is the same player as line 1: Anna Berger (Imst)." in page
    assert "Nothing was registered: correct the new player as marked below." in page
    assert not t.registrations.exists()
    # Corrected, she is registered once.
    director_client.post(page_url(t), {"names": "Anna Berger; Imst\nKarl Dorn"})
    assert list(t.registrations.values_list("player__name", flat=True)) == ["Anna Berger", "Karl Dorn"]


@pytest.mark.django_db
def test_a_player_registered_meanwhile_is_named_not_skipped(make_tournament, register):
    t = make_tournament(players=0)
    lines = registration.resolve(t, registration.read_names("Anna Berger\nKarl Dorn"))
    services.register(t, register["anna"])  # in a second tab, after the list was checked
    registered = registration.register_lines(t, lines)
    assert [r.player.name for r in registered] == ["Karl Dorn"]
    assert [e.status for e in lines] == ["registered", "new"]  # the page says "registered already"


@pytest.mark.django_db
def test_a_namesake_typed_as_a_new_player_is_asked_about(director_client, make_tournament, register, english):
    # Pasted, a name only one player has is his without asking.
    pasted = make_tournament(players=0, name="Gepastet")
    director_client.post(page_url(pasted), {"names": "Berger Anna"})
    assert pasted.registrations.get().player == register["anna"]
    t = make_tournament(players=0)
    # Typed as a new player, the director said "new": the register's only Anna Berger is offered, not taken.
    response = director_client.post(page_url(t), {"new_name": "Anna Berger", "new_club": ""})
    page = response.content.decode()
    assert response.status_code == 200
    assert 'name="choice_new"' in page and "Anna Berger (Imst)" in page
    assert "The name “Anna Berger” is in the register already: choose below who the new player is." in page
    assert not t.registrations.exists() and Player.objects.count() == 3
    director_client.post(page_url(t), {"new_name": "Anna Berger", "choice_new": "new"})
    assert Player.objects.filter(name="Anna Berger").count() == 2
    assert t.registrations.get().player.club == ""
    # Name and club exactly a player's: that player (no second Anna Berger of Imst).
    director_client.post(page_url(t), {"new_name": "anna berger", "new_club": "IMST"})
    assert t.registrations.filter(player=register["anna"]).exists()
    assert Player.objects.filter(name__iexact="Anna Berger").count() == 2


@pytest.mark.django_db
def test_a_pasted_list_reads_the_register_once_narrowed(director_client, make_tournament, register, english):
    t = make_tournament(players=0)
    Player.objects.bulk_create([Player(name=f"Spieler {i:04d} Huber", club="Imst") for i in range(2000)])
    loaded = []
    real = Player.from_db.__func__

    def counted(cls, *args, **kwargs):
        loaded.append(1)
        return real(cls, *args, **kwargs)

    with mock.patch.object(Player, "from_db", classmethod(counted)), CaptureQueriesContext(connection) as queries:
        # Anna by her name, Karl new, Hans Falk waiting for the choice (asked on the page that follows).
        response = director_client.post(page_url(t), {"names": "Berger Anna\nKarl Dorn\nHans Falk"})
    assert response.status_code == 200 and 'name="choice_1"' in response.content.decode()
    assert t.registrations.count() == 2
    # (On PostgreSQL the read is a cursor: "DECLARE … FOR SELECT …".)
    register_reads = [q["sql"] for q in queries.captured_queries if "SELECT" in q["sql"] and 'FROM "tournaments_player"' in q["sql"]]
    assert len(register_reads) == 1, register_reads
    assert len(loaded) <= 10


# Names whose folding is tricky: the database's narrowing lets through every player of the name.
TRICKY = [
    ("Andreas Hofer-Mair", "Imst"),
    ("Hofer-Mair Andreas", "Lienz"),
    ("Jürgen Straßer", "Schwaz"),
    ("Juergen Strasser", ""),
    (unicodedata.normalize("NFD", "Jože Šuštar"), "Kranj"),
    ("Joze Sustar", ""),
    ("Đorđe Đukić", "Split"),
    ("Djordje Dukic", ""),
    ("ŁUKASZ ŻÓŁW", "Kraków"),
    ("Søren Ærø", ""),
    ("Þór Guðmundsson", ""),
    ("Ĳsbrand de Vries", ""),
    ("Seán O'Brien", ""),
    ("Ἀλέξανδρος Πάππας", ""),
    ("王伟", ""),
    ("Anna\u200bBerger", ""),
    ("Berger, Anna", ""),
]


@pytest.mark.django_db
def test_the_database_narrows_to_every_player_of_each_name(db):
    everyone = [Player.objects.create(name=name, club=club) for name, club in TRICKY]
    typed = set()
    for name, _club in TRICKY:
        typed |= {name, name.upper(), registration.fold(name), unicodedata.normalize("NFD", name), " ".join(reversed(name.split()))}
    typed |= {"Dukic Djordje", "lukasz zolw", "soren aero", "thor gudmundsson", "ijsbrand de vries", "Anna Berger", "Straß"}
    for one in sorted(typed):
        expected = sorted(p.pk for p in everyone if registration.name_key(p.name) == registration.name_key(one))
        found = registration.namesakes([one]).get(registration.name_key(one), [])
        assert sorted(p.pk for p in found) == expected, one
    # All at once, one query.
    with CaptureQueriesContext(connection) as queries:
        together = registration.namesakes(sorted(typed))
    assert len(queries.captured_queries) == 1
    for one in typed:
        assert sorted(p.pk for p in together.get(registration.name_key(one), [])) == sorted(
            p.pk for p in everyone if registration.name_key(p.name) == registration.name_key(one)
        ), one
