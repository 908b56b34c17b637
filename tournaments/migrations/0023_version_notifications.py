"""On PostgreSQL, a notification on the channel ``tarock_versions`` whenever a tournament's versions
change or its registrations do (:mod:`tournaments.version_watch` keeps the public pages' versions
by them). Nothing on other databases."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION tarock_tournament_versions_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('tarock_versions', 't' || OLD.id::text);
    ELSE
        PERFORM pg_notify('tarock_versions', 't' || NEW.id::text);
    END IF;
    RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION tarock_registrations_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    PERFORM pg_notify('tarock_versions', 'r');
    RETURN NULL;
END $$;

DROP TRIGGER IF EXISTS tarock_tournament_versions ON tournaments_tournament;
CREATE TRIGGER tarock_tournament_versions
    AFTER INSERT OR DELETE OR UPDATE OF data_version, layout_version, created ON tournaments_tournament
    FOR EACH ROW EXECUTE FUNCTION tarock_tournament_versions_notify();

DROP TRIGGER IF EXISTS tarock_registrations ON tournaments_registration;
CREATE TRIGGER tarock_registrations
    AFTER INSERT OR DELETE OR UPDATE OF player_id, tournament_id ON tournaments_registration
    FOR EACH STATEMENT EXECUTE FUNCTION tarock_registrations_notify();
"""

DROP = """
DROP TRIGGER IF EXISTS tarock_registrations ON tournaments_registration;
DROP TRIGGER IF EXISTS tarock_tournament_versions ON tournaments_tournament;
DROP FUNCTION IF EXISTS tarock_registrations_notify();
DROP FUNCTION IF EXISTS tarock_tournament_versions_notify();
"""


def _on_postgresql(sql):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(sql)

    return run


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0022_tournament_uid_mirrored_from")]

    operations = [migrations.RunPython(_on_postgresql(CREATE), _on_postgresql(DROP))]
