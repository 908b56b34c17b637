from django.contrib import admin

from .models import Hand


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    """Read-only in the admin: hands are validated, scored, renumbered and deleted with a reason
    through the score sheet, which keeps their history; here they are only shown."""

    list_display = ("__str__", "scores", "entered_by", "entered_at")
    readonly_fields = ("table", "number", "record", "scores", "entered_by", "entered_at")

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
