"""A venue's server refuses to start while an active account still logs in with the demo's
published password (``manage.py check_venue``, run by scripts/serve before the app server)."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from scoring.demo import DEMO_PASSWORD, DEMO_USERNAME, ensure_director


@pytest.mark.django_db
def test_the_demo_director_with_the_demo_password_is_refused_by_name_until_it_is_changed():
    ensure_director()
    get_user_model().objects.create_user("anna", password=DEMO_PASSWORD)
    get_user_model().objects.create_user("leiter", password="geheim-123")
    with pytest.raises(CommandError) as refused:
        call_command("check_venue")
    message = str(refused.value)
    assert f"“{DEMO_USERNAME}”" in message and "“anna”" in message and "leiter" not in message
    assert f".venv/bin/python manage.py changepassword {DEMO_USERNAME}" in message

    for name in (DEMO_USERNAME, "anna"):
        user = get_user_model().objects.get(username=name)
        user.set_password("a-venue-of-our-own")
        user.save()
    call_command("check_venue")  # passes


@pytest.mark.django_db
def test_inactive_accounts_and_unusable_passwords_do_not_hold_the_venue_up():
    get_user_model().objects.create_user("old-demo", password=DEMO_PASSWORD, is_active=False)
    get_user_model().objects.create_user("sso", password=None)
    call_command("check_venue")
