"""The prizes and the background export jobs left for :mod:`scoring.prizes` and
:mod:`scoring.exporters` (their migrations 0001 take them over with their tables): the state only,
no table is dropped."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ('scoring', '0007_sheet_confirmation_version'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='prizecategory',
                    name='members',
                ),
                migrations.RemoveField(
                    model_name='prizecategory',
                    name='tournament',
                ),
                migrations.RemoveField(
                    model_name='prizefund',
                    name='tournament',
                ),
                migrations.DeleteModel(
                    name='ExportJob',
                ),
                migrations.DeleteModel(
                    name='PrizeCategory',
                ),
                migrations.DeleteModel(
                    name='PrizeFund',
                ),
            ],
        ),
    ]
