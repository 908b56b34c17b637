"""The draw log becomes the tournament's action log, and tournaments get roles.

Existing installations keep working the day they upgrade: every active staff user, who could
change every tournament until now, becomes organiser of the tournaments that exist and joins the
"Organisers" group (create tournaments, keep the player register). New tournaments follow the new
rules: their creator is their organiser and gives the other roles."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

ORGANISER_PERMISSIONS = ["add_tournament", "add_player", "change_player", "delete_player"]


def organisers_group(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():  # the permissions of a new database exist only after migrate
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    Tournament = apps.get_model("tournaments", "Tournament")
    TournamentRole = apps.get_model("tournaments", "TournamentRole")
    group, _created = Group.objects.get_or_create(name="Organisers")
    group.permissions.add(
        *Permission.objects.filter(content_type__app_label="tournaments", codename__in=ORGANISER_PERMISSIONS)
    )
    staff = list(User.objects.filter(is_staff=True, is_active=True, is_superuser=False))
    for user in staff:
        user.groups.add(group)
    TournamentRole.objects.bulk_create(
        [TournamentRole(tournament=t, user=u, level="organiser") for t in Tournament.objects.all() for u in staff],
        ignore_conflicts=True,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0011_layout_version"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameModel("DrawLog", "ActionLog"),
        migrations.AlterModelOptions(
            name="actionlog",
            options={"ordering": ["created", "pk"], "verbose_name": "action log entry", "verbose_name_plural": "action log"},
        ),
        migrations.AlterField(
            model_name="actionlog",
            name="tournament",
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="actions", to="tournaments.tournament"),
        ),
        migrations.AlterField(
            model_name="actionlog",
            name="round_number",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="round"),
        ),
        migrations.AlterField(
            model_name="actionlog",
            name="action",
            field=models.CharField(
                choices=[
                    ("drawn", "drawn"), ("deleted", "deleted to draw again"), ("swapped", "players swapped"),
                    ("substitute", "substitute seated"), ("left", "player left the table"), ("verified", "round verified"),
                    ("reopened", "verified round reopened"), ("registered", "players registered"),
                    ("unregistered", "registration removed"), ("withdrawn", "player withdrawn"),
                    ("reinstated", "player reinstated"), ("lots", "lots recorded"), ("table_ended", "table ended"),
                    ("flag_resolved", "flag resolved"), ("edited", "tournament settings changed"),
                    ("player_edited", "player changed"), ("players_merged", "players merged"), ("role_given", "role given"),
                    ("role_removed", "role removed"), ("created", "tournament created"),
                ],
                max_length=24,
                verbose_name="action",
            ),
        ),
        migrations.AlterField(
            model_name="actionlog",
            name="created",
            field=models.DateTimeField(auto_now_add=True, db_index=True, verbose_name="when"),
        ),
        migrations.AddField(
            model_name="actionlog",
            name="reason",
            field=models.TextField(blank=True, verbose_name="reason"),
        ),
        migrations.CreateModel(
            name="TournamentRole",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("level", models.CharField(choices=[("organiser", "organiser"), ("director", "director"), ("scorer", "scorer")], max_length=12, verbose_name="role")),
                ("created", models.DateTimeField(auto_now_add=True, verbose_name="given")),
                ("tournament", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="roles", to="tournaments.tournament")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="tournament_roles", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "verbose_name": "tournament role",
                "verbose_name_plural": "tournament roles",
                "ordering": ["tournament", "level", "user__username"],
            },
        ),
        migrations.AddConstraint(
            model_name="tournamentrole",
            constraint=models.UniqueConstraint(fields=("tournament", "user"), name="one_role_per_user_and_tournament"),
        ),
        migrations.RunPython(organisers_group, migrations.RunPython.noop),
    ]
