"""The prizes' models, moved here from :mod:`scoring` with their tables: the state only, no row
copied (the tables keep their names, ``db_table``)."""

import django.db.models.deletion
from django.db import migrations, models

from scoring.moved_models import rename_content_types


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('scoring', '0008_prizes_and_export_jobs_moved_to_their_apps'),
        ('tournaments', '0020_sign_in_link'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='PrizeFund',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('entry_fee', models.DecimalField(decimal_places=2, default=0, max_digits=8, verbose_name='entry fee')),
                        ('payout_percent', models.DecimalField(decimal_places=2, default=100, help_text="The share of all entry fees that the places' shares divide.", max_digits=5, verbose_name='paid out as prizes (%)')),
                        ('kontra_amount', models.DecimalField(decimal_places=2, default=0, help_text='Every kontra, rekontra ... recorded on a hand adds this to the kontra pot.', max_digits=6, verbose_name='per kontra, for charity')),
                        ('currency', models.CharField(default='€', max_length=8, verbose_name='currency')),
                        ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='prize_fund', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'prize fund',
                        'verbose_name_plural': 'prize funds',
                        'db_table': 'scoring_prizefund',
                    },
                ),
                migrations.CreateModel(
                    name='PrizeCategory',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('order', models.PositiveSmallIntegerField(default=0, verbose_name='order')),
                        ('kind', models.CharField(choices=[('places', 'places of the final standings'), ('group', 'best of a group'), ('plus', 'every player finishing in plus'), ('last', 'last place (Mauskönig)'), ('best_hand', 'best hand of the day')], default='places', max_length=12, verbose_name='kind')),
                        ('name', models.CharField(max_length=80, verbose_name='name')),
                        ('places', models.PositiveSmallIntegerField(default=1, verbose_name='places')),
                        ('shares', models.CharField(blank=True, max_length=200, verbose_name='shares of the prize money (%)')),
                        ('amount', models.DecimalField(blank=True, decimal_places=2, max_digits=8, null=True, verbose_name='amount for each winner')),
                        ('description', models.CharField(blank=True, max_length=200, verbose_name='prize')),
                        ('club', models.CharField(blank=True, max_length=120, verbose_name='club')),
                        ('members', models.ManyToManyField(blank=True, related_name='+', to='tournaments.registration', verbose_name='members')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='prize_categories', to='tournaments.tournament')),
                    ],
                    options={
                        'verbose_name': 'prize category',
                        'verbose_name_plural': 'prize categories',
                        'db_table': 'scoring_prizecategory',
                        'ordering': ['tournament', 'order', 'pk'],
                        'constraints': [models.UniqueConstraint(fields=('tournament', 'name'), name='unique_prize_category_name')],
                    },
                ),
            ],
        ),
        rename_content_types("scoring", "prizes", ["prizefund", "prizecategory"]),
    ]
