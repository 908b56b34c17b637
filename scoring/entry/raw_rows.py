"""Raw rows: transcribe a paper score sheet into a table's hands, one hand per line, all or none.

A director types or pastes the numbers of a score sheet as written, or the hands in notation, the
whole sheet in one go::

    5 -15 5 5
    2: -7; 21; -7; -7
    3. d 2 + pag!

A line of numbers (after an optional hand number) is a row of scores, the transcript of the paper
sheet, and becomes a hand record ``{"dealer": d, "outcome": "manual", "scores": row, "note": "raw
rows"}`` (``hand-record.md`` "Fields", ``outcome: manual``); any other line is a hand in the
ruleset's notation (:meth:`variants.base.Ruleset.parse_hand`), read as strictly as the quick line.
In free scoring every hand is a row, so there a line of numbers is always the scores, as the quick
line reads it too.

**When a line of numbers is refused** (the sheet's help says exactly this, :func:`numbers_rule`):
where the ruleset has contracts with a number for a code (Königrufen's Sechserdreier ``6``, Bled's
``3``/``2``/``1``, Hungarian Tarokk's ``3``/``2``/``1``), a line that starts with such a number
and has no signed number (no ``-``, ``−`` or ``+``) could be that hand as well as the scores
(``3 1 40`` at a Bled table), and is refused naming both readings, never guessed: the director
writes the contract in letters (``t 1 40``) or the scores after ``=`` (``= 3 1 40``). A line with
a minus sign is always scores (``6 -2 -2 -2``): no hand in notation has a signed number. The rule
is read from the line alone, so a person can check it by eye. Running totals are numbers only and
never refused so. A line of a contract's code followed by words is a hand (``6 1 +``).

A written hand number must be the number the line gets. Lines are appended after the hands
already on the table. The rows are checked the way ``hand-record.md`` "The score row" and
:meth:`variants.checks.HandCheck.check_manual` check a manual row: the row sums to 0 where the
ruleset is zero-sum (a Schreibfehler otherwise), the seat that sits out scores 0 unless the ruleset
lets him pay (Cego), and the sheet has no more lines than the table has hands left in the round.
Only a director may strike a hand (``--``): a scorer's sheet with one is refused by line, and
the hand commands refuse it again (:func:`scoring.services.hands.refuse_strike_change`). The
sheet is all or nothing: one bad line and nothing is saved. A line holding a character no typed
text may hold (a null or other control character; in notation lines the names and notes also
refuse direction and invisible characters, :mod:`tournaments.text`) is refused first, naming the
line and the character.

The work is split so that the parts can be used on their own (e.g. for a preview):

- :func:`parse_raw_rows` (pure): text → rows of integers, or the lines that are not rows;
- :func:`to_differences` (pure): running totals → per-hand rows;
- :func:`check_rows` (pure given a :class:`~scoring.services.TableInfo`): the rules above;
- :func:`save_raw_rows`: all of it, and storing through :func:`scoring.services.save_hand`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Hand
from scoring.services import HandRejected, TableInfo, lock_open_table, save_hand, table_info
from scoring.services.display import RAW_ROWS_NOTE, strike_refused
from tournaments.models import Table
from tournaments.problems import translate_problem
from tournaments.text import line_problems, quoted
from variants import InvalidHand

NOTE = RAW_ROWS_NOTE
"""The ``note`` of every hand stored from raw rows (stored data, not translated; the sheet shows
it in the reader's language, :func:`scoring.services.display.shown_note`)."""

MAX_NUMBER = 999_999
"""The largest number (either sign) :func:`parse_raw_rows` reads; running totals may be large."""

MAX_SCORE = 9999
"""The largest score (either sign) of one hand, as in the hand form's manual row."""

# A line may start with its hand number: "3: 5 -15 5 5", "3. 5 -15 5 5", "3:5 -15 5 5". A "." must
# not be followed by a digit, so "3.5 …" is a mistyped number, not hand 3.
_HAND_NUMBER = re.compile(r"^\s*(\d+)\s*(?::|\.(?!\d))")
# A row of scores starts with a number (signed, or with a minus sign as word processors write it).
_STARTS_WITH_NUMBER = re.compile(r"^[+\-\u2212\u2012\u2013\ufe63\uff0d]?\d")
_SEPARATORS = re.compile(r"[\s;,]+")
_NUMBER = re.compile(r"^[+-]?[0-9]+$")
# Minus signs that word processors and spreadsheets put in place of "-": U+2212 minus sign,
# U+2012 figure dash, U+2013 en dash, U+FE63 small hyphen-minus, U+FF0D fullwidth hyphen-minus.
_MINUSES = str.maketrans({"\u2212": "-", "\u2012": "-", "\u2013": "-", "\ufe63": "-", "\uff0d": "-"})


@dataclass(frozen=True)
class LineProblem:
    """Why one line of a raw-rows sheet was refused.

    ``line``: the 1-based line number in the text as typed (blank lines count), or 0 for a problem
    of the whole sheet (an empty sheet). ``message``: translated, starts with the line ("Line 3:
    the row sums to +2, not 0: a writing error.") and names the difference.
    """

    line: int
    message: str

    def __str__(self) -> str:
        return self.message


class RawRowsRejected(Exception):
    """The sheet was not saved, no line of it. ``problems``: list of :class:`LineProblem`, by line."""

    def __init__(self, problems: Sequence[LineProblem]):
        self.problems = list(problems)
        super().__init__("; ".join(p.message for p in self.problems))


def line_numbers(text: str) -> list[int]:
    """The 1-based line numbers of the non-blank lines of ``text``: row ``i`` of
    :func:`parse_raw_rows` stands on line ``line_numbers(text)[i]``."""
    return [i for i, line in enumerate(text.splitlines(), start=1) if line.strip()]


def parse_raw_rows(text: str, size: int) -> tuple[list[list[int]], list[LineProblem]]:
    """Read a sheet of raw rows for a table of ``size`` seats. Pure: no database.

    Returns ``(rows, problems)``: one row of ``size`` integers (seat order) per non-blank line of
    ``text``, and a :class:`LineProblem` for every line that is not such a row. ``rows`` holds only
    the good lines, so use it only when ``problems`` is empty; :func:`line_numbers` maps it back to
    the text.

    A line is numbers separated by spaces, tabs, ``;`` or ``,`` (so no decimal commas: scores are
    whole numbers, ``hand-record.md`` "The score row"). An optional leading hand number followed by
    ``:`` or ``.`` ("3: 5 -15 5 5") is not part of the row (:func:`save_raw_rows` checks it). Numbers may carry a sign: ``+5``,
    ``-5`` and ``−5`` (Unicode minus; en dashes and the like too). Problems: a word that is not a
    whole number, a number beyond ±:data:`MAX_NUMBER`, and a count of numbers other than ``size``
    (the message says how many are missing or too many).
    """
    entries, problems = _read_lines(text, size)
    return [row for _line, row in entries if row is not None], problems


def _read_lines(text: str, size: int) -> tuple[list[tuple[int, list[int] | None]], list[LineProblem]]:
    """Every non-blank line as ``(line number, row)``, ``row`` ``None`` where the line has a problem."""
    entries: list[tuple[int, list[int] | None]] = []
    problems: list[LineProblem] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        row, problem = _read_line(number, line, size)
        entries.append((number, row))
        if problem is not None:
            problems.append(problem)
    return entries, problems


def _read_line(number: int, line: str, size: int) -> tuple[list[int] | None, LineProblem | None]:
    body = _HAND_NUMBER.sub("", line, count=1).translate(_MINUSES)
    words = [w for w in _SEPARATORS.split(body) if w]
    bad = [w for w in words if not _NUMBER.match(w)]
    if bad:
        message = ngettext(
            "Line %(line)s: %(words)s is not a whole number.",
            "Line %(line)s: %(words)s are not whole numbers.",
            len(bad),
        ) % {"line": number, "words": ", ".join(quoted(w) for w in bad)}
        return None, LineProblem(number, message)
    row = [int(w) for w in words]
    large = [n for n in row if abs(n) > MAX_NUMBER]
    if large:
        message = _("Line %(line)s: %(number)s is too large for a score sheet (at most %(max)s either way).") % {
            "line": number,
            "number": large[0],
            "max": MAX_NUMBER,
        }
        return None, LineProblem(number, message)
    if len(row) != size:
        return None, LineProblem(number, _count_message(number, len(row), size))
    return row, None


def _count_message(line: int, count: int, size: int) -> str:
    """"Line 2: 3 numbers for 4 seats (1 missing)." / "(2 too many)"."""
    params = {"line": line, "count": count, "size": size, "difference": abs(count - size)}
    if count < size:
        detail = ngettext("%(difference)s missing", "%(difference)s missing", abs(count - size)) % params
    else:
        detail = ngettext("%(difference)s too many", "%(difference)s too many", abs(count - size)) % params
    return (
        ngettext(
            "Line %(line)s: %(count)s number for %(size)s seats (%(detail)s).",
            "Line %(line)s: %(count)s numbers for %(size)s seats (%(detail)s).",
            count,
        )
        % {**params, "detail": detail}
    )


def to_differences(totals: Sequence[Sequence[int] | None], start: Sequence[int]) -> list[list[int] | None]:
    """Per-hand rows from running totals, as many paper sheets keep them. Pure.

    ``totals``: the written lines, each the players' totals after that hand; ``start``: the totals
    before the first line (the table's totals so far, zeros on an empty table). Row ``i`` is
    ``totals[i] - totals[i-1]`` seat by seat, the first one ``totals[0] - start``. A line that could
    not be read (``None``) gives ``None``, and so does the line after it (its difference is unknown).
    """
    rows: list[list[int] | None] = []
    previous: list[int] | None = list(start)
    for line in totals:
        if line is None or previous is None:
            rows.append(None)
        else:
            rows.append([a - b for a, b in zip(line, previous, strict=True)])
        previous = list(line) if line is not None else None
    return rows


def check_rows(
    rows: Sequence[Sequence[int] | None],
    info: TableInfo,
    first_number: int,
    first_dealer: int,
    *,
    lines: Sequence[int] | None = None,
    cumulative: bool = False,
) -> list[LineProblem]:
    """Check per-hand ``rows`` to be stored as hands ``first_number, first_number + 1, …`` of the
    table described by ``info``, dealt by ``first_dealer, first_dealer + 1, …`` (mod ``info.size``).

    Rules (``hand-record.md`` "The score row" and "Fields", ``outcome: manual``, the same as
    :meth:`variants.checks.HandCheck.check_manual`; the cap from
    :meth:`tournaments.models.Tournament.hands_for_table`):

    - a row has ``info.size`` whole numbers of at most ±:data:`MAX_SCORE`;
    - where ``info.ruleset.zero_sum``, it sums to 0; the message names the difference;
    - the seat that sits out (``info.ruleset.sitting_out(dealer, size)``) scores 0 unless
      ``info.ruleset.sitting_out_pays`` (Cego);
    - hands are numbered gaplessly, so ``first_number - 1`` hands are on the table and at most
      ``info.cap - (first_number - 1)`` rows fit; the first line too many names the excess.

    A row may be ``None``: a line refused already (by :func:`parse_raw_rows`); it still takes its
    hand's place (dealer, cap) but is not checked. ``lines``: the text line of each row (see
    :func:`line_numbers`), default ``1, 2, …``.
    ``cumulative``: the rows were computed from running totals (:func:`to_differences`); only the
    wording changes ("the totals change by …"). Returns the problems in line order, empty if the
    rows may be saved.
    """
    size = info.size
    rs = info.ruleset
    lines = list(lines) if lines is not None else list(range(1, len(rows) + 1))
    problems: list[LineProblem] = []
    remaining = max(info.cap - (first_number - 1), 0)
    for k, (row, line) in enumerate(zip(rows, lines, strict=True)):
        if k == remaining:
            problems.append(LineProblem(line, _cap_message(line, info.cap, remaining, len(rows) - remaining)))
        if row is None:
            continue
        if len(row) != size:
            problems.append(LineProblem(line, _count_message(line, len(row), size)))
            continue
        large = [n for n in row if abs(n) > MAX_SCORE]
        if large:
            problems.append(
                LineProblem(
                    line,
                    _("Line %(line)s: %(number)+d is too large for one hand (at most %(max)s either way).")
                    % {"line": line, "number": large[0], "max": MAX_SCORE},
                )
            )
        total = sum(row)
        if rs.zero_sum and total:
            params = {"line": line, "difference": total}
            if cumulative:
                message = _("Line %(line)s: the totals change by %(difference)+d in all, not 0: a writing error.")
            else:
                message = _("Line %(line)s: the row sums to %(difference)+d, not 0: a writing error.")
            problems.append(LineProblem(line, message % params))
        dealer = (first_dealer + k) % size
        out = rs.sitting_out(dealer, size)
        if out is not None and row[out] and not rs.sitting_out_pays:
            params = {
                "line": line,
                "name": info.names.get(out) or _("seat %(number)s") % {"number": out + 1},
                "hand": first_number + k,
                "difference": row[out],
            }
            if cumulative:
                message = _(
                    "Line %(line)s: %(name)s deals hand %(hand)s and sits out; the total must not change,"
                    " but changes by %(difference)+d."
                )
            else:
                message = _("Line %(line)s: %(name)s deals hand %(hand)s and sits out; the score must be 0, not %(difference)+d.")
            problems.append(LineProblem(line, message % params))
    return problems


def _cap_message(line: int, cap: int, remaining: int, excess: int) -> str:
    """"Line 5: this table has only 4 of its 16 hands left; 1 line too many."."""
    params = {"line": line, "cap": cap, "remaining": remaining, "excess": excess}
    left = ngettext(
        "Line %(line)s: this table has only %(remaining)s of its %(cap)s hands left",
        "Line %(line)s: this table has only %(remaining)s of its %(cap)s hands left",
        remaining,
    ) % params
    more = ngettext("%(excess)s line too many.", "%(excess)s lines too many.", excess) % params
    return f"{left}; {more}"


def character_problems(text: str) -> list[LineProblem]:
    """Every line of ``text`` holding a character no sheet may hold, by line: a control character
    other than tab (a null character cannot even be stored), or a direction or invisible
    character (the lines in notation carry names and notes:
    :func:`tournaments.text.line_problems` with ``name_like``). Pure."""
    return [LineProblem(line, message) for line, message in sorted(line_problems(text, name_like=True).items())]


def _split_lines(text: str) -> list[tuple[int, int | None, str]]:
    """Every non-blank line as ``(line number, written hand number or None, the rest)``."""
    lines = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        written = _HAND_NUMBER.match(line)
        rest = line[written.end() :] if written else line
        lines.append((number, int(written.group(1)) if written else None, rest))
    return lines


def number_codes(notation) -> dict[str, object]:
    """The contract codes of a ruleset that are numbers, in the order of its contracts: code ->
    contract (Bled ``{"3": Trojka, "2": Dvojko, "1": Enojko}``, Königrufen ``{"6":
    Sechserdreier}``, none in Cego, Tapp-Tarock or free scoring). ``notation``: the ruleset's
    :class:`~variants.notation.Notation`. A line of numbers starting with one of them may be refused
    (:func:`line_kind`)."""
    return {code: c for code, c in notation.contract_codes.items() if code.isdigit()}


def letter_code(notation, contract) -> str:
    """How to name ``contract`` in the line without a number: its code where that is letters
    (Bled's Trojka ``t``), else its shortest alias or key in letters (Hungarian ``harom``)."""
    words = [code for code, c in notation.contract_codes.items() if c is contract and not code.isdigit()]
    return min(words, key=len) if words else contract.key


def line_kind(rest: str, notation) -> str:
    """What a line (hand number removed) is; ``notation``: the ruleset's
    :class:`~variants.notation.Notation`.

    - ``"either"``: whole numbers only, none with a sign, and the first is a contract's code
      (:func:`number_codes`): it could be the hand as well as the scores (``3 1 40`` at a Bled
      table), so the caller refuses it;
    - ``"scores"``: any other line of numbers (``6 -2 -2 -2``), or a line starting with a number
      that is no contract's code (its words that are no numbers are named by :func:`parse_raw_rows`);
    - ``"notation"``: everything else, a contract's code followed by words too (``6 1 +``).
    """
    words = [w for w in _SEPARATORS.split(rest.translate(_MINUSES)) if w]
    if not words:
        return "notation"
    if all(_NUMBER.match(w) for w in words):
        unsigned = all(w.isdigit() for w in words)
        return "either" if unsigned and words[0] in number_codes(notation) else "scores"
    first = rest.split()[0]
    if not _STARTS_WITH_NUMBER.match(first) or notation.is_contract_code(first):
        return "notation"
    return "scores"


def numbers_rule(ruleset) -> str:
    """The sheet's help on lines of numbers for ``ruleset``, in the reader's language: when such a
    line is refused (:func:`line_kind`), with the ruleset's number codes and how to write the hand
    instead; or that a line of numbers is always the scores, where no contract has a number."""
    codes = number_codes(ruleset.notation)
    if not codes:
        return _("A line of numbers is always the scores.")
    first, contract = next(iter(codes.items()))
    return _(
        "A line of numbers is the scores, unless it starts with %(codes)s (a contract's code in this game) "
        "and none of its numbers has a sign (+ or −): such a line could also be a hand and is refused. "
        "Write the hand with the contract in letters (“%(letters)s …” for “%(code)s …”) or the scores after “=” "
        "(“= %(code)s …”). Running totals are always read as numbers."
    ) % {
        "codes": ", ".join(quoted(code) for code in codes),
        "letters": letter_code(ruleset.notation, contract),
        "code": first,
    }


def save_raw_rows(table: Table, text: str, user=None, cumulative: bool = False, may_strike: bool = True) -> list[Hand]:
    """Store the sheet ``text`` as hands after the hands already on ``table``.

    ``text``: one hand per line, told apart by :func:`line_kind`. A line of scores is read as
    :func:`parse_raw_rows` reads each line and stored as a manual hand ``{"dealer": d, "outcome":
    "manual", "scores": row, "note": "raw rows"}``; any other line is a hand in notation, read by the ruleset's ``parse_hand`` with the table's players as
    names (a line it refuses is reported with every message). ``cumulative``: the lines are running
    totals, turned into per-hand rows by :func:`to_differences` from the table's current totals; a
    notation line is refused then. The rows are checked by :func:`check_rows`; hand ``k`` of the
    sheet is dealt by the seat after the last hand entered (``(last.record["dealer"] + 1) % size``,
    continuing the rotation) or, on an empty table, by ``table.dealer_of(1, size)``. A line that
    starts with a hand number ("3: …") must be that hand. ``may_strike``: whether the user may
    strike a hand (a director; a scorer may not): without it a struck hand (``--``) is refused.

    Each hand is stored through :func:`scoring.services.save_hand`, all inside one transaction with
    the table row locked: any refusal saves nothing. Returns the new hands in order. Raises
    :class:`RawRowsRejected` with every problem found (an empty sheet is one problem with line 0);
    lines holding a character no typed text may hold (:func:`character_problems`) are the only
    problems reported when there are any.
    """
    if problems := character_problems(text):
        raise RawRowsRejected(problems)
    with transaction.atomic():
        try:
            lock_open_table(table.pk, hands_only=True)
        except HandRejected as locked:
            raise RawRowsRejected([LineProblem(0, m) for m in locked.messages]) from locked
        info = table_info(table)
        if info.reduced:
            raise RawRowsRejected([LineProblem(0, _("A player left this table: enter its remaining hands one by one."))])
        lines = _split_lines(text)
        if not lines:
            raise RawRowsRejected([LineProblem(0, _("The sheet is empty: enter one line of numbers per hand."))])
        hands = list(table.hands.order_by("number"))
        first_number = len(hands) + 1  # numbers are gapless (delete_hand renumbers)
        if hands:
            first_dealer = (hands[-1].record.get("dealer", 0) + 1) % info.size
        else:
            first_dealer = table.dealer_of(1, info.size)
        problems: list[LineProblem] = []
        rows: list[list[int] | None] = []
        records: list[dict | None] = []
        names = [info.names[i] for i in range(info.size)]
        for k, (line, written, rest) in enumerate(lines):
            if written is not None and written != first_number + k:
                problems.append(LineProblem(line, _("Line %(line)s is numbered %(written)s, but it would be hand %(hand)s of this table.")
                                            % {"line": line, "written": written, "hand": first_number + k}))
            notation = info.ruleset.notation
            kind = line_kind(rest, notation)
            if kind == "either" and not cumulative:  # it reads both ways: the director says which
                contract = number_codes(notation)[_SEPARATORS.split(rest.strip())[0]]
                problems.append(LineProblem(line, _(
                    "Line %(line)s reads both as scores and as a %(contract)s: write the hand with "
                    "its letter code (“%(code)s …”) or the scores after “=” (“= %(scores)s”)."
                ) % {"line": line, "contract": contract.name, "code": letter_code(notation, contract), "scores": rest.strip()}))
                rows.append(None)
                records.append(None)
                continue
            if kind != "notation":
                row, problem = _read_line(line, rest, info.size)
                rows.append(row)
                records.append(None)
                if problem is not None:
                    problems.append(problem)
                continue
            rows.append(None)
            records.append(None)
            if cumulative:
                problems.append(LineProblem(line, _("Line %(line)s: running totals are numbers only; enter hands in notation without running totals.") % {"line": line}))
                continue
            try:
                records[-1] = info.ruleset.parse_hand(rest, info.size, (first_dealer + k) % info.size, names)
            except InvalidHand as refused:
                problems += [
                    LineProblem(line, _("Line %(line)s: %(message)s") % {"line": line, "message": translate_problem(p, info.names)})
                    for p in refused.errors
                ]
                continue
            if records[-1].get("outcome") == "struck" and not may_strike:
                problems.append(LineProblem(line, _("Line %(line)s: %(message)s") % {"line": line, "message": strike_refused()}))
        line_numbers_ = [line for line, _written, _rest in lines]
        if cumulative:
            start = [sum(h.scores[p] for h in hands) for p in range(info.size)]
            rows = to_differences(rows, start)
        problems += check_rows(rows, info, first_number, first_dealer, lines=line_numbers_, cumulative=cumulative)
        if problems:
            raise RawRowsRejected(sorted(problems, key=lambda p: p.line))
        saved = []
        for k, (row, record, line) in enumerate(zip(rows, records, line_numbers_, strict=True)):
            if record is None:
                record = {"dealer": (first_dealer + k) % info.size, "outcome": "manual", "scores": list(row), "note": NOTE}
            try:
                saved.append(save_hand(table, record, user, reason=_("transcribed from the paper sheet"), may_strike=may_strike))
            except HandRejected as exc:  # not expected after the checks; reported against the line
                raise RawRowsRejected(
                    [LineProblem(line, _("Line %(line)s: %(message)s") % {"line": line, "message": m}) for m in exc.messages]
                ) from exc
    return saved
