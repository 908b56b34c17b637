"""Score entry at the tables: the hand form built from the ruleset's catalogue (:mod:`.forms`,
its ``<select>`` widgets in :mod:`.widgets`), raw rows transcribed from a paper sheet
(:mod:`.raw_rows`) and the director's and scorer's pages that enter, edit, strike and restore
hands (:mod:`.views`, :mod:`.urls`). The commands themselves are :mod:`scoring.services`."""
