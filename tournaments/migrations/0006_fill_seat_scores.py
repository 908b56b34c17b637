"""Fill the new seat round scores from the hands already entered."""

from django.db import migrations


def fill(apps, schema_editor):
    Table = apps.get_model("tournaments", "Table")
    Seat = apps.get_model("tournaments", "Seat")
    Hand = apps.get_model("scoring", "Hand")
    totals: dict[int, list[int]] = {}
    for table_id, scores in Hand.objects.values_list("table_id", "scores"):
        row = totals.setdefault(table_id, [0] * len(scores))
        for i, s in enumerate(scores):
            row[i] += s
    changed = []
    for seat in Seat.objects.filter(table_id__in=totals):
        row = totals[seat.table_id]
        seat.score = row[seat.position] if seat.position < len(row) else 0
        changed.append(seat)
    Seat.objects.bulk_update(changed, ["score"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_seat_score"), ("scoring", "0003_hand_history_flags")]
    operations = [migrations.RunPython(fill, migrations.RunPython.noop)]
