"""The login locks out after repeated wrong passwords, a password is reset by e-mail
through Django's own views, and ``next`` only leads to this site."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client


@pytest.fixture
def anna(db):
    return get_user_model().objects.create_user("anna", email="anna@example.at", password="richtig-123")


def log_in(client, password, username="anna", next_url=None):
    data = {"username": username, "password": password}
    if next_url is not None:
        data["next"] = next_url
    return client.post("/accounts/login/", data)


@pytest.mark.django_db
def test_five_wrong_passwords_lock_the_login_even_for_the_right_one(anna, settings, english):
    settings.AXES_FAILURE_LIMIT = 5
    client = Client()
    for _ in range(4):
        assert log_in(client, "falsch").status_code == 200  # the form again, with its error
    locked = log_in(client, "falsch")
    assert locked.status_code == 429 and "Login locked" in locked.content.decode()
    assert log_in(client, "richtig-123").status_code == 429  # the right password does not help now
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_another_user_name_from_the_same_hall_is_not_locked(anna, settings):
    settings.AXES_FAILURE_LIMIT = 3
    get_user_model().objects.create_user("bert", password="bert-pass-123")
    client = Client()
    for _ in range(3):
        log_in(client, "falsch")
    assert log_in(Client(), "bert-pass-123", username="bert").status_code == 302  # same address, other name


@pytest.mark.django_db
def test_a_success_resets_the_count(anna, settings):
    settings.AXES_FAILURE_LIMIT = 3
    client = Client()
    log_in(client, "falsch")
    log_in(client, "falsch")
    assert log_in(client, "richtig-123").status_code == 302
    client.post("/accounts/logout/")
    log_in(client, "falsch")
    log_in(client, "falsch")
    assert log_in(client, "richtig-123").status_code == 302


@pytest.mark.django_db
def test_password_reset_by_e_mail(anna, english, settings):
    settings.EMAIL_HOST = "smtp.example.org"  # a mail server: links are sent (the tests' backend keeps them)
    client = Client()
    response = client.post("/accounts/password-reset/", {"email": "anna@example.at"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["anna@example.at"]
    link = re.search(r"https?://[^/\s]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "new password" in form.content.decode().lower()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": "Neues-Passwort-77", "new_password2": "Neues-Passwort-77"})
    assert done.status_code == 302
    anna.refresh_from_db()
    assert anna.check_password("Neues-Passwort-77")
    again = client.get(link, follow=True)  # used once
    assert "not valid any more" in again.content.decode()


@pytest.mark.django_db
def test_an_unknown_address_gets_the_same_answer_and_no_mail(anna, settings):
    settings.EMAIL_HOST = "smtp.example.org"
    response = Client().post("/accounts/password-reset/", {"email": "niemand@example.at"})
    assert response.status_code == 302 and mail.outbox == []


@pytest.mark.django_db
@pytest.mark.parametrize("target", ["https://evil.example/", "//evil.example/x", "http://evil.example"])
def test_next_leads_only_to_this_site(anna, target):
    response = log_in(Client(), "richtig-123", next_url=target)
    assert response.status_code == 302 and "evil" not in response["Location"]


@pytest.mark.django_db
def test_next_on_this_site_is_followed(anna):
    response = log_in(Client(), "richtig-123", next_url="/t/1/standings/")
    assert response["Location"] == "/t/1/standings/"
