"""The action log keeps its actor's name beside the user (filled in for the entries written so far),
cups get their organisers (the organisers of the cup's tournaments, for the cups kept so far) and an
action log of their own."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def fill_names_and_organisers(apps, schema_editor):
    ActionLog = apps.get_model("tournaments", "ActionLog")
    User = apps.get_model(settings.AUTH_USER_MODEL)
    # One UPDATE for the whole log (a long day's log holds tens of thousands of entries).
    username = User.objects.filter(pk=models.OuterRef("user_id")).values("username")[:1]
    ActionLog.objects.filter(user__isnull=False).update(user_name=models.Subquery(username))
    Cup = apps.get_model("tournaments", "Cup")
    TournamentRole = apps.get_model("tournaments", "TournamentRole")
    for cup in Cup.objects.all():
        users = TournamentRole.objects.filter(tournament__cup=cup, level="organiser").values_list("user_id", flat=True)
        cup.organisers.add(*set(users))


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0017_organisers_keep_cups'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='actionlog',
            name='user_name',
            field=models.CharField(blank=True, max_length=150, verbose_name='by (name)'),
        ),
        migrations.AddField(
            model_name='cup',
            name='organisers',
            field=models.ManyToManyField(blank=True, related_name='organised_cups', to=settings.AUTH_USER_MODEL, verbose_name='organisers'),
        ),
        migrations.CreateModel(
            name='CupAction',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('action', models.CharField(choices=[('created', 'cup created'), ('edited', 'cup settings changed'), ('ranking_added', 'sub-ranking added'), ('ranking_changed', 'sub-ranking changed'), ('ranking_removed', 'sub-ranking removed'), ('results_imported', 'results imported'), ('results_removed', 'imported results removed'), ('tournament_joined', 'tournament joined the cup'), ('tournament_left', 'tournament left the cup'), ('organiser_added', 'organiser added'), ('organiser_removed', 'organiser removed')], max_length=24, verbose_name='action')),
                ('detail', models.TextField(blank=True, verbose_name='detail')),
                ('user_name', models.CharField(blank=True, max_length=150, verbose_name='by (name)')),
                ('created', models.DateTimeField(auto_now_add=True, db_index=True, verbose_name='when')),
                ('cup', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='actions', to='tournaments.cup')),
                ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='by')),
            ],
            options={
                'verbose_name': 'cup action log entry',
                'verbose_name_plural': 'cup action log',
                'ordering': ['created', 'pk'],
            },
        ),
        migrations.RunPython(fill_names_and_organisers, migrations.RunPython.noop),
    ]
