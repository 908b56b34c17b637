"""Scoring services: the commands that change a table's hands and the sheet that shows them.

One module a job (``conventions.md``, "One service per concern"):

- :mod:`.context`: the table a hand is scored at (:class:`TableInfo`) and its lock;
- :mod:`.hands`: enter, edit, restore and delete a hand;
- :mod:`.rescoring`: one re-scoring of stored rows for saves, deletions and ``recompute``;
- :mod:`.tables`: a player leaves, a table ends, a round is verified or reopened;
- :mod:`.sheet`: the score sheet as people read it;
- :mod:`.display`: a hand in words, and what somebody else did meanwhile;
- :mod:`.errors`: why a change was refused.
"""

from .context import (
    TableInfo,
    in_numbering,
    info_from_seats,
    lock_open_table,
    record_names,
    record_positions,
    seat_name,
    table_info,
    widen,
)
from .display import conflict_message, deleted_message, describe
from .errors import HandConflict, HandRejected, RoundLocked
from .hands import delete_hand, evaluate_record, restore_hand, save_hand
from .rescoring import Rescored, refresh_seat_scores, rescore_table, table_rows
from .sheet import Sheet, SheetRow, build_sheet, sheet_after_new_hand
from .tables import confirm_sheet, drop_player, end_table, flag_hand, reopen_round, resolve_flag, verify_round

__all__ = [
    "HandConflict",
    "HandRejected",
    "Rescored",
    "RoundLocked",
    "Sheet",
    "SheetRow",
    "TableInfo",
    "build_sheet",
    "confirm_sheet",
    "conflict_message",
    "delete_hand",
    "deleted_message",
    "describe",
    "drop_player",
    "end_table",
    "resolve_flag",
    "evaluate_record",
    "flag_hand",
    "in_numbering",
    "info_from_seats",
    "lock_open_table",
    "record_names",
    "record_positions",
    "refresh_seat_scores",
    "reopen_round",
    "rescore_table",
    "restore_hand",
    "save_hand",
    "seat_name",
    "sheet_after_new_hand",
    "table_info",
    "table_rows",
    "verify_round",
    "widen",
]
