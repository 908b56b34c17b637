"""The migrations of the layout move take a database of before it over without copying a row.

The cups' models (``tournaments`` → ``cups``), the prizes' (``scoring`` → ``prizes``) and the
export jobs' (``scoring`` → ``exporters``) keep their tables: the migrations only move them in
Django's state, give their content types the new app label (so the Organisers' permissions and
admin log entries keep pointing at them) and let queued export tasks name the task's new path.
Here the database is migrated back to just before the move (tournaments 0020, scoring 0007, the
new apps at zero), rows are written through the historical models of then, and after migrating
forward the same rows are read through today's models.
"""

import datetime

import pytest
from django.contrib.auth import get_user_model
from django.contrib.contenttypes.models import ContentType
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from scoring.cups.models import Cup, CupAction, CupRanking, CupResult
from scoring.exporters.models import ExportJob
from scoring.prizes.models import PrizeCategory, PrizeFund
from tournaments.models import Tournament

BEFORE = [
    ("tournaments", "0020_sign_in_link"),
    ("scoring", "0007_sheet_confirmation_version"),
    ("cups", None),
    ("prizes", None),
    ("exporters", None),
]
OLD_TASK = "scoring.tasks.render_export"
NEW_TASK = "scoring.exporters.tasks.render_export"


def migrate(targets=None):
    """Migrate the test database to ``targets`` (``None``: every app's latest) and return the
    executor, its graph rebuilt from the database."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets if targets is not None else executor.loader.graph.leaf_nodes())
    executor.loader.build_graph()
    return executor


def historical_apps(executor):
    """The models as they were before the move (the state at :data:`BEFORE`, with the apps whose
    models the rows below need)."""
    graph = executor.loader.graph
    nodes = [node for node in BEFORE if node[1] is not None]
    nodes += [leaf for app in ("auth", "contenttypes", "django_tasks_database") for leaf in graph.leaf_nodes(app)]
    return executor.loader.project_state(nodes).apps


def write_rows_before_the_move(apps) -> dict:
    """A tournament of a cup (with an organiser, a sub-ranking with a member, an imported result
    and a log entry), a prize fund and a group prize with a member, an export job and its queued
    task, and the Organisers' cup permissions, all through the historical models. Returns their
    ids."""
    User = apps.get_model("auth", "User")
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    ContentTypeThen = apps.get_model("contenttypes", "ContentType")
    Player = apps.get_model("tournaments", "Player")
    Tournament = apps.get_model("tournaments", "Tournament")
    Registration = apps.get_model("tournaments", "Registration")
    Cup = apps.get_model("tournaments", "Cup")
    CupRanking = apps.get_model("tournaments", "CupRanking")
    CupResult = apps.get_model("tournaments", "CupResult")
    CupAction = apps.get_model("tournaments", "CupAction")
    PrizeFund = apps.get_model("scoring", "PrizeFund")
    PrizeCategory = apps.get_model("scoring", "PrizeCategory")
    ExportJob = apps.get_model("scoring", "ExportJob")
    DBTaskResult = apps.get_model("django_tasks_database", "DBTaskResult")

    cup_type = ContentTypeThen.objects.get(app_label="tournaments", model="cup")  # migrated back: the old label
    keeper = User.objects.create(username="cupchef")
    organisers, _created = Group.objects.get_or_create(name="Organisers")
    for codename in ("add_cup", "change_cup"):
        permission, _created = Permission.objects.get_or_create(
            content_type=cup_type, codename=codename, defaults={"name": f"Can {codename.split('_')[0]} cup"}
        )
        organisers.permissions.add(permission)
    keeper.groups.add(organisers)

    player = Player.objects.create(name="Rosa Kometer", club="Imst")
    cup = Cup.objects.create(name="Tiroler Cup vor dem Umzug", ruleset="tiroler-tarockcup", method="tirol", counting="3", final_top=10)
    cup.organisers.add(keeper)
    ranking = CupRanking.objects.create(cup=cup, name="Damen")
    ranking.members.add(player)
    result = CupResult.objects.create(cup=cup, event="Cupturnier Imst", date=datetime.date(2026, 9, 12), player=player, rank=2, field_size=20, total=57)
    action = CupAction.objects.create(cup=cup, user=keeper, user_name="cupchef", action="created")
    t = Tournament.objects.create(
        name="Cupturnier Hall", date=datetime.date(2026, 10, 17), ruleset="tiroler-tarockcup", edition="2019/20", cup=cup
    )
    registration = Registration.objects.create(tournament=t, player=player, start_number=1)
    fund = PrizeFund.objects.create(tournament=t, entry_fee=20, payout_percent=90, kontra_amount="0.50")
    category = PrizeCategory.objects.create(tournament=t, order=1, kind="group", name="Beste Dame", amount=15)
    category.members.add(registration)
    job = ExportJob.objects.create(tournament=t, exporter="results", params={"round": 1}, language="de", stamp="v1", total=1)
    task = DBTaskResult.objects.create(
        task_path=OLD_TASK, args_kwargs={"args": [job.pk], "kwargs": {}}, backend_name="default",
        queue_name="default", run_after=timezone.now(), exception_class_path="", traceback="",
    )
    return {
        "keeper": keeper.pk, "player": player.pk, "cup": cup.pk, "ranking": ranking.pk, "result": result.pk,
        "action": action.pk, "tournament": t.pk, "registration": registration.pk, "fund": fund.pk,
        "category": category.pk, "job": job.pk, "task": task.pk, "cup_type": cup_type.pk,
    }


def counts() -> dict:
    """Rows of the moved tables, straight from the database."""
    tables = ("tournaments_cup", "tournaments_cup_organisers", "tournaments_cupranking", "tournaments_cupranking_members",
              "tournaments_cupresult", "tournaments_cupaction", "scoring_prizefund", "scoring_prizecategory",
              "scoring_prizecategory_members", "scoring_exportjob")
    with connection.cursor() as cursor:
        found = {}
        for table in tables:
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            found[table] = cursor.fetchone()[0]
    return found


@pytest.mark.django_db(transaction=True)
def test_rows_written_before_the_move_are_read_through_the_moved_models():
    try:
        ids = write_rows_before_the_move(historical_apps(migrate(BEFORE)))
        before = counts()
    finally:
        migrate()  # forward, and so the next test finds the latest migrations whatever happened here
    assert counts() == before  # nothing copied, nothing dropped

    ContentType.objects.clear_cache()
    cup_type = ContentType.objects.get_for_model(Cup)
    assert (cup_type.pk, cup_type.app_label) == (ids["cup_type"], "cups")  # the same row, renamed
    assert ContentType.objects.get_for_model(PrizeFund).app_label == "prizes"
    assert ContentType.objects.get_for_model(ExportJob).app_label == "exporters"
    assert not ContentType.objects.filter(app_label="tournaments", model__startswith="cup").exists()
    keeper = get_user_model().objects.get(pk=ids["keeper"])
    assert keeper.has_perm("cups.add_cup") and keeper.has_perm("cups.change_cup")

    cup = Cup.objects.get(pk=ids["cup"])
    assert (cup.name, cup.method, cup.counting, cup.final_top) == ("Tiroler Cup vor dem Umzug", "tirol", "3", 10)
    assert list(cup.organisers.values_list("pk", flat=True)) == [ids["keeper"]]
    assert [(r.pk, r.name, list(r.members.values_list("pk", flat=True))) for r in CupRanking.objects.filter(cup=cup)] == [
        (ids["ranking"], "Damen", [ids["player"]])
    ]
    result = CupResult.objects.get(pk=ids["result"])
    assert (result.cup_id, result.player_id, result.rank, result.field_size, result.total) == (cup.pk, ids["player"], 2, 20, 57)
    assert CupAction.objects.get(pk=ids["action"]).user_id == ids["keeper"]
    t = Tournament.objects.get(pk=ids["tournament"])
    assert t.cup == cup and list(cup.tournaments.all()) == [t]

    fund = PrizeFund.objects.get(tournament=t)
    assert (fund.pk, str(fund.entry_fee), str(fund.payout_percent), str(fund.kontra_amount)) == (ids["fund"], "20.00", "90.00", "0.50")
    category = PrizeCategory.objects.get(tournament=t)
    assert (category.pk, category.kind, category.name) == (ids["category"], "group", "Beste Dame")
    assert list(category.members.values_list("pk", flat=True)) == [ids["registration"]]

    job = ExportJob.objects.get(pk=ids["job"])
    assert (job.tournament_id, job.exporter, job.params, job.status) == (t.pk, "results", {"round": 1}, "queued")
    assert DBTaskResult.objects.get(pk=ids["task"]).task_path == NEW_TASK

    # Rows added afterwards take the next ids of the same tables.
    assert Cup.objects.create(name="Nach dem Umzug", ruleset="tiroler-tarockcup", method="tirol").pk > cup.pk
