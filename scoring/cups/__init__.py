"""Season cups: the cups, their sub-rankings, imported results and action log (:mod:`.models`),
cup points and the season table in plain Python (:mod:`.points`), the table from the database
(:mod:`.table`), who keeps a cup (:mod:`.roles`), the import of last season's results
(:mod:`.importer`), the cup's workbook and poster (:mod:`.exports`) and their pages."""
