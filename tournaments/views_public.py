"""Public tournament pages: list, overview, round seating and the rules page. Read-only."""

from django.shortcuts import get_object_or_404
from django.views.generic import DetailView, ListView, TemplateView

from .models import Round, Seat, Tournament


class TournamentListView(ListView):
    model = Tournament
    template_name = "tournaments/tournament_list.html"
    context_object_name = "tournaments"


class TournamentDetailView(DetailView):
    model = Tournament
    template_name = "tournaments/tournament_detail.html"
    context_object_name = "tournament"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        t = self.object
        rounds = list(t.round_set.prefetch_related("tables__hands", "tables__seats"))
        ctx["rounds"] = [
            {
                "round": r,
                "tables": [
                    {
                        "table": tb,
                        "hands": len(tb.hands.all()),
                        "cap": t.hands_for_table(len(tb.seats.all())),
                    }
                    for tb in r.tables.all()
                ],
            }
            for r in rounds
        ]
        ctx["registrations"] = t.registrations.count()
        ctx["ruleset"] = t.get_ruleset()
        return ctx


class RoundSeatingView(TemplateView):
    """The seating list of a round: every table with its players in seat order and drawn cards."""

    template_name = "tournaments/round_seating.html"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament_id=kwargs["pk"], number=kwargs["number"])
        rs = rnd.tournament.get_ruleset()
        seats = Seat.objects.filter(table__round=rnd).select_related("registration__player", "table")
        tables: dict = {}
        for seat in seats.order_by("table__number", "position"):
            tables.setdefault(seat.table, []).append(seat)
        cards = {}
        for size in rs.table_sizes:
            cards.update({c.key: c.name for c in rs.seat_cards(size)})
        ctx.update(
            round=rnd,
            tournament=rnd.tournament,
            tables=[
                {"table": t, "seats": [{"seat": s, "card": cards.get(s.card, s.card)} for s in members]}
                for t, members in tables.items()
            ],
            repeats=rnd.repeats,
        )
        return ctx


class RulesView(DetailView):
    """Contracts and bonuses of the tournament's ruleset edition, from its catalogue."""

    model = Tournament
    template_name = "tournaments/rules.html"
    context_object_name = "tournament"

    def get_context_data(self, **kwargs):
        ctx = super().get_context_data(**kwargs)
        rs = self.object.get_ruleset()
        ctx["ruleset"] = rs
        ctx["contracts"] = [
            {
                "contract": c,
                "bonuses": rs.allowed_bonuses(c.key),
                "bird": rs.bonus(c.bird) if c.bird and c.bird != "any" else None,
            }
            for c in rs.contracts
        ]
        return ctx
