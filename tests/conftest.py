"""Shared fixtures: a director, players, a Tirol tournament with a drawn round."""

import datetime

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Player, Tournament


@pytest.fixture(autouse=True)
def fresh_cache_and_media(settings, tmp_path):
    """Each test starts with an empty page cache and its own folder for rendered exports: the
    database is rolled back after a test, a cache or a folder kept across tests would not be."""
    from django.core.cache import cache

    cache.clear()
    settings.MEDIA_ROOT = tmp_path / "media"
    yield
    cache.clear()


@pytest.fixture
def director(db):
    """A user of the "Organisers" group who is organiser of every tournament and every cup of the
    test: those that exist when he is asked for and those created afterwards (rights come from a
    role in the tournament or from keeping a cup, never from ``is_staff``)."""
    from django.db.models.signals import post_save

    from tournaments.models import TournamentRole
    from tournaments.roles import organisers_group

    user = get_user_model().objects.create_user("leiter", password="geheim-123")
    user.groups.add(organisers_group())

    def organiser_of(sender, instance, created, **kwargs):
        if created:
            TournamentRole.objects.get_or_create(tournament=instance, user=user, defaults={"level": "organiser"})

    for tournament in Tournament.objects.all():
        organiser_of(Tournament, tournament, True)
    post_save.connect(organiser_of, sender=Tournament, weak=False, dispatch_uid="tests-director")

    def keeps_cup(sender, instance, created, **kwargs):  # and organiser of every cup, likewise
        if created:
            instance.organisers.add(user)

    from scoring.cups.models import Cup

    for cup in Cup.objects.all():
        keeps_cup(Cup, cup, True)
    post_save.connect(keeps_cup, sender=Cup, weak=False, dispatch_uid="tests-director-cups")
    yield user
    post_save.disconnect(sender=Tournament, dispatch_uid="tests-director")
    post_save.disconnect(sender=Cup, dispatch_uid="tests-director-cups")


@pytest.fixture
def director_client(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def make_tournament(db):
    """``make_tournament(players=8)``: a Tiroler Tarockcup (or ``ruleset=``/``edition=``) with that
    many registered players."""

    def make(players=8, **fields):
        t = Tournament.objects.create(
            name=fields.pop("name", "Testturnier"),
            date=fields.pop("date", datetime.date(2026, 11, 21)),
            venue=fields.pop("venue", "Gasthof Post, Imst"),
            ruleset=fields.pop("ruleset", "tiroler-tarockcup"),
            edition=fields.pop("edition", "2019/20"),
            **fields,
        )
        for i in range(players):
            services.register(t, Player.objects.create(name=f"Spieler {i + 1:02d}", club="Imst"))
        return t

    return make


@pytest.fixture
def four_table(make_tournament):
    """A tournament of 4 players with round 1 drawn: one 4-table."""
    t = make_tournament(players=4)
    rnd = services.draw_next_round(t, seed=7)
    return rnd.tables.get()


@pytest.fixture
def english(settings):
    """Pages and messages in English (the default language is German)."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield
