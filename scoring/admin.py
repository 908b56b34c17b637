from django.contrib import admin

from tournaments.versioning import touch_table

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

    def delete_model(self, request, obj):
        touch_table(obj.table_id, hands_only=True)  # the admin's delete runs in one transaction with this
        super().delete_model(request, obj)

    def delete_queryset(self, request, queryset):
        for table_id in sorted(set(queryset.values_list("table_id", flat=True))):
            touch_table(table_id, hands_only=True)
        super().delete_queryset(request, queryset)
