"""Public tournament pages: list, overview and round seating. Read-only."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.translation import gettext
from django.views.generic import DetailView, ListView, TemplateView

from .forms import SubstituteForm, SwapForm
from .links import player_names_link, qr_png
from .models import ActionLog, Round, Seat, Tournament
from .permissions import Can
from .problems import card_labels
from .public_cache import CachedPublicPage, layout_version
from .services import draw_problem, table_counts


class TournamentListView(ListView):
    model = Tournament
    template_name = "tournaments/tournament_list.html"
    context_object_name = "tournaments"


class TournamentDetailView(CachedPublicPage, DetailView):
    model = Tournament
    template_name = "tournaments/tournament_detail.html"
    context_object_name = "tournament"

    def get_queryset(self):
        # The page links the Ö-Finale when there is one, and a mirror's note names its version.
        return Tournament.objects.select_related("oe_finale", "mirror")

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        t = self.object
        ctx["rounds"] = round_progress(t)
        ctx["registrations"] = t.registrations.filter(withdrawn=False).count()  # the active field
        ctx["can"] = Can(self.request.user, t.pk)
        ctx["ruleset"] = t.get_ruleset()
        if ctx["can"].direct:  # what keeps the next round from being drawn, shown instead of "Draw"
            ctx["draw_problem"] = draw_problem(t)
        return ctx


_ANY_PK = 9_876_543_210  # a table id no URL holds otherwise


def round_progress(t: Tournament) -> list[dict]:
    """Per drawn round of ``t``: ``{"round": Round, "cards": html}``, one card per table with its
    link and the hands entered against its cap ("12/16 hands", marked when done).

    The page is rendered again after every hand entered anywhere (its version changes), so the
    cards are read as plain rows (:func:`~tournaments.services.table_counts`) and joined in Python
    with the page's translations; a template loop over model objects took 70 ms at 1,000 players
    (750 tables), most of the page's time."""
    rounds = {r.pk: {"round": r, "cards": []} for r in t.round_set.order_by("number")}
    caps: dict[int, int] = {}
    table_label, progress = gettext("Table %(number)s"), gettext("%(hands)s/%(cap)s hands")
    # A table's sheet address, reversed once: "reverse" per table was 40 % of what remained.
    head, tail = reverse("scoring:sheet", args=[_ANY_PK]).split(str(_ANY_PK))
    for pk, number, round_id, size, played in table_counts(t):
        if size not in caps:
            caps[size] = t.hands_for_table(size)
        cap = caps[size]
        rounds[round_id]["cards"].append(
            (
                f"{head}{pk}{tail}",
                table_label % {"number": number},
                "pos" if played >= cap else "muted",
                progress % {"hands": played, "cap": cap},
            )
        )
    for r in rounds.values():
        r["cards"] = format_html_join(
            "\n", '<div class="card"><h3><a href="{}">{}</a></h3>\n<span class="{}">{}</span></div>', r["cards"]
        )
    return list(rounds.values())


def get_round(pk: int, number: int) -> Round:
    """Round ``number`` of tournament ``pk`` with its tournament, or 404."""
    return get_object_or_404(Round.objects.select_related("tournament"), tournament_id=pk, number=number)


def round_seating(rnd: Round) -> dict:
    """Tables with their players in seat order and drawn cards, the players by name, the draw
    report with names (one query over the seats)."""
    cards = card_labels(rnd.tournament.get_ruleset())
    seats = list(
        Seat.objects.filter(table__round=rnd)
        .select_related("registration__player", "substitute__player", "table")
        .order_by("table__number", "position")
    )
    tables: dict = {}
    for seat in seats:
        tables.setdefault(seat.table, []).append({"seat": seat, "card": cards.get(seat.card, seat.card)})
    names = {s.registration_id: s.registration.player.name for s in seats}
    by_name = sorted(
        ({"name": s.registration.player.name, "club": s.registration.player.club, "table": s.table.number,
          "seat": s.position + 1, "card": cards.get(s.card, s.card)} for s in seats),
        key=lambda r: r["name"].casefold(),
    )
    report = rnd.report or {}
    repeats = [
        {"a": names.get(a, "?"), "b": names.get(b, "?"), "rounds": rounds}
        for a, b, rounds in report.get("repeats", [[a, b, []] for a, b in rnd.repeats])
    ]
    return {
        "tables": [{"table": t, "seats": members} for t, members in tables.items()],
        "by_name": by_name,
        "repeats": repeats,
        "report": report,
    }


class RoundSeatingView(CachedPublicPage, TemplateView):
    """The seating list of a round by table and by name, with the draw report."""

    template_name = "tournaments/round_seating.html"

    def version_for(self, **kwargs):
        return layout_version(kwargs["pk"])  # no hand on this page: a saved hand leaves it cached

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        rnd = get_round(kwargs["pk"], kwargs["number"])
        ctx.update(round_seating(rnd), round=rnd, tournament=rnd.tournament)
        ctx["log"] = rnd.tournament.actions.filter(round_number=rnd.number, action__in=ActionLog.SEATING).select_related("user")
        ctx["names_url"] = player_names_link(rnd.tournament_id)
        ctx["names_qr"] = qr_png(ctx["names_url"])
        ctx["can"] = can = Can(self.request.user, rnd.tournament_id)
        if can.direct:
            ctx["swap_form"] = SwapForm(round=rnd)
            ctx["substitute_form"] = SubstituteForm(round=rnd)
            ctx["locked"] = rnd.tables.filter(hands__isnull=False).exists()
            ctx["is_last"] = not rnd.tournament.round_set.filter(number__gt=rnd.number).exists()
        return ctx
