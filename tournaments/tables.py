"""django-tables2 tables for players and registrations."""

import django_tables2 as tables
from django.utils.translation import gettext_lazy as _

from .models import Player, Registration


class PlayerTable(tables.Table):
    class Meta:
        model = Player
        fields = ("name", "club")
        orderable = False
        attrs = {"class": "grid"}


class RegistrationTable(tables.Table):
    start_number = tables.Column(verbose_name=_("No."))
    name = tables.Column(accessor="player__name", verbose_name=_("name"))
    club = tables.Column(accessor="player__club", verbose_name=_("town or club"))
    withdrawn = tables.TemplateColumn(
        template_name="tournaments/_withdraw_button.html", verbose_name=_("withdrawn")
    )

    class Meta:
        model = Registration
        fields = ("start_number", "name", "club", "withdrawn")
        orderable = False
        attrs = {"class": "grid"}
