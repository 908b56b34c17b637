"""An organiser gives a role to someone without an account: on the Roles page he types the name,
confirms that the account is to be created, and gets a one-time sign-in link (and its QR code),
shown once, through which its owner chooses a password and is logged in. The link works once, for
24 hours, is kept only as a keyed digest, is voided by a newer link and by taking the role away,
and is refused with a page saying why. Every account, link made and link used is in the action
log, in whole sentences."""

import datetime
import time

import pytest
import segno
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments import passwords, sign_in_links, views_organiser
from tournaments.models import ActionLog, SignInLink, Tournament, TournamentRole

pytestmark = pytest.mark.django_db
User = get_user_model()
NEW = "Schreib-Pass-2026"


@pytest.fixture
def day(make_tournament):
    """A tournament whose organiser is Olga (logged in on ``client``)."""
    t = make_tournament(players=4)
    olga = User.objects.create_user("olga", password="olga-Passwort-1")
    TournamentRole.objects.create(tournament=t, user=olga, level="organiser")
    client = Client()
    client.force_login(olga)
    return t, olga, client


def roles_url(t):
    return reverse("tournaments_director:roles", args=[t.pk])


def create_scorer(client, t, name="anna", level="scorer"):
    """Type the name, be told there is no such account, create it: the Roles page showing the
    link (the GET after the redirect)."""
    asked = client.post(roles_url(t), {"username": name, "level": level})
    assert asked.status_code == 422, asked.content.decode()[-2000:]
    assert not User.objects.filter(username=name).exists()
    created = client.post(roles_url(t), {"username": name, "level": level, "create": name})
    assert created.status_code == 302 and created["Location"] == roles_url(t), created.content.decode()[-2000:]
    page = client.get(roles_url(t))
    assert page.status_code == 200 and page.context.get("sign_in_link"), page.content.decode()[-2000:]
    return page


def key_of(page):
    url = page.context["sign_in_link"]["url"]
    return url.rstrip("/").rsplit("/", 1)[1]


def path_of(page):
    return reverse("sign_in_link", args=[key_of(page)])


def logs_in(username, password):
    """Whether the login page takes ``username`` and ``password`` (Client.login bypasses axes)."""
    client = Client()
    response = client.post(reverse("login"), {"username": username, "password": password})
    return response.status_code == 302 and "_auth_user_id" in client.session


def choose(client, password=NEW):
    return client.post(reverse("choose_password"), {"new_password1": password, "new_password2": password})


def test_an_unknown_name_is_offered_as_a_new_account_and_nothing_is_made_without_asking(day, english):
    t, _olga, client = day
    asked = client.post(roles_url(t), {"username": "anna", "level": "scorer"})
    text = asked.content.decode()
    assert asked.status_code == 422 and "There is no account “anna” yet." in text
    assert 'name="create" value="anna"' in text and "Create “anna” and give the role" in text
    # A name edited after the offer is not created by it.
    edited = client.post(roles_url(t), {"username": "annna", "level": "scorer", "create": "anna"})
    assert edited.status_code == 422 and not User.objects.filter(username__in=["anna", "annna"]).exists()
    assert not TournamentRole.objects.filter(tournament=t, level="scorer").exists()
    assert not t.actions.filter(action__in=["account_created", "role_given"]).exists()


def test_the_account_is_created_with_a_link_shown_once_with_its_qr_code(day, english):
    t, olga, client = day
    page = create_scorer(client, t)
    anna = User.objects.get(username="anna")
    assert not anna.has_usable_password() and anna.is_active and not anna.is_staff
    assert TournamentRole.objects.get(tournament=t, user=anna).level == "scorer"
    text = page.content.decode()
    shown = page.context["sign_in_link"]
    url = shown["url"]
    assert url.startswith(django_settings.PUBLIC_URL.rstrip("/") + "/accounts/sign-in/") and url in text
    assert shown["qr"] == segno.make(url, error="m").svg_data_uri(scale=6, dark="#000", light="#fff")  # the QR code is of the link
    assert '<img src="data:image/svg+xml' in text and 'alt="QR code of the sign-in link"' in text
    assert "It works once, for 24 hours" in text and "no password yet" in text
    assert "no-store" in page["Cache-Control"]
    assert "anna is scorer of this tournament." in text
    # Shown once: not on the next visit, and kept nowhere to show again.
    again = client.get(roles_url(t)).content.decode()
    assert url not in again and "sign-in link made" in again
    key = key_of(page)
    assert key not in str(dict(client.session.items()))
    assert not any(key in str(s.get_decoded()) for s in Session.objects.all())
    link = SignInLink.objects.get(user=anna)
    assert key not in str(SignInLink.objects.filter(pk=link.pk).values().get())
    assert link.key_check == sign_in_links.key_check(key) and link.made_by == olga and link.tournament == t
    # The log, in whole sentences.
    logged = list(t.actions.order_by("pk").values_list("action", "user__username", "detail"))
    assert logged[-3:] == [
        ("account_created", "olga", "Account created: anna, without a password until a sign-in link is used"),
        ("role_given", "olga", "Role given: anna as scorer"),
        ("sign_in_link_made", "olga", "Sign-in link made for anna: it works once, for 24 hours"),
    ]


def test_the_link_lets_its_owner_choose_a_password_once_and_logs_him_in(day, english):
    t, _olga, client = day
    path = path_of(create_scorer(client, t))
    anna = User.objects.get(username="anna")
    phone = Client()
    opened = phone.get(path)
    assert opened.status_code == 302 and opened["Location"] == reverse("choose_password")
    assert "_auth_user_id" not in phone.session  # not logged in: only allowed to choose
    assert phone.get(reverse("tournaments_director:registrations", args=[t.pk])).status_code == 302
    # Opening it is no use: a messenger's preview opening it first changes nothing.
    assert Client().get(path).status_code == 302
    assert SignInLink.objects.get(user=anna).used_at is None
    form = phone.get(reverse("choose_password"))
    assert form.status_code == 200 and "Welcome, anna!" in form.content.decode()
    mismatch = phone.post(reverse("choose_password"), {"new_password1": NEW, "new_password2": NEW + "x"})
    assert mismatch.status_code == 200 and SignInLink.objects.get(user=anna).used_at is None
    done = choose(phone)
    assert done.status_code == 302 and done["Location"] == t.get_absolute_url()
    assert int(phone.session["_auth_user_id"]) == anna.pk
    anna.refresh_from_db()
    assert anna.check_password(NEW)
    entry = t.actions.get(action=ActionLog.Action.SIGN_IN_LINK_USED)
    assert (entry.user, entry.detail) == (anna, "anna chose a password through the sign-in link and is logged in")
    # Used twice: refused, saying so.
    twice = Client().get(path)
    assert twice.status_code == 410 and "This sign-in link was used already" in twice.content.decode()
    assert logs_in("anna", NEW)


def test_of_two_browsers_only_the_first_to_choose_gets_in(day, english):
    t, _olga, client = day
    path = path_of(create_scorer(client, t))
    first, second = Client(), Client()
    first.get(path)
    second.get(path)
    assert choose(first).status_code == 302
    late = choose(second, "Anderes-Pass-99")
    assert late.status_code == 410 and "used already" in late.content.decode()
    assert "_auth_user_id" not in second.session
    assert User.objects.get(username="anna").check_password(NEW)


def test_the_link_works_for_24_hours(day, english, monkeypatch):
    t, _olga, client = day
    path = path_of(create_scorer(client, t))
    made = SignInLink.objects.get().made_at
    monkeypatch.setattr(timezone, "now", lambda: made + datetime.timedelta(hours=23, minutes=59))
    assert Client().get(path).status_code == 302
    monkeypatch.setattr(timezone, "now", lambda: made + datetime.timedelta(hours=24, seconds=1))
    late = Client().get(path)
    assert late.status_code == 410
    assert "This sign-in link has expired: it works for 24 hours after it is made." in late.content.decode()


def test_choosing_waits_only_a_while(day, english, monkeypatch):
    t, _olga, client = day
    path = path_of(create_scorer(client, t))
    phone = Client()
    phone.get(path)
    later = time.time() + passwords.CHOOSE_WITHIN_SECONDS + 1
    monkeypatch.setattr(time, "time", lambda: later)
    slow = choose(phone)
    assert slow.status_code == 410 and "open the sign-in link again" in slow.content.decode()
    monkeypatch.undo()
    assert Client().get(path).status_code == 302  # the link itself still works


def test_a_new_link_voids_the_one_before(day, english):
    t, _olga, client = day
    old_path = path_of(create_scorer(client, t))
    role = TournamentRole.objects.get(tournament=t, level="scorer")
    assert client.post(roles_url(t), {"sign_in_link": str(role.pk)}).status_code == 302
    page = client.get(roles_url(t))
    new_path = path_of(page)
    assert new_path != old_path
    void = Client().get(old_path)
    assert void.status_code == 410 and "a newer one was made since" in void.content.decode()
    assert Client().get(new_path).status_code == 302
    assert t.actions.filter(action="sign_in_link_made").count() == 2


def test_a_link_made_twice_before_it_was_shown_is_not_shown(day, english, monkeypatch):
    # A double click: the first redirect's page would show a link the second one voided.
    t, _olga, client = day
    create_scorer(client, t)
    role = TournamentRole.objects.get(tournament=t, level="scorer")
    client.post(roles_url(t), {"sign_in_link": str(role.pk)})
    stale = dict(client.session[views_organiser.LINK_SHOWN_KEY])
    client.post(roles_url(t), {"sign_in_link": str(role.pk)})
    session = client.session
    session[views_organiser.LINK_SHOWN_KEY] = stale
    session.save()
    page = client.get(roles_url(t))
    assert "sign_in_link" not in page.context and "The sign-in link just made is not shown" in page.content.decode()


def test_taking_the_role_away_voids_the_link_even_while_choosing(day, english):
    t, _olga, client = day
    path = path_of(create_scorer(client, t))
    phone = Client()
    phone.get(path)
    role = TournamentRole.objects.get(tournament=t, level="scorer")
    client.post(reverse("tournaments_director:remove_role", args=[t.pk]), {"role": str(role.pk)})
    refused = choose(phone)
    assert refused.status_code == 410 and "the role it was made for was taken away" in refused.content.decode()
    assert "_auth_user_id" not in phone.session and not User.objects.get(username="anna").has_usable_password()
    assert Client().get(path).status_code == 410
    assert t.actions.get(action="role_removed").detail == (
        "Role taken away: anna was scorer; the sign-in link made for this role works no more"
    )


def test_the_link_of_an_organiser_who_is_none_any_more_is_refused(day, english):
    t, olga, client = day
    path = path_of(create_scorer(client, t))
    TournamentRole.objects.filter(tournament=t, user=olga).update(level="director")
    refused = Client().get(path)
    assert refused.status_code == 410 and "works no more: your rights, or those of the organiser" in refused.content.decode()


def test_an_existing_user_gets_a_link_and_keeps_his_password_until_it_is_used(day, english):
    t, _olga, client = day
    sepp = User.objects.create_user("sepp", password="alt-Passwort-99")
    role = TournamentRole.objects.create(tournament=t, user=sepp, level="director")
    client.post(roles_url(t), {"sign_in_link": str(role.pk)})
    path = path_of(client.get(roles_url(t)))
    assert logs_in("sepp", "alt-Passwort-99")
    phone = Client()
    phone.get(path)
    assert choose(phone).status_code == 302
    sepp.refresh_from_db()
    assert sepp.check_password(NEW) and not logs_in("sepp", "alt-Passwort-99")


def test_who_may_get_a_link_follows_the_one_time_password_rules(day, english, make_tournament):
    t, olga, client = day
    own = TournamentRole.objects.get(tournament=t, user=olga)
    client.post(roles_url(t), {"sign_in_link": str(own.pk)})
    assert "Not for yourself" in client.get(roles_url(t)).content.decode()
    # A scorer of another tournament too: whoever opens the link could act there as him.
    karl = User.objects.create_user("karl", password="karl-Passwort-1")
    role = TournamentRole.objects.create(tournament=t, user=karl, level="scorer")
    TournamentRole.objects.create(tournament=make_tournament(players=4, name="Anderswo"), user=karl, level="scorer")
    client.post(roles_url(t), {"sign_in_link": str(role.pk)})
    assert "may do things you may not" in client.get(roles_url(t)).content.decode()
    assert not SignInLink.objects.exists() and not t.actions.filter(action="sign_in_link_made").exists()
    # A director gives no roles and makes no links.
    helper = User.objects.create_user("helfer", password="x-Passwort-1")
    TournamentRole.objects.create(tournament=t, user=helper, level="director")
    director = Client()
    director.force_login(helper)
    assert director.post(roles_url(t), {"sign_in_link": str(role.pk)}).status_code == 403
    assert director.post(roles_url(t), {"username": "neu", "level": "scorer", "create": "neu"}).status_code == 403
    assert not User.objects.filter(username="neu").exists()


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("Anna Huber", "cannot be a user name"),
        ("OLGA", "there is “olga”"),
    ],
)
def test_a_name_that_cannot_be_an_account_is_refused(day, english, name, says):
    t, _olga, client = day
    refused = client.post(roles_url(t), {"username": name, "level": "scorer", "create": name})
    assert refused.status_code == 422 and says in refused.content.decode()
    assert User.objects.count() == 1


def test_a_switched_off_account_gets_no_role(day, english):
    t, _olga, client = day
    User.objects.create_user("alt", password="x-Passwort-1", is_active=False)
    refused = client.post(roles_url(t), {"username": "alt", "level": "scorer", "create": "alt"})
    assert refused.status_code == 422 and "switched off" in refused.content.decode()
    assert not TournamentRole.objects.filter(user__username="alt").exists()


def test_an_unknown_or_mangled_link_is_refused_with_a_page(day, english):
    for key in ("x", "a" * 43, "a" * 500):
        page = Client().get(reverse("sign_in_link", args=[key]))
        assert page.status_code == 410 and "This sign-in link does not work" in page.content.decode()


def test_a_deleted_tournament_takes_its_links_with_it(day, english):
    t, _olga, client = day
    path = path_of(create_scorer(client, t))
    Tournament.objects.filter(pk=t.pk).delete()
    assert Client().get(path).status_code == 410


def test_no_page_of_a_link_sends_its_key_on(day, english):
    """The key is in the link's address: none of its answers lets a browser send that address as a
    Referer (of the page's stylesheet, scripts and icon, or a link followed from it), and the
    refused page's "Log in" link and language switch lead to the tournament list, not back to it."""
    t, _olga, client = day
    key = key_of(create_scorer(client, t))
    path = reverse("sign_in_link", args=[key])
    opened = Client().get(path)
    assert opened.status_code == 302 and opened["Referrer-Policy"] == "no-referrer"
    phone = Client()
    phone.get(path)
    choose(phone)
    for refused in (Client().get(path), Client().get(reverse("sign_in_link", args=["a" * 43]))):
        text = refused.content.decode()
        assert refused.status_code == 410 and "This sign-in link" in text
        assert refused["Referrer-Policy"] == "no-referrer"
        assert key not in text and "a" * 43 not in text and "/accounts/sign-in/" not in text
        assert f'href="{reverse("login")}?next=/"' in text  # the header's "Log in"
        assert '<input name="next" type="hidden" value="/">' in text  # the language switch
    # Other pages keep the site's policy.
    assert Client().get(reverse("login"))["Referrer-Policy"] == "same-origin"


def test_a_link_refused_to_a_non_organiser_says_sign_in_link(day, english):
    t, _olga, _client = day
    helper = User.objects.create_user("helfer", password="x-Passwort-1")
    TournamentRole.objects.create(tournament=t, user=helper, level="director")
    karl = User.objects.create_user("karl", password="karl-Passwort-1")
    role = TournamentRole.objects.create(tournament=t, user=karl, level="scorer")
    with pytest.raises(sign_in_links.LinkRefused) as refused:
        sign_in_links.make_link(t, role.pk, helper)
    assert refused.value.message == "Only an organiser of this tournament makes sign-in links."
    with pytest.raises(passwords.PasswordRefused) as refused:
        passwords.set_one_time_password(t, role.pk, helper)
    assert refused.value.message == "Only an organiser of this tournament sets one-time passwords."
    assert not SignInLink.objects.exists()
