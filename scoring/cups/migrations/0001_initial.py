"""The season cups' models, moved here from :mod:`tournaments` with their tables: the state
only, no row copied (the tables keep their names, ``db_table``)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from scoring.moved_models import rename_content_types

import tournaments.models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('tournaments', '0020_sign_in_link'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='Cup',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=200, unique=True, validators=[tournaments.models.no_bidi_controls], verbose_name='name')),
                        ('ruleset', models.CharField(max_length=40, verbose_name='ruleset')),
                        ('method', models.CharField(choices=[('tirol', 'Tirol formula (Punktespiegel)'), ('wtc_fixpunkte', 'WTC Fixpunkte (ranks 1–50)'), ('heine', 'Heine points (from the tournament total)')], max_length=16, verbose_name='cup points')),
                        ('counting', models.CharField(default='all', help_text="“all”, “half” (the best half, the Heine rule) or a number: each player's best results.", max_length=8, verbose_name='results counted')),
                        ('final_top', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='final: the best')),
                        ('final_min_played', models.PositiveSmallIntegerField(blank=True, null=True, verbose_name='final: tournaments played at least')),
                        ('version', models.PositiveBigIntegerField(default=0, editable=False, verbose_name='version')),
                        ('created', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                        ('organisers', models.ManyToManyField(blank=True, related_name='organised_cups', to=settings.AUTH_USER_MODEL, verbose_name='organisers')),
                    ],
                    options={
                        'verbose_name': 'cup',
                        'verbose_name_plural': 'cups',
                        'db_table': 'tournaments_cup',
                        'ordering': ['-created', 'name'],
                    },
                ),
                migrations.CreateModel(
                    name='CupAction',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('user_name', models.CharField(blank=True, max_length=150, verbose_name='by (name)')),
                        ('created', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='when')),
                        ('action', models.CharField(choices=[('created', 'cup created'), ('edited', 'cup settings changed'), ('ranking_added', 'sub-ranking added'), ('ranking_changed', 'sub-ranking changed'), ('ranking_removed', 'sub-ranking removed'), ('results_imported', 'results imported'), ('results_removed', 'imported results removed'), ('tournament_joined', 'tournament joined the cup'), ('tournament_left', 'tournament left the cup'), ('organiser_added', 'organiser added'), ('organiser_removed', 'organiser removed')], max_length=24, verbose_name='action')),
                        ('detail', models.TextField(blank=True, verbose_name='detail')),
                        ('cup', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='actions', to='cups.cup')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
                    ],
                    options={
                        'verbose_name': 'cup action log entry',
                        'verbose_name_plural': 'cup action log',
                        'db_table': 'tournaments_cupaction',
                        'ordering': ['created', 'pk'],
                        'abstract': False,
                    },
                ),
                migrations.CreateModel(
                    name='CupRanking',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('club', models.CharField(blank=True, max_length=120, verbose_name='club')),
                        ('away_only', models.BooleanField(default=False, verbose_name='away tournaments only')),
                        ('cup', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rankings', to='cups.cup')),
                        ('members', models.ManyToManyField(blank=True, related_name='+', to='tournaments.player', verbose_name='members')),
                    ],
                    options={
                        'verbose_name': 'sub-ranking',
                        'verbose_name_plural': 'sub-rankings',
                        'db_table': 'tournaments_cupranking',
                        'ordering': ['cup', 'name'],
                        'constraints': [models.UniqueConstraint(fields=('cup', 'name'), name='unique_cup_ranking_name')],
                    },
                ),
                migrations.CreateModel(
                    name='CupResult',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('event', models.CharField(max_length=200, verbose_name='tournament')),
                        ('date', models.DateField(verbose_name='date')),
                        ('away', models.BooleanField(default=False, verbose_name='away')),
                        ('rank', models.PositiveIntegerField(verbose_name='rank')),
                        ('field_size', models.PositiveIntegerField(verbose_name='players')),
                        ('total', models.IntegerField(blank=True, null=True, verbose_name='total')),
                        ('cup', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='imported_results', to='cups.cup')),
                        ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='cup_results', to='tournaments.player')),
                    ],
                    options={
                        'verbose_name': 'imported cup result',
                        'verbose_name_plural': 'imported cup results',
                        'db_table': 'tournaments_cupresult',
                        'ordering': ['date', 'event', 'rank'],
                        'constraints': [models.UniqueConstraint(fields=('cup', 'event', 'date', 'player'), name='one_result_per_event_player')],
                    },
                ),
            ],
        ),
        rename_content_types("tournaments", "cups", ["cup", "cupranking", "cupresult", "cupaction"]),
    ]
