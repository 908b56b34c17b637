"""One-time passwords get a table of their own (OneTimePassword: who set it for whom, in which
tournament, when, and the keyed check of the password hash as set) instead of the name of a Django
auth group per password ("Must choose a new password: set by user 12 in tournament 7 at … UTC,
check 3fa9…").

Those groups are not converted: they are deleted, and a one-time password still pending in one
simply stops working — its user's password is replaced by a random one nobody knows (as when a
one-time password is used or refused), so it can never turn into an ordinary password its
organiser knows. The organiser sets a new one on the Roles page. A member whose password no longer
matches the group's check (the site administrator set one since) keeps his password: it is an
ordinary one already. A one-time password lives 24 hours, so few users, if any, are concerned.
Reversing this migration drops the table and brings back no group."""

import re
import secrets

import django.db.models.deletion
from django.conf import settings
from django.contrib.auth.hashers import make_password
from django.db import migrations, models
from django.utils.crypto import salted_hmac

OLD_GROUP_PREFIX = "Must choose a new password"
OLD_CHECK = re.compile(r", check ([0-9a-f]{16})\Z")


def old_check(password_hash):
    """The 16-digit check the group names recorded (the passwords module's check before this)."""
    return salted_hmac("tournaments.passwords.one_time", password_hash, algorithm="sha256").hexdigest()[:16]


def end_one_time_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    groups = Group.objects.filter(name__startswith=OLD_GROUP_PREFIX)
    for group in groups:
        found = OLD_CHECK.search(group.name)
        for user in User.objects.filter(groups=group):
            # A name that records no check was treated as a one-time password (refused as too old).
            if found is None or old_check(user.password) == found.group(1):
                user.password = make_password(secrets.token_urlsafe(32))
                user.save(update_fields=["password"])
    groups.delete()


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0018_actor_names_cup_organisers_cup_log'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('auth', '0012_alter_user_first_name_max_length'),
    ]

    operations = [
        migrations.CreateModel(
            name='OneTimePassword',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('set_at', models.DateTimeField(verbose_name='set at')),
                ('password_check', models.CharField(max_length=64, verbose_name='password check')),
                ('set_by', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='set by')),
                ('tournament', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='tournaments.tournament', verbose_name='tournament')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='one_time_password', to=settings.AUTH_USER_MODEL, verbose_name='user')),
            ],
            options={
                'verbose_name': 'one-time password',
                'verbose_name_plural': 'one-time passwords',
            },
        ),
        migrations.RunPython(end_one_time_groups, migrations.RunPython.noop),
    ]
