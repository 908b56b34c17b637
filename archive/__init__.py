"""A tournament as one self-contained archive and back: the archive format, its export and its
checked restore (:mod:`.backup`), the scheduled backups (:mod:`.schedule`), the organiser's
restore and backup pages (:mod:`.views`) and the ``export_tournament``, ``import_tournament`` and
``backup_tournaments`` commands. It sits above :mod:`tournaments` and :mod:`scoring`, whose rows
it writes and reads."""
