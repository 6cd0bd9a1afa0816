from django.contrib import admin

from games.models import Game, Move, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "kind", "status", "version", "created_by", "created_at")
    list_filter = ("kind", "status")
    inlines = [SeatInline]
    readonly_fields = ("seed", "state", "version", "result")


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("game", "ply", "seat", "by_bot", "created_at")
    readonly_fields = ("game", "ply", "seat", "move", "by_bot", "created_at")
