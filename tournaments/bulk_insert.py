"""Insert many rows of one model in one statement, without building a model instance per row.

Django's ``bulk_create`` builds an instance per row and prepares every value of every field one by
one; for the thousands of tables and seats of a large draw that preparing costs more than the
database's work (measured with ``bench/draw_store_bench.py``). On PostgreSQL :func:`insert_rows`
sends each column as one array and inserts ``SELECT … FROM unnest(…)``: a statement with a
parameter per column, whatever the number of rows. On other databases it falls back to
``bulk_create``, whose batches those databases need anyway (SQLite's 999 parameters).
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection, models


def _omitted_values(model: type[models.Model], given: Sequence[str]) -> dict[str, object]:
    """The columns ``given`` leaves out that need a value: each one's default, prepared for the
    database once (not per row). Raises ``ValueError`` for one that has neither a default nor NULL."""
    values = {}
    for field in model._meta.concrete_fields:
        if field.primary_key or field.attname in given:
            continue
        if field.has_default() and callable(field.default):
            # A default made per row (a token) cannot be one value for all rows.
            raise ValueError(f"{model.__name__}.{field.attname} has a default made per row: give its values")
        if not field.has_default() and not field.null:
            raise ValueError(f"{model.__name__}.{field.attname} has no default: give its values")
        values[field.attname] = field.get_db_prep_save(field.get_default(), connection)
    return values


def insert_rows(
    model: type[models.Model], columns: Sequence[str], rows: Sequence[Sequence], returning: Sequence[str] = ()
) -> list[tuple]:
    """Insert ``rows`` (tuples of values in the order of ``columns``, which are field attnames such as
    ``"table_id"``) into ``model``'s table in one statement; every other column takes its field's
    default or NULL. ``returning`` names columns to give back for each inserted row (e.g. ``("id",
    "number")``), as a list of tuples in no promised order: match them on a column you gave. A
    database that returns no ids from a bulk insert (MySQL, SQLite before 3.35) gives ``None``.

    The values go to the database as they are: plain ``int``, ``str`` or ``None``, as the fields
    store them (nothing is converted per row). No signal is sent and no ``save()`` runs, as with
    ``bulk_create``. Raises ``ValueError`` for a column left out that has no default, or whose
    default is made per row; a violated constraint raises the database's ``IntegrityError``.
    """
    if not rows:
        return []
    omitted = _omitted_values(model, columns)
    if connection.vendor != "postgresql":
        objects = model._default_manager.bulk_create(model(**dict(zip(columns, row, strict=True))) for row in rows)
        return [tuple(getattr(obj, name) for name in returning) for obj in objects] if returning else []

    meta = model._meta
    by_attname = {field.attname: field for field in meta.concrete_fields}
    fields = [by_attname[name] for name in (*columns, *omitted)]
    quote = connection.ops.quote_name
    table, names = quote(meta.db_table), ", ".join(quote(field.column) for field in fields)
    arrays = [list(column) for column in zip(*rows, strict=True)] + [[value] * len(rows) for value in omitted.values()]
    unnest = ", ".join(f"%s::{field.cast_db_type(connection)}[]" for field in fields)
    sql = f"INSERT INTO {table} ({names}) SELECT * FROM unnest({unnest})"
    if returning:
        sql += " RETURNING " + ", ".join(quote(by_attname[name].column) for name in returning)
    with connection.cursor() as cursor:
        cursor.execute(sql, arrays)
        return [tuple(row) for row in cursor.fetchall()] if returning else []
