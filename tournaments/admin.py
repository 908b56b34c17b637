"""The site administrator's admin: it obeys the rules the tournament pages keep.

Rulesets and editions are choices from the registry and are fixed once a round is drawn; draws,
registrations, roles and the action log are shown, not changed, here (they are changed on the
tournament pages, which log and lock); a tournament with hands is not deleted here."""

from django import forms
from django.contrib import admin, messages
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from . import actions
from .forms import edition_choices
from .models import (
    ActionLog,
    OneTimePassword,
    Player,
    Registration,
    Round,
    Seat,
    SignInLink,
    Table,
    Tournament,
    TournamentRole,
)
from .versioning import touch_players


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club")
    search_fields = ("name", "club")

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            if change:
                touch_players([obj.pk])  # his name is on the pages of every tournament he played
                if form.changed_data:
                    actions.log_players([obj.pk], actions.Action.PLAYER_EDITED, request.user, detail=", ".join(form.changed_data))
            super().save_model(request, obj, form, change)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Draws are made and undone on the tournament pages, which lock a seating once hands are
    entered; the admin only shows them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class RegistrationInline(admin.TabularInline):
    """Registrations, withdrawals and lots are changed on the tournament's pages (logged)."""

    model = Registration
    extra = 0
    has_add_permission = has_change_permission = has_delete_permission = ReadOnlyAdmin.has_change_permission


class TournamentAdminForm(forms.ModelForm):
    """The ruleset and edition chosen together from the registry, as on the tournament form."""

    ruleset_edition = forms.ChoiceField(label=gettext_lazy("Ruleset and edition"), choices=edition_choices)

    class Meta:
        model = Tournament
        exclude = ["ruleset", "edition"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["ruleset_edition"].initial = f"{self.instance.ruleset}|{self.instance.edition}"

    def save(self, commit=True):
        self.instance.ruleset, self.instance.edition = self.cleaned_data["ruleset_edition"].split("|", 1)
        return super().save(commit)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "ruleset", "edition", "status")
    list_filter = ("ruleset", "status")
    inlines = [RegistrationInline]
    form = TournamentAdminForm

    def get_readonly_fields(self, request, obj=None):
        if obj is not None and obj.round_set.exists():
            return ("ruleset", "edition", "options")  # fixed once a round is drawn
        return ()

    def get_fields(self, request, obj=None):
        fields = [f for f in super().get_fields(request, obj) if f not in ("ruleset", "edition", "options")]
        if obj is not None and obj.round_set.exists():
            return [*fields, "ruleset", "edition", "options"]
        return ["ruleset_edition", *[f for f in fields if f != "ruleset_edition"]]

    def get_form(self, request, obj=None, **kwargs):
        if obj is not None and obj.round_set.exists():
            kwargs["form"] = forms.ModelForm  # the ruleset cannot change: no choice to offer
        return super().get_form(request, obj, **kwargs)

    def save_model(self, request, obj, form, change):
        with transaction.atomic():
            super().save_model(request, obj, form, change)
            if change and form.changed_data:
                actions.log(obj.pk, actions.Action.EDITED, request.user, detail=", ".join(form.changed_data))

    def has_delete_permission(self, request, obj=None):
        """A tournament with hands is not deleted here: its results would be gone without a trace."""
        if obj is not None and Tournament.objects.filter(pk=obj.pk, round_set__tables__hands__isnull=False).exists():
            return False
        return super().has_delete_permission(request, obj)

    def delete_queryset(self, request, queryset):
        scored = queryset.filter(round_set__tables__hands__isnull=False).distinct()
        if scored.exists():
            messages.error(
                request,
                _("Not deleted: %(names)s have hands entered. Their organiser deletes them on the tournament page (a backup is written first).")
                % {"names": ", ".join(map(str, scored))},
            )
            queryset = queryset.exclude(pk__in=scored.values("pk"))
        super().delete_queryset(request, queryset)


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0
    has_add_permission = has_change_permission = has_delete_permission = ReadOnlyAdmin.has_change_permission


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "round", "first_dealer")
    inlines = [SeatInline]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("__str__", "tournament", "seed", "drawn_at")


@admin.register(ActionLog)
class ActionLogAdmin(ReadOnlyAdmin):
    list_display = ("created", "tournament", "action", "round_number", "user", "detail")
    list_filter = ("action",)


@admin.register(TournamentRole)
class TournamentRoleAdmin(ReadOnlyAdmin):
    """Roles are given on the tournament's page by its organiser (logged)."""

    list_display = ("tournament", "user", "level", "created")
    list_filter = ("level",)


@admin.register(OneTimePassword)
class OneTimePasswordAdmin(ReadOnlyAdmin):
    """The one-time passwords organisers set on their Roles pages and not yet used, shown only: a
    password set on the user here replaces it with an ordinary one (the record goes at his next
    login), and deleting a record would make a one-time password an ordinary one."""

    list_display = ("user", "set_by", "tournament", "set_at")
    exclude = ("password_check",)


@admin.register(SignInLink)
class SignInLinkAdmin(ReadOnlyAdmin):
    """The sign-in links organisers made on their Roles pages, shown only: who made one for whom,
    in which tournament, when, and whether it was used. The key's digest is left out; deleting a
    link here would leave its user without the way in his organiser gave him."""

    list_display = ("user", "made_by", "tournament", "made_at", "used_at")
    exclude = ("key_check",)
