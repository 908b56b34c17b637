from django.contrib import admin

from .models import Player, Registration, Round, Seat, Table, Tournament
from .versioning import touch_players


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club")
    search_fields = ("name", "club")

    def save_model(self, request, obj, form, change):
        if change:
            touch_players([obj.pk])  # his name is on the pages of every tournament he played
        super().save_model(request, obj, form, change)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "ruleset", "edition", "status")
    list_filter = ("ruleset", "status")
    inlines = [RegistrationInline]


class ReadOnlyAdmin(admin.ModelAdmin):
    """Draws are made and undone on the tournament pages, which lock a seating once hands are
    entered; the admin only shows them."""

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


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
