"""Publishing keys on the public site: made for an organiser (into a cup he keeps), stored only as
a fingerprint, checked in constant time, revoked; the command prints a key as its last line; the
organiser's page lists, makes (shown once) and revokes his own keys."""

import hashlib
import hmac
import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from publishing import keys
from publishing.models import PublishingKey
from scoring.cups.models import Cup
from tournaments.roles import organisers_group

KEY_FORM = re.compile(r"tpk_[0-9a-f]{10}_[A-Za-z0-9_\-]{43}")


@pytest.fixture
def organiser(django_user_model):
    user = django_user_model.objects.create_user("obmann", password="x-123-geheim")
    user.groups.add(organisers_group())
    return user


@pytest.fixture
def stranger(django_user_model):
    return django_user_model.objects.create_user("gast", password="x-123-geheim")


@pytest.fixture
def cup(organiser):
    made = Cup.objects.create(name="Tiroler Tarockcup 2026", ruleset="tiroler-tarockcup", method="tirol")
    made.organisers.add(organiser)
    return made


def test_a_key_is_shown_once_and_stored_as_its_fingerprint(organiser):
    key, plain = keys.make_key(organiser, label="Gasthof Post")
    assert KEY_FORM.fullmatch(plain)
    assert plain.startswith(f"tpk_{key.prefix}_")
    stored = PublishingKey.objects.get()
    assert stored.secret_hash == hashlib.sha256(plain.encode()).hexdigest()
    assert plain not in str(PublishingKey.objects.values().get())
    assert (stored.user, stored.label, stored.cup, stored.revoked) == (organiser, "Gasthof Post", None, None)
    assert keys.check_key(plain) == stored


def test_two_keys_are_different(organiser):
    (first, a), (second, b) = keys.make_key(organiser), keys.make_key(organiser)
    assert a != b and first.prefix != second.prefix


def test_unknown_and_wrong_keys_are_401_revoked_403(organiser, english):
    key, plain = keys.make_key(organiser)
    prefix_right_secret_wrong = plain[:-1] + ("A" if plain[-1] != "A" else "B")
    unknown_prefix = f"tpk_{'0' * 10 if key.prefix != '0' * 10 else '1' * 10}{plain[14:]}"
    for presented in ("", "Bearer", "tpk_x", prefix_right_secret_wrong, unknown_prefix, plain + "x", "tpk_" + "a" * 500):
        with pytest.raises(keys.KeyRefused) as refused:
            keys.check_key(presented)
        assert refused.value.status == 401, presented
    assert keys.revoke(key) is True
    assert keys.revoke(key) is False  # once
    with pytest.raises(keys.KeyRefused) as refused:
        keys.check_key(plain)
    assert refused.value.status == 403
    assert "revoked" in refused.value.message


def test_the_hashes_are_compared_in_constant_time_also_for_an_unknown_prefix(organiser, monkeypatch):
    key, plain = keys.make_key(organiser)
    compared = []
    real = hmac.compare_digest

    def spy(a, b):
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(keys.hmac, "compare_digest", spy)
    keys.check_key(plain)
    with pytest.raises(keys.KeyRefused):
        keys.check_key(f"tpk_{'f' * 10}_{'x' * 43}")
    assert len(compared) == 2
    assert all(len(a) == len(b) == 64 for a, b in compared)


def test_only_organisers_make_keys_and_into_their_own_cups_only(organiser, stranger, cup):
    with pytest.raises(keys.KeyRefused):
        keys.make_key(stranger)
    other = Cup.objects.create(name="Wiener Tarockcup", ruleset="wiener-tarockcup", method="wtc")
    with pytest.raises(keys.KeyRefused) as refused:
        keys.make_key(organiser, other)
    assert "Wiener Tarockcup" in refused.value.message
    key, _plain = keys.make_key(organiser, cup)
    assert key.cup == cup
    assert not PublishingKey.objects.filter(user=stranger).exists()


def test_a_key_of_an_organiser_who_left_the_group_is_refused(organiser):
    _key, plain = keys.make_key(organiser)
    organiser.groups.clear()
    with pytest.raises(keys.KeyRefused) as refused:
        keys.check_key(plain)
    assert refused.value.status == 403


def test_a_key_publishes_while_its_user_may_create_tournaments_in_any_way_django_grants_it(organiser):
    """The permission itself (not only through the Organisers group) or a superuser's; never an
    inactive user's."""
    from django.contrib.auth.models import Permission

    stored, plain = keys.make_key(organiser)
    organiser.groups.clear()
    organiser.user_permissions.add(Permission.objects.get(content_type__app_label="tournaments", codename="add_tournament"))
    assert keys.check_key(plain) == stored
    organiser.user_permissions.clear()
    organiser.is_superuser = True
    organiser.save()
    assert keys.check_key(plain) == stored
    organiser.is_active = False
    organiser.save()
    with pytest.raises(keys.KeyRefused) as refused:
        keys.check_key(plain)
    assert refused.value.status == 403


# -------------------------------------------------------------------------------- the command


def test_the_command_prints_the_key_as_its_last_line(organiser, cup, english):
    out = StringIO()
    call_command("publishing_key", "obmann", "--cup", cup.name, "--label", "Laptop", stdout=out)
    lines = out.getvalue().strip().splitlines()
    assert KEY_FORM.fullmatch(lines[-1])
    assert "once" in lines[-2] or "einmal" in lines[-2]
    key = keys.check_key(lines[-1])
    assert (key.user, key.cup, key.label) == (organiser, cup, "Laptop")


@pytest.mark.parametrize("arguments", [["niemand"], ["obmann", "--cup", "Kein Cup"], ["gast"]])
def test_the_command_refuses_an_unknown_user_or_cup_or_a_non_organiser(organiser, stranger, arguments):
    with pytest.raises(CommandError) as refused:
        call_command("publishing_key", *arguments, stdout=StringIO())
    assert str(refused.value)
    assert not PublishingKey.objects.exists()


# ----------------------------------------------------------------------------------- the page


def test_the_keys_page_needs_an_organiser(client, stranger):
    url = reverse("publishing_site:keys")
    assert client.get(url).status_code == 302  # to the login
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.post(url, {"label": "x"}).status_code == 403
    assert not PublishingKey.objects.exists()


def test_an_organiser_makes_a_key_sees_it_once_and_revokes_it(client, organiser, cup, english, django_user_model):
    other = django_user_model.objects.create_user("andere", password="x-123-geheim")
    other.groups.add(organisers_group())
    theirs, _ = keys.make_key(other, label="Fremder Schlüssel")
    client.force_login(organiser)
    url = reverse("publishing_site:keys")

    made = client.post(url, {"label": "Gasthof Post", "cup": cup.pk})
    assert made.status_code == 200
    assert "no-store" in made["Cache-Control"] or "no-cache" in made["Cache-Control"]
    plain = KEY_FORM.search(made.content.decode())[0]
    key = keys.check_key(plain)
    assert (key.user, key.cup, key.label) == (organiser, cup, "Gasthof Post")
    assert "manage.py publish" in made.content.decode()

    page = client.get(url).content.decode()
    assert key.prefix in page and "Gasthof Post" in page
    assert plain not in page  # never again
    assert theirs.prefix not in page  # only his own

    revoke = reverse("publishing_site:revoke_key", args=[key.pk])
    assert client.get(revoke).status_code == 200
    key.refresh_from_db()
    assert key.revoked is None  # a GET only asks
    assert client.post(revoke).status_code == 302
    key.refresh_from_db()
    assert key.revoked is not None
    with pytest.raises(keys.KeyRefused):
        keys.check_key(plain)
    # Another organiser's key is not his to revoke (nor to see).
    assert client.post(reverse("publishing_site:revoke_key", args=[theirs.pk])).status_code == 404
    theirs.refresh_from_db()
    assert theirs.revoked is None


def test_the_page_offers_only_the_cups_he_keeps(client, organiser, cup):
    other = Cup.objects.create(name="Wiener Tarockcup", ruleset="wiener-tarockcup", method="wtc")
    client.force_login(organiser)
    page = client.get(reverse("publishing_site:keys")).content.decode()
    assert cup.name in page and other.name not in page
    refused = client.post(reverse("publishing_site:keys"), {"label": "x", "cup": other.pk})
    assert refused.status_code == 400
    assert not PublishingKey.objects.exists()
