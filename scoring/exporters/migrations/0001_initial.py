"""The background export jobs' model, moved here from :mod:`scoring` with its table: the state
only, no row copied (the table keeps its name, ``db_table``)."""

import django.db.models.deletion
from django.db import migrations, models

from scoring.moved_models import rename_content_types


def queued_tasks_follow_the_task(apps, schema_editor):
    """Tasks queued before the move name the task by its old path: the worker finds it at the new
    one."""
    DBTaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
    DBTaskResult.objects.filter(task_path="scoring.tasks.render_export").update(task_path="scoring.exporters.tasks.render_export")


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('django_tasks_database', '0021_conditional_partial_index_ordering'),
        ('scoring', '0008_prizes_and_export_jobs_moved_to_their_apps'),
        ('tournaments', '0020_sign_in_link'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='ExportJob',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('exporter', models.CharField(max_length=60)),
                        ('params_key', models.CharField(blank=True, max_length=200)),
                        ('params', models.JSONField(blank=True, default=dict)),
                        ('language', models.CharField(max_length=10)),
                        ('stamp', models.CharField(max_length=60)),
                        ('status', models.CharField(choices=[('queued', 'waiting for the worker'), ('running', 'being prepared'), ('done', 'ready'), ('failed', 'failed')], default='queued', max_length=10)),
                        ('done', models.PositiveIntegerField(default=0)),
                        ('total', models.PositiveIntegerField(default=0)),
                        ('file', models.CharField(blank=True, max_length=300)),
                        ('error', models.TextField(blank=True)),
                        ('failure', models.CharField(blank=True, choices=[('', 'an error'), ('disk_full', "the server's disk is full"), ('worker_lost', 'the worker stopped every time')], default='', max_length=20)),
                        ('lease_until', models.DateTimeField(blank=True, null=True)),
                        ('attempts', models.PositiveSmallIntegerField(default=0)),
                        ('created', models.DateTimeField(auto_now_add=True)),
                        ('updated', models.DateTimeField(auto_now=True)),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='export_jobs', to='tournaments.tournament')),
                    ],
                    options={
                        'db_table': 'scoring_exportjob',
                        'constraints': [models.UniqueConstraint(fields=('tournament', 'exporter', 'params_key', 'language', 'stamp'), name='one_job_per_export_version')],
                    },
                ),
            ],
        ),
        rename_content_types("scoring", "exporters", ["exportjob"]),
        migrations.RunPython(queued_tasks_follow_the_task, migrations.RunPython.noop),
    ]
