from django.contrib import admin

from .models import Player, Registration, Round, Seat, Table, Tournament


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "club")
    search_fields = ("name", "club")


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    autocomplete_fields = ("player",)


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ("name", "date", "ruleset", "edition", "status")
    list_filter = ("ruleset", "status")
    inlines = [RegistrationInline]


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("__str__", "round", "first_dealer")
    inlines = [SeatInline]


admin.site.register(Round)
