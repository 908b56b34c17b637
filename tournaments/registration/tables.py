"""django-tables2 tables for players and registrations."""

import django_tables2 as tables
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player, Registration


class PlayerTable(tables.Table):
    edit = tables.TemplateColumn(
        '<a href="{% url \'tournaments_director:player_edit\' record.pk %}">{% load i18n %}{% translate "edit" %}</a>',
        verbose_name="",
        orderable=False,
    )

    class Meta:
        model = Player
        fields = ("name", "club", "edit")
        orderable = False
        attrs = {"class": "grid"}


class RegistrationTable(tables.Table):
    """The register of a tournament. Its headers are capitalised here ("Name", "Town or club"):
    django-tables2 capitalises the verbose names it takes from a model field, not those a column
    is given, and these reuse the model's lower-case words."""

    start_number = tables.Column(verbose_name=_("No."))
    name = tables.Column(accessor="player__name", verbose_name=capfirst(_("name")))
    club = tables.Column(accessor="player__club", verbose_name=capfirst(_("town or club")))
    withdrawn = tables.TemplateColumn(
        template_name="tournaments/_withdraw_button.html",
        verbose_name=capfirst(_("withdrawn")),
        extra_context={},
    )

    class Meta:
        model = Registration
        fields = ("start_number", "name", "club", "withdrawn")
        orderable = False
        attrs = {"class": "grid"}

    def __init__(self, *args, seated=(), **kwargs):
        """``seated``: registration ids seated in some round (they withdraw; the others can be
        removed)."""
        super().__init__(*args, **kwargs)
        self.columns["withdrawn"].column.extra_context = {"seated": set(seated)}
