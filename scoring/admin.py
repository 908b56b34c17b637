from django.contrib import admin

from .models import Hand


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    """Read-only in the admin: hands are validated and scored through the score sheet."""

    list_display = ("__str__", "scores", "entered_by", "entered_at")
    readonly_fields = ("table", "number", "record", "scores", "entered_by", "entered_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
