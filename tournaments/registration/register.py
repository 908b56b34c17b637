"""Registering a field quickly without duplicating anyone in the player register.

- :func:`search_players`: the register searched as the director types (names and clubs, any case,
  accents or none).
- :func:`read_names` and :func:`resolve`: a pasted list of names, one player per line, and the
  single new player, matched against the register (:func:`namesakes`: one query, the database
  narrowing it). A name and club that are a registered player's are that player, and so is a
  pasted name only one player of the register has (the director is told whom it was taken for);
  a name several players have, one with another club, or a namesake typed as a new player, is
  offered the existing players to choose from, never silently made a second player; only a name
  nobody has becomes a new player. Two lines of one player are a problem naming both.
  :func:`register_lines` registers the resolved names at once, all or none if a line has a
  problem; names waiting for a choice wait without holding up the others (:func:`waiting` puts
  them back in the form).
- :func:`remove_registration`: a registration made by mistake, before its player is seated.
- :func:`merge_players`: two entries of the register that are one person become one; the
  registrations (and with them seats, hands and standings) move to the one kept.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace

from django.db import transaction
from django.db.models import CharField, Max, Q, Value
from django.db.models.functions import Concat
from django.utils.text import get_text_list
from django.utils.translation import gettext as _

from tournaments import actions, signals
from tournaments.errors import Refused
from tournaments.models import Player, Registration, Seat, Tournament
from tournaments.text import line_problems, split_lines, strip_encoding_mark, visible
from tournaments.versioning import touch, touch_players
from variants.notation import fold as fold_letters

NAME_MAX = Player._meta.get_field("name").max_length
CLUB_MAX = Player._meta.get_field("club").max_length
SEARCH_LIMIT = 20
SEARCH_QUERY_MAX = 200  # characters of a typed search read; more is no name
SEARCH_WORDS_MAX = 8
SEARCH_PATTERN_LETTERS = 30  # letters of a typed word the database pattern spells out
# What separates the words of a name for the search: anything but a letter or digit.
_WORD_BREAK = re.compile(r"[\W_]+")
# A pasted line: "Name; Club", "Name<TAB>Club" or "Name (Club)"; a comma belongs to the name
# ("Berger, Anna" is how many lists write it).
_CLUB_IN_BRACKETS = re.compile(r"^(.*?)\s*\(([^()]*)\)\s*$")


class RegistrationRefused(Refused):
    """Nothing was registered, removed or merged; ``message`` says why."""


# Letters of their own that no accent makes (so Unicode's decomposition leaves them), written with
# the plain letters by anyone typing without them: "Đukić" is "Dukic", "Łukasz" "Lukasz", "Søren"
# "Soren", "Ærø" "Aero", "Œuvray" "Oeuvray", "Þór" "Thor". "ß" is "ss" already (case-folding).
def _folded(text: str) -> str:
    """``text`` case-folded, accents removed and letters of their own spelt plain, as the notation
    reads names (:func:`variants.notation.fold`), invisible characters left out; spaces as they
    were."""
    return fold_letters(visible(text))


def fold(text: str) -> str:
    """``text`` for comparing names: case-folded, accents removed, letters of their own spelt
    plain ("Đukić" → "dukic", "Łukasz" → "lukasz", "Straße" → "strasse"; :func:`_folded`),
    spaces collapsed, invisible characters left out (:func:`tournaments.text.visible`: a name
    stored with one before they were refused is still found, and offered for merging). The
    search's database patterns fold alike (:func:`word_pattern`)."""
    return " ".join(_folded(text).split())


def name_key(name: str) -> tuple[str, ...]:
    """The words of a name, folded and sorted: "Berger Anna" and "Anna Berger" share it."""
    return tuple(sorted(re.split(r"[\s,]+", fold(name).strip(" ,"))))


def words(text: str) -> list[str]:
    """The words of ``text`` as a search compares them: :func:`fold`-ed, split at every character
    that is not a letter or digit (spaces, hyphens, apostrophes, dots, commas, brackets, slashes):
    "Hofer-Mair" → ``["hofer", "mair"]``, "O'Brien (St. Johann)" → ``["o", "brien", "st", "johann"]``."""
    return [w for w in _WORD_BREAK.split(fold(text)) if w]


def matches_words(query_words: list[str], text: str) -> bool:
    """Whether every word of ``query_words`` (:func:`words` of the query) is the start of some word
    of ``text``: "hofer-m" finds "Andreas Hofer-Mair", "an hof mai" too."""
    text_words = words(text)
    return all(any(w.startswith(q) for w in text_words) for q in query_words)


def search_players(query: str, tournament: Tournament | None = None, limit: int = SEARCH_LIMIT) -> list[Player]:
    """Players whose name or club has a word starting with every word of ``query``, not yet
    registered in ``tournament``; at most ``limit``, by name and club. An empty query finds nobody.

    Words are compared as :func:`words` splits them, so a typed hyphen, apostrophe or dot
    separates words as in the name ("Hofer-M" finds "Andreas Hofer-Mair", "o'bri" "O'Brien"),
    and letters are compared folded (case, accents: "zag" finds "Žagar", "strasser" "Straßer").

    The database narrows the register by one pattern per typed word over "name club"
    (:func:`word_pattern`, read alike by SQLite's REGEXP and PostgreSQL), so a register of
    thousands is never loaded into Python; the rows it returns are checked exactly by
    :func:`matches_words` (the pattern lets a few more through). Measured at 5,000 players on a
    busy test machine: 30–85 ms on PostgreSQL and 45–135 ms on SQLite (whose REGEXP calls Python
    once a row), where reading the register into Python took 130–450 ms on either.
    """
    query_words = words(query[:SEARCH_QUERY_MAX])[:SEARCH_WORDS_MAX]
    if not query_words:
        return []
    players = Player.objects.order_by("name", "club", "pk").only("id", "name", "club")
    if tournament is not None:
        players = players.exclude(registrations__tournament=tournament)
    players = players.annotate(search_text=Concat("name", Value(" "), "club", output_field=CharField()))
    for word in query_words:  # one pattern a row for the first word; the next ones see what is left
        if pattern := word_pattern(word):
            players = players.filter(search_text__regex=pattern)
    found = []
    for player in players.iterator(chunk_size=100):
        if matches_words(query_words, f"{player.name} {player.club}"):
            found.append(player)
            if len(found) >= limit:
                break
    return found


# The characters whose folding the database patterns know: the alphabets from Latin to the Indic
# scripts, Latin Extended Additional, Greek Extended, the letter-like and enclosed letters, and the
# presentation and full-width forms. A name of other characters (Chinese, say) is still found: a
# typed character outside them ends the pattern there (:func:`word_pattern`).
_FOLD_RANGES = (range(0x20, 0x2500), range(0xFB00, 0xFFF0))
_WORD_START = "(?<![0-9A-Za-z])"  # an accented letter before counts as a break here: more found, never fewer
_BRANCHES_MAX = 3  # letters like "ß" ("ss") a pattern spells both ways; the word is cut before a 4th


# What may stand between the letters of a stored name and fold to nothing: the combining accents
# of the European alphabets (a name stored decomposed, "Z" + "\u030c" + "agar" as some Mac files
# write it) and the invisible characters of names stored before they were refused. Other scripts'
# combining marks are left out to keep the pattern short (SQLite hands it to Python once a row):
# a typed word running across one of them inside a name is not found.
_SILENT = "[\u00ad\u034f\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u200b-\u200f\u2060-\u2064\ufe20-\ufe2f\ufeff]*"


@functools.cache
def _fold_table() -> tuple[dict[str, str], dict[str, str]]:
    """How the characters of :data:`_FOLD_RANGES` fold (:func:`fold`): ``(single, multi)``,
    ``single[c]`` a character class of every character folding to the one character ``c`` ("z":
    "[ZzŹ-žƵƶ…]", "d": "[DdĎ-đ…]"), ``multi[spelt]`` one of every letter folding to the several
    characters ``spelt`` ("ss": "[ßẞ]", "ae": "[ÆæǢ-ǣǼǽ]", "ij": "[Ĳĳ]", "fi": "[ﬁ]").
    Built once, in about 0.1 s."""
    single: dict[str, list[str]] = {}
    multi: dict[str, list[str]] = {}
    for code in (c for r in _FOLD_RANGES for c in r):
        char = chr(code)
        folded = _folded(char)
        if len(folded) == 1:
            single.setdefault(folded, []).append(char)
        elif len(folded) > 1 and char.isalpha():
            multi.setdefault(folded, []).append(char)
    return {k: _char_class(v) for k, v in single.items()}, {k: _char_class(v) for k, v in multi.items()}


def _char_class(chars: list[str]) -> str:
    """A character class of ``chars`` that Python's ``re`` (SQLite's REGEXP) and PostgreSQL read
    alike: runs of three or more consecutive code points as ranges, ASCII punctuation escaped."""
    codes = sorted({ord(c) for c in chars})
    parts, start = [], 0
    while start < len(codes):
        end = start
        while end + 1 < len(codes) and codes[end + 1] == codes[end] + 1:
            end += 1
        if end - start >= 2:
            parts.append(f"{_escaped(chr(codes[start]))}-{_escaped(chr(codes[end]))}")
        else:
            parts.extend(_escaped(chr(c)) for c in codes[start : end + 1])
        start = end + 1
    return "[" + "".join(parts) + "]"


def _escaped(char: str) -> str:
    """``char`` as it stands in a character class: ASCII punctuation after a backslash."""
    return "\\" + char if char.isascii() and not char.isalnum() else char


def word_pattern(word: str) -> str | None:
    """A regular expression the database matches a name or club against for one word of a
    search (folded, as :func:`words` gives it): some word of the text starts with characters
    folding to ``word``. Each letter is the class of every letter folding to it, in any case, with
    combining accents (and invisible characters, :data:`_SILENT`) allowed after it; a letter
    folding to several ("ß" for "ss", "ĳ" for "ij") is the other way to spell them, also where the
    word ends inside it ("stras" finds "Straß").

    Every text :func:`matches_words` accepts for ``word`` matches (the pattern finds a few more:
    it counts an accented letter before as a word break). To stay so with a short pattern, the
    word is cut where a character outside :data:`_FOLD_RANGES` stands or a fourth letter could be
    spelt two ways: a shorter prefix still finds every match. ``None`` if nothing of it is left
    (the database does not narrow by this word)."""
    single, multi = _fold_table()
    by_first = _by_first(tuple(multi.items()))
    word = _cut(word, single.get, by_first)
    if not word:
        return None

    @functools.cache
    def rest(i: int) -> str:
        if i >= len(word):
            return ""
        ways = [single[word[i]] + _SILENT + rest(i + 1)]
        for spelt, chars in by_first.get(word[i], ()):
            if word.startswith(spelt, i):
                ways.append(chars + _SILENT + rest(i + len(spelt)))
            elif spelt.startswith(word[i:]):
                ways.append(chars)
        return ways[0] if len(ways) == 1 else "(?:" + "|".join(ways) + ")"

    return _WORD_START + rest(0)


@functools.cache
def _by_first(multi: tuple[tuple[str, str], ...]) -> dict[str, list[tuple[str, str]]]:
    """``multi`` (spelling, class) by the first letter of the spelling."""
    by_first: dict[str, list[tuple[str, str]]] = {}
    for spelt, chars in multi:
        by_first.setdefault(spelt[0], []).append((spelt, chars))
    return by_first


def _cut(word: str, letter, by_first: dict[str, list[tuple[str, str]]]) -> str:
    """``word`` (at most :data:`SEARCH_PATTERN_LETTERS`) cut before a letter ``letter`` has no
    class for, or where a fourth letter could be spelt two ways (a letter folding to several
    begins there, or the word ends inside one): the pattern stays short, and a prefix still
    finds every match."""
    word = word[:SEARCH_PATTERN_LETTERS]
    branches = 0
    for i, char in enumerate(word):
        branches += any(word.startswith(m, i) or m.startswith(word[i:]) for m, _chars in by_first.get(char, ()))
        if letter(char) is None or branches > _BRANCHES_MAX:
            return word[:i]
    return word


# A pasted list's pattern (:func:`names_pattern`) reads the printable ASCII characters of a name
# exactly; any other character may stand for any letter there, or between letters.
_BEYOND_ASCII = "[^ -~]"
NAME_PATTERN_LETTERS = 8  # of a name's longest word: enough to tell the register's names apart


@functools.cache
def _ascii_letter(char: str) -> str:
    """The class :func:`names_pattern` gives the folded letter ``char``: the printable ASCII
    characters folding to it and every character beyond ("b": "[^ -AC-ac-~]"), as short as a
    class can be, and compiled at once by Python's regular expressions (a class holding
    characters beyond Latin-1 takes ~1 ms each time it stands in a pattern)."""
    keep = {code for code in range(0x20, 0x7F) if _folded(chr(code)) == char}
    runs, start = [], None
    for code in range(0x20, 0x80):
        if code < 0x7F and code not in keep:
            start = code if start is None else start
        elif start is not None:
            runs.append((start, code - 1))
            start = None
    spelt = (_range_end(chr(a)) if a == b else f"{_range_end(chr(a))}-{_range_end(chr(b))}" for a, b in runs)
    return "[^" + "".join(spelt) + "]"


def _range_end(char: str) -> str:
    """``char`` in a class as both Python and PostgreSQL read it: escaped if it has a meaning there."""
    return "\\" + char if char in "\\]^-[" else char


def names_pattern(name_words: list[str]) -> str | None:
    """One regular expression for many names, each by a word (folded, as :func:`words` gives
    it): a text matches if some word of it starts with characters folding to one of
    ``name_words`` (:func:`namesakes`). Each word is read up to :data:`NAME_PATTERN_LETTERS`
    letters, and the words share their beginnings (a tree of letters: "berger", "bernd" and "berg"
    are "ber(?:g|nd)"), so each letter of a text is read once, not once per name.

    Written to be short and compiled at once, it finds more than :func:`word_pattern`: a letter
    is the printable ASCII characters folding to it ("u", "U") or any other character, which may
    also stand for a spelling of a letter folding to several ("ß" for "ss", "ĳ" for "ij"), and
    characters other than printable ASCII may stand between letters (the combining accents of a
    name stored decomposed). So "Šuštar" and "Jože" match for "sustar" and "joze", and so does
    "Ѕuшtar"; the caller checks exactly. SQLite hands the pattern to Python for every row, and
    Python compiles a class holding characters beyond Latin-1 in ~1 ms each time it stands in a
    pattern: :func:`word_pattern`'s for a list of a hundred names took seconds.

    ``None`` if a word is empty: the database cannot narrow."""
    _single, multi = _fold_table()
    by_first = _by_first(tuple((spelt, _BEYOND_ASCII) for spelt in multi))
    letter = _ascii_letter
    fill = _BEYOND_ASCII + "*"

    end = ""  # the key marking where a word ends in the tree
    tree: dict = {}
    for word in name_words:
        word = _cut(word[:NAME_PATTERN_LETTERS], letter, by_first)
        if not word:
            return None
        node = tree
        for char in word:
            if end in node:
                break  # a shorter word is a prefix of it: that one finds it
            node = node.setdefault(char, {})
        else:
            node.clear()  # longer words are found by this one
            node[end] = True

    @functools.cache
    def after(key: int) -> str:
        node = nodes[key]
        return "" if end in node else fill + rest(key)

    @functools.cache
    def rest(key: int) -> str:
        node = nodes[key]
        ways = []
        for char, child in node.items():
            ways.append(letter(char) + after(id(child)))
            for spelt, chars in by_first.get(char, ()):
                reached = node
                for spelt_char in spelt:
                    if end in reached:
                        break
                    reached = reached.get(spelt_char)
                    if reached is None:
                        break
                if reached is not None:  # a word ends inside the letter, or goes on after it
                    ways.append(chars + after(id(reached)))
        ways = list(dict.fromkeys(ways))
        return ways[0] if len(ways) == 1 else "(?:" + "|".join(ways) + ")"

    nodes: dict[int, dict] = {}
    stack = [tree]
    while stack:
        node = stack.pop()
        nodes[id(node)] = node
        stack.extend(child for char, child in node.items() if char != end)
    return _WORD_START + rest(id(tree)) if tree else None


@dataclass
class NameLine:
    """One name to register, a line of a pasted list or the single new player, and what
    registering it does.

    ``line``: its line in the pasted list (1 for the first line as typed, blank lines counted), or
    ``None`` for the name typed in the "New player" fields. ``status``: ``"problem"`` (``problem``
    says why), ``"registered"`` (already in the tournament: nothing to do), ``"existing"``
    (``player``, the register's), ``"new"`` (a new player) or ``"choose"`` (``candidates`` have
    this name: the director picks one or a new player). ``by_name``: ``player`` is the only one of
    the register with this name, taken although the typed name or club is not exactly his (the
    director is told whom).
    """

    line: int | None
    name: str
    club: str
    status: str = "new"
    player: Player | None = None
    candidates: list[Player] = field(default_factory=list)
    problem: str = ""
    by_name: bool = False

    @property
    def label(self) -> str:
        """"Anna Berger (Imst)", or the name alone without a club."""
        return f"{self.name} ({self.club})" if self.club else self.name

    @property
    def key(self) -> str:
        """What the director's choice for this name is posted under: its line, or ``"new"``."""
        return "new" if self.line is None else str(self.line)

    @property
    def text(self) -> str:
        """The name as a line of a pasted list: "Anna Berger; Imst"."""
        return f"{self.name}; {self.club}" if self.club else self.name


def read_names(text: str, new_player: tuple[str, str] | None = None) -> list[NameLine]:
    """The non-blank lines of the pasted list ``text`` as :class:`NameLine` (numbered as typed,
    from 1, blank lines counted), with the problems of the line itself: no name, too long, a
    character no name may hold (a control, direction or invisible character,
    :func:`tournaments.text.line_problems`, naming the line and the character). A byte-order mark
    as the very first character of ``text`` is the pasted file's encoding and is left out;
    anywhere else it is such a problem.

    ``new_player``: ``(name, club)`` typed in the "New player" fields (checked by the form), added
    last with no line number: messages about it speak of "the new player", never of a line."""
    text = strip_encoding_mark(text)
    bad = line_problems(text, name_like=True)
    lines = []
    for number, raw in enumerate(split_lines(text), start=1):
        if not raw.strip():
            continue
        if "\t" in raw or ";" in raw:
            name, _sep, club = re.split(r"([\t;])", raw, maxsplit=1)
        elif match := _CLUB_IN_BRACKETS.match(raw):
            name, club = match.group(1), match.group(2)
        else:
            name, club = raw, ""
        entry = NameLine(number, " ".join(name.split()), " ".join(club.split()))
        if not entry.name:
            entry.status, entry.problem = "problem", _("Line %(line)s has no name.") % {"line": number}
        elif len(entry.name) > NAME_MAX or len(entry.club) > CLUB_MAX:
            entry.status = "problem"
            entry.problem = _("Line %(line)s: a name or club is longer than %(max)s characters.") % {"line": number, "max": NAME_MAX}
        elif number in bad:
            entry.status, entry.problem = "problem", bad[number]
        lines.append(entry)
    if new_player is not None and " ".join(new_player[0].split()):
        lines.append(NameLine(None, " ".join(new_player[0].split()), " ".join(new_player[1].split())))
    return lines


def namesakes(names: list[str]) -> dict[tuple[str, ...], list[Player]]:
    """The players of the register whose name is one of ``names`` (its words folded, in any order:
    :func:`name_key`), ``{name_key: [players, by id]}`` for the names somebody has.

    One query, however long the list: the database narrows the register by the longest word of
    each name, all in one pattern (:func:`names_pattern`: every player with that word in his name
    matches, a few more too), and Python keeps the players whose :func:`name_key` is one of the
    names'. A register of thousands is never read whole for a pasted list: measured at 5,000
    players on a busy test machine, 20 names took 25–50 ms on PostgreSQL and 75–100 ms on SQLite,
    100 names 55–70 and 115–120 ms, where reading the register whole took 200–450 ms on either.
    A name with no word (punctuation alone) cannot narrow it: the register is read whole then."""
    keys = {name_key(name) for name in names if fold(name)}
    if not keys:
        return {}
    longest = [max(words(" ".join(key)), key=len, default="") for key in keys]
    players = Player.objects.order_by("pk").only("id", "name", "club")
    if pattern := names_pattern(sorted(longest)):
        players = players.filter(name__regex=pattern)
    by_key: dict[tuple[str, ...], list[Player]] = {}
    for player in players.iterator(chunk_size=500):
        key = name_key(player.name)
        if key in keys:
            by_key.setdefault(key, []).append(player)
    return by_key


def resolve(tournament: Tournament, lines: list[NameLine], choices: dict[str, str] | None = None) -> list[NameLine]:
    """Match every name against the register and the tournament (in place; returns ``lines``).

    - A name and club that are exactly one player's (case, accents and spaces aside) are his.
    - A pasted name (its words in any order) that exactly one player of the register has is his
      too, unless a town or club is typed that is not his: then it may be a namesake, and the
      director chooses. The director is told whom the name was taken for (``by_name``): a
      tournament director pasting a list of regulars expects them found, and sees at once if one
      is not. Not so the name typed in the "New player" fields: the director said it is somebody
      new, so a namesake there (another club, or none typed) is asked about.
    - A name several players have (or one with another club) waits for the director's choice
      (``"choose"``); it does not hold up the other names (:func:`register_lines`).
    - A name nobody has is a new player.

    ``choices``: the director's pick for a name that needed one, ``{NameLine.key: "new" | player
    id}``; a player id that is no candidate of the name is asked about again.

    Problems, where they stand the second time: a name and club twice in the list, and a name
    taken for the same player as an earlier one ("Anna Berger; Imst" and "Anna Berger", the
    second taken by the name alone, or chosen so): a player is registered once, and a line that
    registers nobody is never passed over without a word; the director corrects the list, which
    names both lines. The register is read once (:func:`namesakes`).
    """
    choices = choices or {}
    registered = set(tournament.registrations.values_list("player_id", flat=True))
    by_key = namesakes([e.name for e in lines if e.status != "problem"])
    seen: dict[tuple, int | None] = {}
    taken_by: dict[int, NameLine] = {}
    for entry in lines:
        if entry.status == "problem":
            continue
        key = (name_key(entry.name), fold(entry.club))
        if key in seen:
            entry.status = "problem"
            if entry.line is None:
                entry.problem = _("The new player %(player)s is in the pasted list already (line %(other)s).") % {
                    "player": entry.label, "other": seen[key]}
            else:
                entry.problem = _("Line %(line)s: %(player)s is in the list twice (also line %(other)s).") % {
                    "line": entry.line, "player": entry.label, "other": seen[key]}
            continue
        seen[key] = entry.line
        same_name = by_key.get(name_key(entry.name), [])
        exact = [p for p in same_name if fold(p.name) == fold(entry.name) and fold(p.club) == fold(entry.club)]
        entry.candidates = same_name
        choice = choices.get(entry.key)
        if choice == "new":
            entry.status = "new"
        elif choice:
            entry.player = next((p for p in same_name if str(p.pk) == choice), None)
            entry.status = "existing" if entry.player else "choose"
        elif len(exact) == 1:
            entry.status, entry.player = "existing", exact[0]
        elif (
            entry.line is not None
            and len(same_name) == 1
            and not exact
            and (not entry.club or fold(entry.club) == fold(same_name[0].club))
        ):
            entry.status, entry.player, entry.by_name = "existing", same_name[0], True
        elif same_name:
            entry.status = "choose"
        else:
            entry.status = "new"
        if entry.player is None:
            continue
        if (earlier := taken_by.get(entry.player.pk)) is not None:
            entry.status = "problem"
            entry.problem = _same_player(entry, earlier)
            continue
        taken_by[entry.player.pk] = entry
        if entry.player.pk in registered:
            entry.status = "registered"
    return lines


def _same_player(entry: NameLine, earlier: NameLine) -> str:
    """The problem of ``entry``, taken for the player ``earlier`` was taken for already."""
    values = {"line": entry.line, "other": earlier.line, "player": entry.player}
    if entry.line is None:
        return _("The new player is the same player as line %(other)s: %(player)s.") % values
    return _("Line %(line)s is the same player as line %(other)s: %(player)s.") % values


def register_lines(tournament: Tournament, lines: list[NameLine], user=None) -> list[Registration]:
    """Register the resolved names in one transaction (new players created): every ``"existing"``
    and ``"new"`` one. Names already registered are skipped (the page names them), and so are
    those waiting for the director's choice (``"choose"``): they do not hold up the others, the
    page asks about them. A player registered since the list was resolved (in a second tab) is
    not registered twice: his line becomes ``"registered"``, and is named so.
    Raises :class:`RegistrationRefused` if any name has a problem (a line without a name, a name
    twice, two lines of one player …): then nothing is registered, and the list is corrected as a
    whole."""
    problems = [e for e in lines if e.status == "problem"]
    if problems:
        where = [_("line %(line)s") % {"line": e.line} for e in problems if e.line is not None]
        if any(e.line is None for e in problems):
            where.append(_("the new player"))
        raise RegistrationRefused(
            _("Nothing was registered: correct %(where)s as marked below.") % {"where": get_text_list(where, _("and"))}
        )
    with transaction.atomic():
        touch(tournament.pk)  # locks the row: start numbers, as services.register
        number = tournament.registrations.aggregate(m=Max("start_number"))["m"] or 0
        taken = set(tournament.registrations.values_list("player_id", flat=True))
        registrations = []
        for entry in lines:
            if entry.status not in ("existing", "new"):
                continue
            if entry.player is not None and entry.player.pk in taken:
                entry.status = "registered"  # registered meanwhile (a second tab): once is enough
                continue
            player = entry.player or Player.objects.create(name=entry.name, club=entry.club)
            number += 1
            taken.add(player.pk)
            registrations.append(Registration.objects.create(tournament=tournament, player=player, start_number=number))
        if registrations:
            actions.log(
                tournament.pk, actions.Action.REGISTERED, user,
                detail=", ".join(f"{r.player.name} ({r.start_number})" for r in registrations),
            )
    return registrations


def waiting(lines: list[NameLine]) -> tuple[str, tuple[str, str] | None, list[NameLine]]:
    """The names of ``lines`` still waiting for the director's choice, as the form is filled
    again to ask about them: ``(pasted list, new player, lines)``, the list's lines in their order
    (so they are numbered anew from 1) and the new player's ``(name, club)`` or ``None``, and
    their :class:`NameLine`, numbered so and still resolved (their candidates were read for this
    list: the register is not read again to ask about them)."""
    pending = [e for e in lines if e.status == "choose"]
    pasted = [e for e in pending if e.line is not None]
    text = "\n".join(e.text for e in pasted)
    new = next(((e.name, e.club) for e in pending if e.line is None), None)
    renumbered = [replace(e, line=number) for number, e in enumerate(pasted, start=1)]
    renumbered += [e for e in pending if e.line is None]
    return text, new, renumbered


def seated_registrations(tournament: Tournament) -> set[int]:
    """Ids of the registrations that sit (or sat) at a table of ``tournament``, as player or as
    substitute: these withdraw, they are no longer removed (:func:`remove_registration`)."""
    seats = Seat.objects.filter(table__round__tournament=tournament)
    return set(seats.values_list("registration_id", flat=True)) | set(
        seats.exclude(substitute=None).values_list("substitute_id", flat=True)
    )


def remove_registration(registration: Registration, user=None) -> None:
    """Remove a registration made by mistake. Only while its player sits at no table of the
    tournament (as player or substitute); afterwards he withdraws instead and keeps what he played.
    Before round 1 the later start numbers close the gap. Raises :class:`RegistrationRefused`."""
    with transaction.atomic():
        touch(registration.tournament_id)
        tournament = Tournament.objects.get(pk=registration.tournament_id)
        if Seat.objects.filter(Q(registration=registration) | Q(substitute=registration)).exists():
            raise RegistrationRefused(
                _("%(name)s is seated in a round already: withdraw the player instead; what was played is kept.")
                % {"name": registration.player.name}
            )
        number = registration.start_number
        actions.log(
            tournament.pk, actions.Action.UNREGISTERED, user, detail=f"{registration.player.name} ({number})"
        )
        registration.delete()
        if not tournament.round_set.exists():
            for later in tournament.registrations.filter(start_number__gt=number).order_by("start_number"):
                later.start_number -= 1
                later.save(update_fields=["start_number"])


def duplicate_groups() -> list[list[Player]]:
    """Groups of players in the register whose names are the same (folded, any word order)."""
    groups: dict[tuple, list[Player]] = {}
    for player in Player.objects.order_by("name", "club", "pk"):
        groups.setdefault(name_key(player.name), []).append(player)
    return [group for group in groups.values() if len(group) > 1]


def merge_players(keep: Player, merged: Player, user=None) -> int:
    """Make ``merged`` one with ``keep``: his registrations (and so his seats, hands, standings
    and cup results) become ``keep``'s and ``merged`` leaves the register. Returns how many
    registrations moved. Raises :class:`RegistrationRefused` if both play in one tournament, or
    an app above refuses (:data:`tournaments.signals.players_merging`: both have an imported cup
    result in one event); nothing is changed then."""
    if keep.pk == merged.pk:
        raise RegistrationRefused(_("Choose two different players."))
    with transaction.atomic():
        touch_players([keep.pk, merged.pk])
        both = Tournament.objects.filter(registrations__player=keep).filter(registrations__player=merged).distinct()
        if both.exists():
            raise RegistrationRefused(
                _("Both are registered in %(tournaments)s: remove or withdraw one of them there first.")
                % {"tournaments": ", ".join(str(t) for t in both)}
            )
        # The apps above move what they hold of him (cup results), or refuse.
        signals.players_merging.send(sender=Player, keep=keep, merged=merged, user=user)
        actions.log_players([merged.pk], actions.Action.PLAYERS_MERGED, user, detail=f"{merged} → {keep}")
        moved = Registration.objects.filter(player=merged).update(player=keep)
        merged.delete()
    return moved


def set_withdrawn(registration: Registration, withdrawn: bool, user=None) -> bool:
    """Withdraw the player of ``registration`` (or reinstate him, ``withdrawn=False``). Sets,
    never toggles, so a double click withdraws once; returns whether it changed. A withdrawn
    player keeps his played rounds."""
    with transaction.atomic():
        touch(registration.tournament_id)
        current = Registration.objects.select_for_update().select_related("player").get(pk=registration.pk)
        if current.withdrawn == withdrawn:
            return False
        current.withdrawn = registration.withdrawn = withdrawn
        current.save(update_fields=["withdrawn"])
        action = actions.Action.WITHDRAWN if withdrawn else actions.Action.REINSTATED
        actions.log(current.tournament_id, action, user, detail=f"{current.player.name} ({current.start_number})")
    return True


def record_lots(tournament: Tournament, lots: dict[Registration, int | None], user=None) -> None:
    """Record the drawn lots (or cards) of level players, ``{registration: lot or None}``, as
    the director entered them on the final standings."""
    with transaction.atomic():
        touch(tournament.pk)
        changed = [f"{reg.player.name}: {'–' if lot is None else lot}" for reg, lot in lots.items() if reg.lot != lot]
        for reg, lot in lots.items():
            reg.lot = lot
            reg.save(update_fields=["lot"])
        if changed:
            actions.log(tournament.pk, actions.Action.LOTS, user, detail=", ".join(changed))
