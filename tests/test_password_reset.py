"""A password-reset link is a key to an account: without a mail server (no ``EMAIL_HOST``, the
console backend) the reset page sends nothing, logs nothing and sends the user to his tournament's
organiser, who sets a one-time password on the Roles page (``tournaments/passwords.py``). That
password is shown once (a reload sets no other), works for one login within 24 hours and only while
its user may do nothing its organiser may not, and that login must choose a new password. gunicorn's
access log hides the key of a reset link that is opened."""

import datetime
import importlib
import logging
import re
import threading
import time

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import Group
from django.core import mail
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from config.access_log import HIDDEN, RedactingLogger, redact
from scoring.cups.models import Cup
from tournaments import passwords, views_organiser
from tournaments.models import ActionLog, OneTimePassword, Tournament, TournamentRole
from tournaments.roles import organisers_group

pytestmark = pytest.mark.django_db
User = get_user_model()
OLD = "alt-Passwort-99"


@pytest.fixture
def no_mail_server(settings):
    settings.EMAIL_HOST = ""


@pytest.fixture
def day(make_tournament):
    """A tournament whose organiser is Olga; Sepp is its scorer (and nothing anywhere else)."""
    t = make_tournament(players=4)
    olga = User.objects.create_user("olga", password="olga-Passwort-1")
    sepp = User.objects.create_user("sepp", email="sepp@example.at", password=OLD)
    TournamentRole.objects.create(tournament=t, user=olga, level="organiser")
    role = TournamentRole.objects.create(tournament=t, user=sepp, level="scorer")
    client = Client()
    client.force_login(olga)
    return t, olga, sepp, role, client


def roles_url(t):
    return reverse("tournaments_director:roles", args=[t.pk])


def log_in(client, username, password, next_url=None):
    data = {"username": username, "password": password}
    if next_url:
        data["next"] = next_url
    return client.post(reverse("login"), data)


# --- the reset page without a mail server ---------------------------------------------------------


def test_without_a_mail_server_the_reset_page_sends_nothing_and_says_whom_to_ask(day, no_mail_server, english, caplog, capsys):
    client = Client()
    page = client.get(reverse("password_reset")).content.decode()
    assert "ask the organiser of your tournament" in page.lower() and "one-time password" in page
    assert 'name="email"' not in page  # nothing to send
    with caplog.at_level(logging.DEBUG):
        response = client.post(reverse("password_reset"), {"email": "sepp@example.at"})
    assert response.status_code == 200 and "one-time password" in response.content.decode()
    assert mail.outbox == []
    logged = caplog.text + capsys.readouterr().out
    assert "/accounts/reset/" not in logged and "sepp@example.at" not in logged


def test_the_console_backend_never_gets_a_reset_link(day, settings, english, capsys):
    # As scripts/serve runs without EMAIL_HOST: the console backend would print the link.
    settings.EMAIL_HOST = ""
    settings.EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
    Client().post(reverse("password_reset"), {"email": "sepp@example.at"})
    assert "/accounts/reset/" not in capsys.readouterr().out
    # Even with a host named, a backend that writes messages into a log is not a mail server.
    settings.EMAIL_HOST = "smtp.example.org"
    assert not passwords.mail_configured()
    Client().post(reverse("password_reset"), {"email": "sepp@example.at"})
    assert "/accounts/reset/" not in capsys.readouterr().out


def test_with_a_mail_server_the_link_is_mailed(day, settings):
    settings.EMAIL_HOST = "smtp.example.org"  # the tests' backend keeps the mail instead of sending it
    assert Client().post(reverse("password_reset"), {"email": "sepp@example.at"}).status_code == 302
    assert len(mail.outbox) == 1 and "/accounts/reset/" in mail.outbox[0].body


# --- one-time passwords ---------------------------------------------------------------------------


def set_one_time(client, t, role):
    """Post the Roles page's button and follow its redirect: the page that shows the password."""
    posted = client.post(roles_url(t), {"one_time": str(role.pk)})
    assert posted.status_code == 302 and posted["Location"] == roles_url(t), posted.content.decode()[:500]
    response = client.get(roles_url(t))
    assert response.status_code == 200 and response.context.get("one_time"), response.content.decode()[:500]
    return response


def test_a_one_time_password_is_shown_once_works_once_and_forces_a_new_one(day, english):
    t, olga, sepp, role, olga_client = day
    response = set_one_time(olga_client, t, role)
    one_time = response.context["one_time"]["password"]
    assert one_time in response.content.decode() and "It works for 24 hours" in response.content.decode()
    assert "no-store" in response["Cache-Control"]
    assert one_time not in olga_client.get(roles_url(t)).content.decode()  # shown only once
    assert one_time not in str(dict(olga_client.session.items()))  # and kept nowhere to show again
    entry = ActionLog.objects.get(tournament=t, action=ActionLog.Action.ROLE_GIVEN)
    assert (entry.user, entry.detail) == (olga, "One-time password set for sepp")
    sepp.refresh_from_db()
    assert not sepp.check_password(OLD)  # the forgotten one works no more

    # The login with it is no login: it leads to choosing a new password.
    client = Client()
    choose = log_in(client, "sepp", one_time, next_url=roles_url(t))
    assert choose.status_code == 302 and choose["Location"] == reverse("choose_password")
    assert "_auth_user_id" not in client.session
    assert client.get(roles_url(t)).status_code == 302  # not logged in: to the login page
    # It worked once: nobody logs in with it again.
    assert log_in(Client(), "sepp", one_time).status_code == 200
    sepp.refresh_from_db()
    assert not sepp.check_password(one_time)

    page = client.get(reverse("choose_password"))
    assert page.status_code == 200 and "sepp" in page.content.decode()
    mismatch = client.post(reverse("choose_password"), {"new_password1": "Neues-Pass-77", "new_password2": "Neues-Pass-78"})
    assert mismatch.status_code == 200 and "_auth_user_id" not in client.session
    done = client.post(reverse("choose_password"), {"new_password1": "Neues-Pass-77", "new_password2": "Neues-Pass-77"})
    assert done.status_code == 302 and done["Location"] == roles_url(t)  # on where the login was going
    assert int(client.session["_auth_user_id"]) == sepp.pk
    assert client.get(reverse("choose_password")).status_code == 410  # done: nothing more to choose

    # From now on an ordinary login with his own password.
    again = log_in(Client(), "sepp", "Neues-Pass-77")
    assert again.status_code == 302 and again["Location"] != reverse("choose_password")
    sepp.refresh_from_db()
    assert not passwords.must_choose(sepp)
    assert not OneTimePassword.objects.filter(user=sepp).exists()  # its record is gone with it


def test_choosing_waits_only_a_while(day, english, monkeypatch):
    t, _olga, _sepp, role, olga_client = day
    one_time = set_one_time(olga_client, t, role).context["one_time"]["password"]
    client = Client()
    log_in(client, "sepp", one_time)
    later = time.time() + passwords.CHOOSE_WITHIN_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)
    expired = client.post(reverse("choose_password"), {"new_password1": "Neues-Pass-77", "new_password2": "Neues-Pass-77"})
    assert expired.status_code == 410 and "Ask your tournament's organiser for a new one-time password" in expired.content.decode()
    assert "_auth_user_id" not in client.session


def test_a_one_time_password_lifts_a_login_lock(day, settings):
    settings.AXES_FAILURE_LIMIT = 2
    t, _olga, _sepp, role, olga_client = day
    for _ in range(2):
        log_in(Client(), "sepp", "falsch")
    assert log_in(Client(), "sepp", OLD).status_code == 429
    one_time = set_one_time(olga_client, t, role).context["one_time"]["password"]
    assert log_in(Client(), "sepp", one_time)["Location"] == reverse("choose_password")


def at(moment):
    """A stand-in for ``timezone.now`` that answers ``moment``."""
    return lambda: moment


def test_a_one_time_password_works_for_24_hours_only(day, english, monkeypatch):
    t, _olga, sepp, role, olga_client = day
    before = timezone.now().replace(microsecond=0)
    one_time = set_one_time(olga_client, t, role).context["one_time"]["password"]
    sepp.refresh_from_db()
    set_at = passwords.one_time_record(sepp).set_at
    assert before <= set_at <= timezone.now()
    monkeypatch.setattr(timezone, "now", at(set_at + datetime.timedelta(hours=24, seconds=2)))
    client = Client()
    late = log_in(client, "sepp", one_time)
    assert late.status_code == 200 and "_auth_user_id" not in client.session and passwords.PENDING_KEY not in client.session
    assert "This one-time password has expired: it works for 24 hours after it is set. Ask your tournament&#x27;s organiser for a new one." in late.content.decode()
    # It ended with the refusal: it works no more, not even once the clock is back.
    monkeypatch.undo()
    assert log_in(Client(), "sepp", one_time).status_code == 200
    sepp.refresh_from_db()
    assert not sepp.check_password(one_time) and not passwords.must_choose(sepp)

    # Within the 24 hours it works.
    one_time = set_one_time(olga_client, t, role).context["one_time"]["password"]
    monkeypatch.setattr(timezone, "now", at(timezone.now() + datetime.timedelta(hours=23, minutes=59)))
    assert log_in(Client(), "sepp", one_time)["Location"] == reverse("choose_password")


def test_a_one_time_password_is_refused_once_its_user_may_do_more_than_its_organiser(day, english):
    # Olga may set it for Sepp, a scorer of her tournament only; then he becomes a scorer of a
    # tournament she does not organise: whoever knows the password could act there as him.
    t, _olga, sepp, role, olga_client = day
    one_time = set_one_time(olga_client, t, role).context["one_time"]["password"]
    elsewhere = Tournament.objects.create(name="Anderswo", date=t.date, ruleset=t.ruleset, edition=t.edition)
    TournamentRole.objects.create(tournament=elsewhere, user=sepp, level="scorer")
    client = Client()
    refused_login = log_in(client, "sepp", one_time)
    assert refused_login.status_code == 200 and "_auth_user_id" not in client.session
    assert "This one-time password works no more: your rights, or those of the organiser who set it, have changed since." in refused_login.content.decode()
    sepp.refresh_from_db()
    assert not sepp.check_password(one_time) and not passwords.must_choose(sepp)


def test_a_one_time_password_is_refused_once_its_organiser_is_none_any_more(day, english):
    t, olga, _sepp, role, olga_client = day
    one_time = set_one_time(olga_client, t, role).context["one_time"]["password"]
    TournamentRole.objects.filter(tournament=t, user=olga).update(level="director")
    assert "This one-time password works no more" in log_in(Client(), "sepp", one_time).content.decode()


def test_a_one_time_password_is_refused_once_its_tournament_or_organiser_is_deleted(day, english):
    # The record stays without them: the password must not turn into an ordinary one.
    t, olga, sepp, role, olga_client = day
    one_time = set_one_time(olga_client, t, role).context["one_time"]["password"]
    t.delete()
    assert "This one-time password works no more" in log_in(Client(), "sepp", one_time).content.decode()
    sepp.refresh_from_db()
    assert not sepp.check_password(one_time) and not OneTimePassword.objects.filter(user=sepp).exists()

    t2 = Tournament.objects.create(name="Zweites", date=datetime.date(2026, 11, 26), ruleset=t.ruleset, edition=t.edition)
    TournamentRole.objects.create(tournament=t2, user=olga, level="organiser")
    _user, one_time = passwords.set_one_time_password(t2, TournamentRole.objects.create(tournament=t2, user=sepp, level="scorer").pk, olga)
    olga.delete()
    assert "This one-time password works no more" in log_in(Client(), "sepp", one_time).content.decode()


def test_the_migration_ends_the_one_time_passwords_recorded_in_group_names(day):
    # Before the table, a one-time password was recorded in the name of a group, with a 16-digit
    # check of the password hash. The migration deletes those groups; a password still pending in
    # one stops working (it must not become an ordinary one), one set since by the administrator stays.
    _t, olga, sepp, _role, _client = day
    migration = importlib.import_module("tournaments.migrations.0019_one_time_password")
    sepp.set_password("einmal-k7mq")
    sepp.save()
    olga.set_password("vom-Admin-42")  # set after her group's password: an ordinary one
    olga.save()
    for user, password_hash in ((sepp, sepp.password), (olga, "pbkdf2_sha256$older")):
        name = f"Must choose a new password: set by user 1 in tournament 1 at 2026-11-26 14:02:05 UTC, check {migration.old_check(password_hash)}"
        user.groups.add(Group.objects.create(name=name))
    other = Group.objects.create(name="Organisers of something")
    sepp.groups.add(other)
    migration.end_one_time_groups(apps, None)
    assert not Group.objects.filter(name__startswith="Must choose").exists() and sepp.groups.get() == other
    sepp.refresh_from_db()
    olga.refresh_from_db()
    assert not sepp.check_password("einmal-k7mq") and sepp.has_usable_password()
    assert olga.check_password("vom-Admin-42")


def test_a_password_the_site_administrator_sets_afterwards_is_an_ordinary_one(day, english, monkeypatch):
    # The one-time password was never used; the site administrator set a password in the admin
    # (no one-time password): its login is an ordinary one, whatever the record's age.
    t, _olga, sepp, role, olga_client = day
    set_one_time(olga_client, t, role)
    sepp.refresh_from_db()
    sepp.set_password("vom-Admin-42")
    sepp.save()
    monkeypatch.setattr(timezone, "now", at(timezone.now() + datetime.timedelta(days=3)))
    client = Client()
    response = log_in(client, "sepp", "vom-Admin-42")
    assert response.status_code == 302 and response["Location"] != reverse("choose_password")
    assert int(client.session["_auth_user_id"]) == sepp.pk
    assert not OneTimePassword.objects.filter(user=sepp).exists()  # the stale record is dropped


class FewIterations(PBKDF2PasswordHasher):
    iterations = 1_000


class MoreIterations(PBKDF2PasswordHasher):
    iterations = 2_000


def test_a_one_time_password_rehashed_at_its_login_is_still_one(day, settings):
    # The site's hasher got stronger between setting and using it: the login re-hashes the
    # password, which must not make it an ordinary password that goes on working.
    t, _olga, sepp, role, olga_client = day
    settings.PASSWORD_HASHERS = [f"{__name__}.FewIterations"]
    one_time = set_one_time(olga_client, t, role).context["one_time"]["password"]
    settings.PASSWORD_HASHERS = [f"{__name__}.MoreIterations"]
    assert log_in(Client(), "sepp", one_time)["Location"] == reverse("choose_password")
    sepp.refresh_from_db()
    assert not sepp.check_password(one_time)


def test_reloading_the_answer_sets_no_new_password_and_shows_none(day, english):
    t, _olga, sepp, role, olga_client = day
    one_time = set_one_time(olga_client, t, role).context["one_time"]["password"]
    sepp.refresh_from_db()
    hashed = sepp.password
    reloaded = olga_client.get(roles_url(t))  # the browser's reload repeats the GET, not the POST
    assert reloaded.context.get("one_time") is None and one_time not in reloaded.content.decode()
    assert User.objects.get(pk=sepp.pk).password == hashed
    assert ActionLog.objects.filter(tournament=t, action=ActionLog.Action.ROLE_GIVEN).count() == 1


def test_a_password_replaced_before_it_was_shown_is_not_shown(day, english):
    # A double click: the first answer's page comes after the second password was set.
    t, olga, sepp, role, olga_client = day
    olga_client.post(roles_url(t), {"one_time": str(role.pk)})
    first = olga_client.session[views_organiser.ONE_TIME_SHOWN_KEY]["password"]
    _user, second = passwords.set_one_time_password(t, role.pk, olga)
    page = olga_client.get(roles_url(t))
    text = page.content.decode()
    assert page.context.get("one_time") is None and first not in text
    assert "The one-time password just set is not shown: a newer one was set since" in text
    assert log_in(Client(), "sepp", first).status_code == 200  # the one not shown works not
    assert log_in(Client(), "sepp", second)["Location"] == reverse("choose_password")


@pytest.mark.django_db(transaction=True)
def test_setting_a_one_time_password_waits_for_a_change_of_the_user_and_checks_after_it(make_tournament):
    # While another transaction holds the user's row and gives him a role elsewhere, the
    # organiser's click waits, then sees the new role and refuses: the check and the setting
    # belong to one locked moment, so two clicks (or a click and a change) take turns.
    if connection.vendor != "postgresql":
        pytest.skip("the tests' SQLite database is in memory, where a second connection fails at once instead of waiting")
    t = make_tournament(players=4)
    olga = User.objects.create_user("olga", password="olga-Passwort-1")
    sepp = User.objects.create_user("sepp", password=OLD)
    TournamentRole.objects.create(tournament=t, user=olga, level="organiser")
    role = TournamentRole.objects.create(tournament=t, user=sepp, level="scorer")
    elsewhere = Tournament.objects.create(name="Anderswo", date=t.date, ruleset=t.ruleset, edition=t.edition)
    locked, release, outcome = threading.Event(), threading.Event(), {}

    def change_the_user():
        try:
            with transaction.atomic():
                User.objects.select_for_update().get(pk=sepp.pk)
                locked.set()
                release.wait(10)
                TournamentRole.objects.create(tournament=elsewhere, user=sepp, level="scorer")
        finally:
            connection.close()

    def set_it():
        try:
            passwords.set_one_time_password(t, role.pk, User.objects.get(pk=olga.pk))
            outcome["set"] = True
        except passwords.PasswordRefused as refused:
            outcome["refused"] = refused.message
        finally:
            connection.close()

    changer = threading.Thread(target=change_the_user)
    changer.start()
    assert locked.wait(10)
    setter = threading.Thread(target=set_it)
    setter.start()
    setter.join(0.5)
    assert setter.is_alive() and not outcome  # waiting for the lock
    release.set()
    changer.join(10)
    setter.join(10)
    assert set(outcome) == {"refused"}  # (the thread's message is in the default language)
    assert User.objects.get(pk=sepp.pk).check_password(OLD)


def refused(client, t, role, english_text):
    response = client.post(roles_url(t), {"one_time": str(role.pk)}, follow=True)
    assert english_text in response.content.decode()


def test_who_gets_no_one_time_password(day, english):
    t, olga, sepp, role, olga_client = day
    hashes = lambda: dict(User.objects.values_list("username", "password"))  # noqa: E731
    before, logged = hashes(), ActionLog.objects.count()

    # Not himself.
    refused(olga_client, t, TournamentRole.objects.get(tournament=t, user=olga), "Not for yourself")
    # Not the site administrator, nor a staff user.
    for name, flags in (("root", {"is_superuser": True, "is_staff": True}), ("staff", {"is_staff": True})):
        other = User.objects.create_user(name, password="pw-123-geheim", **flags)
        refused(olga_client, t, TournamentRole.objects.create(tournament=t, user=other, level="director"), "only the site administrator sets his password")
    # Not a user whose roles are only elsewhere.
    elsewhere = Tournament.objects.create(name="Anderswo", date=t.date, ruleset=t.ruleset, edition=t.edition)
    fremd = User.objects.create_user("fremd", password="pw-123-geheim")
    refused(olga_client, t, TournamentRole.objects.create(tournament=elsewhere, user=fremd, level="scorer"), "holds no role in this tournament")
    # Not a user who may do more than Olga: a tournament she does not organise, a cup she does not
    # keep, a site permission she lacks.
    more = "may do things you may not"
    TournamentRole.objects.create(tournament=elsewhere, user=sepp, level="scorer")
    refused(olga_client, t, role, more)
    TournamentRole.objects.filter(tournament=elsewhere, user=sepp).delete()
    cup = Cup.objects.create(name="Seppcup", ruleset=t.ruleset, method="tirol")
    cup.organisers.add(sepp)
    refused(olga_client, t, role, more)
    cup.organisers.remove(sepp)
    sepp.groups.add(organisers_group())
    refused(olga_client, t, role, more)
    assert (hashes() | {"root": None, "staff": None, "fremd": None}) == (before | {"root": None, "staff": None, "fremd": None})
    assert ActionLog.objects.count() == logged  # a refusal logs nothing
    # Once Olga may do all he may (she keeps the other tournament and is an organiser too), she may.
    olga.groups.add(organisers_group())
    TournamentRole.objects.create(tournament=elsewhere, user=olga, level="organiser")
    TournamentRole.objects.create(tournament=elsewhere, user=sepp, level="scorer")
    olga_client.force_login(User.objects.get(pk=olga.pk))
    assert set_one_time(olga_client, t, role).context["one_time"]["user"] == sepp


def test_only_the_tournaments_organiser_sets_one(day):
    t, _olga, sepp, role, _client = day
    director = User.objects.create_user("dora", password="pw-123-geheim")
    TournamentRole.objects.create(tournament=t, user=director, level="director")
    client = Client()
    client.force_login(director)
    before = User.objects.get(pk=sepp.pk).password
    assert client.post(roles_url(t), {"one_time": str(role.pk)}).status_code == 403
    assert User.objects.get(pk=sepp.pk).password == before


def test_a_reset_by_mail_also_ends_a_waiting_one_time_password(day, settings):
    settings.EMAIL_HOST = "smtp.example.org"
    t, _olga, sepp, role, olga_client = day
    set_one_time(olga_client, t, role)
    sepp.refresh_from_db()
    assert passwords.must_choose(sepp)
    client = Client()
    client.post(reverse("password_reset"), {"email": "sepp@example.at"})
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    client.post(form.redirect_chain[-1][0], {"new_password1": "Neues-Pass-77", "new_password2": "Neues-Pass-77"})
    sepp.refresh_from_db()
    assert not passwords.must_choose(sepp)
    assert log_in(Client(), "sepp", "Neues-Pass-77")["Location"] != reverse("choose_password")


# --- the access log -------------------------------------------------------------------------------


def test_the_access_log_hides_the_key_of_a_reset_link():
    path = reverse("password_reset_confirm", kwargs={"uidb64": "MTI", "token": "cj4k2m-0123456789abcdef0123456789abcdef"})
    assert redact(f"GET {path} HTTP/1.1") == f"GET {HIDDEN} HTTP/1.1"
    assert redact("GET /t/3/standings/ HTTP/1.1") == "GET /t/3/standings/ HTTP/1.1"

    class Response:
        status = "302 Found"
        headers = []
        sent = 0

    environ = {"REQUEST_METHOD": "GET", "RAW_URI": path, "SERVER_PROTOCOL": "HTTP/1.1", "PATH_INFO": path, "HTTP_REFERER": "http://x" + path}
    logger = RedactingLogger.__new__(RedactingLogger)  # atoms() reads none of its settings
    atoms = logger.atoms(Response(), [("REFERER", "http://x" + path)], environ, datetime.timedelta(0))
    assert "cj4k2m" not in str(atoms) and atoms["U"] == HIDDEN and atoms["r"] == f"GET {HIDDEN} HTTP/1.1"


def test_the_admin_shows_one_time_passwords_and_changes_none(day, admin_client):
    t, olga, sepp, role, _client = day
    passwords.set_one_time_password(t, role.pk, olga)
    record = OneTimePassword.objects.get(user=sepp)
    listing = admin_client.get(reverse("admin:tournaments_onetimepassword_changelist"))
    assert listing.status_code == 200 and "sepp" in listing.content.decode() and "olga" in listing.content.decode()
    page = admin_client.get(reverse("admin:tournaments_onetimepassword_change", args=[record.pk])).content.decode()
    assert record.password_check not in page
    assert admin_client.post(reverse("admin:tournaments_onetimepassword_delete", args=[record.pk]), {"post": "yes"}).status_code == 403
    assert OneTimePassword.objects.filter(user=sepp).exists()
