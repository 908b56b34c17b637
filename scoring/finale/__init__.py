"""The Tarock-Österreich-Finale as a tournament format (``../shared/rules/koenigrufen-raiffeisen.md``
§6.9, §6.12; ``tournament-formats.md`` §4): a tournament made an Ö-Finale (:mod:`.models`) is played
as any other (3 rounds of 16 hands, 20 at a 5-table, tables drawn at random each round, the day
ranked by Schrift), and is crowned by the Gesamtwertung "Österreichischer Tarockmeister":
Vorrundenpunkte, carried from each qualifier's final season rank in his cups, plus Finalpunkte, by
the day's rank from the organiser's table (:mod:`.points`, :mod:`.services`). Its pages: the
Gesamtwertung and the qualifiers' list (public), the settings (the tournament's directors), both
lists as a workbook and a PDF (:mod:`.exports`)."""
