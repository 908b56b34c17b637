"""Helpers for the migrations that moved models from one app to another with their tables (the
state only, ``db_table`` kept): the content types follow the models."""

from django.db import migrations


def rename_content_types(old_label: str, new_label: str, model_names: list[str]) -> migrations.RunPython:
    """A migration operation giving the content types of ``model_names`` (model names in lower
    case) the app label ``new_label`` instead of ``old_label``, so the permissions and admin log
    entries that point at them keep pointing at them; backwards it gives them back. A content type
    that exists under the target label already is left as it is (a site administrator's
    ``organisers_group`` or ``migrate`` gives its permissions again)."""

    def move(apps, from_label: str, to_label: str) -> None:
        ContentType = apps.get_model("contenttypes", "ContentType")
        for model in model_names:
            if not ContentType.objects.filter(app_label=to_label, model=model).exists():
                ContentType.objects.filter(app_label=from_label, model=model).update(app_label=to_label)

    return migrations.RunPython(
        lambda apps, schema_editor: move(apps, old_label, new_label),
        lambda apps, schema_editor: move(apps, new_label, old_label),
    )
