"""Template helpers for score sheets."""

from django import template

from scoring.ranking import format_points

register = template.Library()


@register.filter
def dict_get(mapping, key):
    """``mapping[key]`` or an empty list (for ``{% for flag in flags|dict_get:hand.pk %}``)."""
    return (mapping or {}).get(key, [])


@register.filter
def points(value) -> str:
    """Victory points as players write them: 2, 1½, ½, 3⅙ … (halves and sixths from shared
    places, ``tarok-bled.md`` §7); other values with two decimals."""
    return format_points(value)


@register.filter
def total_words(total, ruleset) -> str:
    """What players call a total under ``ruleset`` (Cego: Gute, Miese), translated; "" if nothing."""
    from tournaments.problems import translate_problem

    words = ruleset.total_words(total)
    return translate_problem(words) if words is not None else ""


@register.simple_tag
def switched_options(ruleset) -> list:
    """``[(label, on)]`` of the options this tournament set otherwise than the ruleset's default,
    labels translated (for the standings and their prints)."""
    from django.utils.translation import gettext

    return [(gettext(o.label), on) for o, on in ruleset.options_in_force() if on != o.default]


@register.simple_tag
def standings_rows(standings, ruleset, lots: bool = False):
    """The ``<tr>`` rows of the standings table (``scoring/standings.html``), built here rather
    than by a template loop: at 1,000 players the loop took 90 ms of the page's 150, and the public
    standings are rendered again after every hand. Per row: rank (blank when shared with
    the row above), name with "(withdrawn)" and the club, a cell per round (score or "–"; table
    points below it, marked provisional with "*" while the table plays), the total (with what
    players call it, e.g. Cego's "Gute", and game points beside table points) and the tie-break.
    Cells carry classes (``rank``, ``player``, ``round``, ``total``, ``game``, ``tiebreak``) and
    the round and game-point cells their column's name in ``data-label``: on a phone the
    stylesheet lays each row out in lines (rank, name, total; the rounds; the tie-break) instead
    of a table wider than the screen.
    ``lots``: the final standings seen by a director, who enters drawn lots or cards for level
    players in an input named ``lot_<entry key>``. Every text is escaped, by the standard library's
    :func:`html.escape` called as such: the same characters as Django's ``escape`` (which calls it), without
    its lazy-text wrapper, whose cost per call was a quarter of a 5,000-row page."""
    from html import escape as _escape

    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext

    def escape(text) -> str:
        return _escape(str(text))

    withdrawn = ' <span class="muted">(' + escape(gettext("withdrawn")) + ")</span>"
    provisional_title = escape(gettext("Table points, provisional: the table is still playing"))
    points_title = escape(gettext("Table points"))
    lot_word = escape(gettext("card") if "card_draw" in ruleset.tiebreaks else gettext("lot"))
    victory = bool(ruleset.victory_points)
    round_labels = [escape(gettext("R%(number)s") % {"number": n}) for n in standings.rounds]
    game_label = escape(gettext("Game points"))
    words: dict = {}
    out = []
    for row in standings.rows:
        e = row.entry
        name = escape(e.name)
        cells = [
            f'<tr data-find-text="{name}"><td class="num rank">{"" if row.shared else f"{row.rank}."}</td><td class="player">{name}',
            withdrawn if e.withdrawn else "",
            f'<br><span class="muted">{escape(e.club)}</span>' if e.club else "",
            "</td>",
        ]
        for label, (score, tp, provisional) in zip(round_labels, e.round_cells):
            cell = f'<td class="num round" data-label="{label}">' + ("–" if score is None else str(score))
            if tp is not None:
                cell += (
                    f'<br><span class="muted provisional" title="{provisional_title}">{format_points(tp)}*</span>'
                    if provisional
                    else f'<br><span class="muted" title="{points_title}">{format_points(tp)}</span>'
                )
            cells.append(cell + "</td>")
        if victory:
            cells.append(
                f'<td class="num total"><strong>{format_points(row.total)}</strong></td>'
                f'<td class="num game" data-label="{game_label}">{e.game_total}</td>'
            )
        else:
            total = row.total
            if total not in words:
                said = total_words(total, ruleset)
                words[total] = f'<br><span class="muted">{escape(said)}</span>' if said else ""
            cells.append(f'<td class="num total"><strong>{total}</strong>{words[total]}</td>')
        cells.append(f'<td class="tiebreak">{escape(row.tiebreak)}')
        if lots and (row.needs_lot or e.lot):
            lot = "" if e.lot is None else e.lot
            cells.append(
                f' <label>{lot_word} <input name="lot_{escape(e.key)}" value="{lot}" size="3" inputmode="numeric"></label>'
            )
        cells.append("</td></tr>\n")
        out.append("".join(cells))
    return mark_safe("".join(out))
