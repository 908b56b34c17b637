"""The shapes of the public API's answers, for its OpenAPI schema (drf-spectacular).

Read-only: the answers themselves are built as plain data by :mod:`scoring.api.answers` (faster
than serializing 1,000 standings rows field by field after every hand); each serializer here
states the keys and types of one of them, and ``tests/scoring/api`` checks that an answer read
through its serializer comes out unchanged."""

from rest_framework import serializers as s


class RulesetSerializer(s.Serializer):
    key = s.CharField()
    edition = s.CharField()
    label = s.CharField(help_text="The ruleset edition's name in the answer's language.")


class TournamentLinksSerializer(s.Serializer):
    self = s.URLField()
    standings = s.URLField()
    rounds = s.URLField()
    page = s.URLField()
    standings_page = s.URLField()
    widget = s.URLField(help_text="The standings widget, a page for an <iframe> (?top=10&lang=de).")


class TournamentSerializer(s.Serializer):
    id = s.IntegerField()
    uid = s.UUIDField(help_text="The tournament's identifier across sites.")
    name = s.CharField()
    date = s.DateField()
    venue = s.CharField(allow_blank=True)
    ruleset = RulesetSerializer()
    status = s.ChoiceField(choices=["planned", "running", "finished"])
    rounds = s.IntegerField(help_text="Rounds planned.")
    data_version = s.IntegerField(help_text="Bumped by every change of what its pages show.")
    mirrored_from = s.CharField(allow_blank=True, help_text="Not empty: a read-only mirror of a tournament run there.")
    links = TournamentLinksSerializer()


class TournamentPageSerializer(s.Serializer):
    count = s.IntegerField()
    next = s.URLField(allow_null=True)
    previous = s.URLField(allow_null=True)
    results = TournamentSerializer(many=True)


class CupRefSerializer(s.Serializer):
    id = s.IntegerField()
    name = s.CharField()
    link = s.URLField()


class TournamentDetailSerializer(TournamentSerializer):
    hands_per_round = s.IntegerField()
    drawn_rounds = s.ListField(child=s.IntegerField())
    players = s.IntegerField(help_text="Registered players who have not withdrawn.")
    cup = CupRefSerializer(allow_null=True)


class StandingsRoundSerializer(s.Serializer):
    round = s.IntegerField()
    score = s.IntegerField(allow_null=True, help_text="null: not played (yet).")
    table = s.IntegerField(allow_null=True)
    table_points = s.FloatField(allow_null=True, help_text="Where the ruleset ranks by table points (Bled).")
    table_points_shown = s.CharField(allow_null=True, help_text='As the page shows them ("1½").')
    provisional = s.BooleanField(help_text="The table points may still change: the table plays.")
    playing = s.BooleanField(help_text="His table still plays this round.")


class StandingsRowSerializer(s.Serializer):
    rank = s.IntegerField()
    shared = s.BooleanField(help_text="The rank is shared with the row above.")
    player_id = s.IntegerField(help_text="As in /api/v1/tournaments/{id}/players/{player_id}/.")
    name = s.CharField()
    club = s.CharField(allow_blank=True)
    start_number = s.IntegerField()
    withdrawn = s.BooleanField()
    total = s.FloatField(help_text="What the standings rank by (game points, or table points).")
    total_shown = s.CharField()
    total_words = s.CharField(allow_blank=True, help_text='What players call the total (Cego: "3 Gute").')
    game_points = s.IntegerField()
    rounds = StandingsRoundSerializer(many=True)
    tiebreak = s.CharField(allow_blank=True, help_text="What separated him from the row above, as the page says it.")


class StandingsSerializer(s.Serializer):
    tournament = s.IntegerField()
    name = s.CharField()
    rounds = s.ListField(child=s.IntegerField(), help_text="The rounds counted (columns).")
    after = s.IntegerField(allow_null=True, help_text="?after=N: the standings after that round.")
    final = s.BooleanField(help_text="Every round drawn, counted and finished.")
    provisional = s.BooleanField(help_text="Some counted table is still playing.")
    level = s.BooleanField(help_text="Some players share a rank after every tie-break.")
    ranked_by = s.CharField()
    tiebreaks = s.ListField(child=s.CharField())
    rows = StandingsRowSerializer(many=True)
    links = TournamentLinksSerializer()


class SubstituteSerializer(s.Serializer):
    player_id = s.IntegerField()
    name = s.CharField()
    from_hand = s.IntegerField()


class SeatSerializer(s.Serializer):
    seat = s.IntegerField(help_text="1 for the first seat.")
    player_id = s.IntegerField()
    name = s.CharField()
    club = s.CharField(allow_blank=True)
    card = s.CharField(help_text="The seating card drawn.")
    substitute = SubstituteSerializer(allow_null=True)


class TableSerializer(s.Serializer):
    id = s.IntegerField()
    number = s.IntegerField()
    hands_played = s.IntegerField()
    hands_planned = s.IntegerField()
    finished = s.BooleanField()
    seats = SeatSerializer(many=True)
    link = s.URLField(help_text="The table's public score sheet.")


class RoundSerializer(s.Serializer):
    number = s.IntegerField()
    verified = s.BooleanField()
    tables = TableSerializer(many=True)


class RoundDetailSerializer(RoundSerializer):
    tournament = s.IntegerField()


class RoundsSerializer(s.Serializer):
    tournament = s.IntegerField()
    rounds = RoundSerializer(many=True)


class HandSerializer(s.Serializer):
    number = s.IntegerField()
    label = s.CharField(help_text="The hand in words, as the sheet says it.")
    score = s.IntegerField()
    total = s.IntegerField(help_text="His running total at the table.")


class PlayerRoundSerializer(s.Serializer):
    round = s.IntegerField()
    table = s.IntegerField()
    table_id = s.IntegerField()
    seat = s.IntegerField()
    card = s.CharField()
    mates = s.ListField(child=s.CharField())
    score = s.IntegerField()
    substitute_from = s.IntegerField(allow_null=True)
    hands = HandSerializer(many=True)


class PlayerLinksSerializer(s.Serializer):
    self = s.URLField()
    page = s.URLField()
    tournament = s.URLField()


class PlayerSerializer(s.Serializer):
    tournament = s.IntegerField()
    player_id = s.IntegerField()
    name = s.CharField()
    club = s.CharField(allow_blank=True)
    start_number = s.IntegerField()
    withdrawn = s.BooleanField()
    rank = s.IntegerField(allow_null=True)
    shared = s.BooleanField()
    total = s.FloatField(allow_null=True)
    rank_before = s.IntegerField(allow_null=True, help_text="After the round before the last one drawn.")
    rounds = PlayerRoundSerializer(many=True)
    links = PlayerLinksSerializer()


class CupLinksSerializer(s.Serializer):
    self = s.URLField()
    page = s.URLField()


class CupSerializer(s.Serializer):
    id = s.IntegerField()
    name = s.CharField()
    ruleset = s.CharField()
    method = s.CharField()
    method_label = s.CharField()
    links = CupLinksSerializer()


class CupListSerializer(s.Serializer):
    results = CupSerializer(many=True)


class CupEventSerializer(s.Serializer):
    key = s.CharField(help_text='"t<id>" for a tournament kept here, "x<id>" for imported results.')
    name = s.CharField()
    short = s.CharField(allow_blank=True)
    date = s.DateField()
    away = s.BooleanField()
    players = s.IntegerField()
    tournament_id = s.IntegerField(allow_null=True)


class CupResultSerializer(s.Serializer):
    event = s.CharField()
    rank = s.IntegerField(allow_null=True, help_text="null: a qualifier absent from the final.")
    shared = s.BooleanField()
    points = s.IntegerField()
    counted = s.BooleanField()
    absent = s.BooleanField()


class CupRowSerializer(s.Serializer):
    rank = s.IntegerField()
    shared = s.BooleanField()
    player_id = s.IntegerField(help_text="As in /cups/{id}/players/{player_id}/.")
    name = s.CharField()
    club = s.CharField(allow_blank=True)
    results = CupResultSerializer(many=True)
    total = s.IntegerField()
    counted = s.IntegerField(help_text="Results counted.")
    played = s.IntegerField()
    qualified = s.BooleanField(help_text="Qualified for the cup's final.")


class RankingRefSerializer(s.Serializer):
    id = s.IntegerField()
    name = s.CharField()


class DateRefSerializer(s.Serializer):
    id = s.IntegerField()
    name = s.CharField()
    date = s.DateField()


class CupTableSerializer(CupSerializer):
    ranking = RankingRefSerializer(allow_null=True)
    rankings = RankingRefSerializer(many=True)
    counting = s.CharField()
    events = CupEventSerializer(many=True)
    rows = CupRowSerializer(many=True)
    to_come = DateRefSerializer(many=True)


class IndexSerializer(s.Serializer):
    tournaments = s.URLField()
    cups = s.URLField()
    schema = s.URLField()
