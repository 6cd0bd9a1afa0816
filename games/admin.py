"""Admin pages for games are read-only: every change to a game goes through games.services
(row lock, move log, broadcast, bots), which the admin would bypass."""

from django.contrib import admin

from games.models import Game, Move, Seat


class ReadOnlyMixin:
    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReadOnlyAdmin(ReadOnlyMixin, admin.ModelAdmin):
    pass


class ReadOnlyInline(ReadOnlyMixin, admin.TabularInline):
    extra = 0
    can_delete = False


class SeatInline(ReadOnlyInline):
    model = Seat


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
    list_display = ("id", "kind", "status", "version", "lobby", "created_by", "created_at")
    list_filter = ("kind", "status")
    inlines = [SeatInline]
    exclude = ("seed",)


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ("game", "ply", "seat", "by_bot", "created_at")
