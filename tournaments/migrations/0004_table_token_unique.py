"""Give every existing table its own private link token, then make tokens unique and required."""

import secrets

from django.db import migrations, models

import tournaments.models


def fill_tokens(apps, schema_editor):
    Table = apps.get_model("tournaments", "Table")
    for table in Table.objects.filter(token__isnull=True).only("pk"):
        table.token = secrets.token_urlsafe(16)
        table.save(update_fields=["token"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0003_table_token_verification")]

    operations = [
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="token",
            field=models.CharField(
                default=tournaments.models.new_token,
                editable=False,
                max_length=32,
                unique=True,
                verbose_name="private link token",
            ),
        ),
    ]
