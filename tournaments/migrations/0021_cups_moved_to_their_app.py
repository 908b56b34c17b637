"""The season cups' models left for :mod:`scoring.cups` (its migration 0001 takes them over with
their tables): the state only, no table is dropped."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ('cups', '0001_initial'),
        ('tournaments', '0020_sign_in_link'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RemoveField(
                    model_name='cupaction',
                    name='cup',
                ),
                migrations.RemoveField(
                    model_name='cupresult',
                    name='cup',
                ),
                migrations.AlterField(
                    model_name='tournament',
                    name='cup',
                    field=models.ForeignKey(blank=True, help_text='The season cup this tournament counts for (a cup of its ruleset).', null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='tournaments', to='cups.cup', verbose_name='cup'),
                ),
                migrations.RemoveField(
                    model_name='cupranking',
                    name='cup',
                ),
                migrations.RemoveField(
                    model_name='cupaction',
                    name='user',
                ),
                migrations.RemoveField(
                    model_name='cupranking',
                    name='members',
                ),
                migrations.RemoveField(
                    model_name='cupresult',
                    name='player',
                ),
                migrations.DeleteModel(
                    name='Cup',
                ),
                migrations.DeleteModel(
                    name='CupAction',
                ),
                migrations.DeleteModel(
                    name='CupRanking',
                ),
                migrations.DeleteModel(
                    name='CupResult',
                ),
            ],
        ),
    ]
