"""Every tournament gets its identifier across sites (existing ones a new random one each), and the
mark of a read-only mirror."""

import uuid

from django.db import migrations, models


def give_identifiers(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    for pk in Tournament.objects.values_list("pk", flat=True):
        Tournament.objects.filter(pk=pk).update(uid=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0021_cups_moved_to_their_app")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="uid",
            field=models.UUIDField(editable=False, null=True, verbose_name="identifier"),
        ),
        migrations.RunPython(give_identifiers, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tournament",
            name="uid",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True, verbose_name="identifier"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="mirrored_from",
            field=models.CharField(blank=True, default="", editable=False, max_length=300, verbose_name="mirrored from"),
        ),
    ]
