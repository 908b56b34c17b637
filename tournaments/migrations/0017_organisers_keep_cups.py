"""Organisers keep the season cups: the "Organisers" group gets the permissions to
create and change cups, as it has those to create tournaments and keep the player register."""

from django.db import migrations


def cup_permissions(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():  # the permissions of a new model exist only after migrate
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _created = Group.objects.get_or_create(name="Organisers")
    group.permissions.add(*Permission.objects.filter(content_type__app_label="tournaments", codename__in=["add_cup", "change_cup"]))


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0016_cups")]
    operations = [migrations.RunPython(cup_permissions, migrations.RunPython.noop)]
