from django.contrib import admin, messages

from classrooms import services
from classrooms.models import (
    Assignment,
    AssignmentGame,
    Classroom,
    Membership,
    StudentAccount,
    TeacherProfile,
)
from games.admin import ReadOnlyInline


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ("student",)


@admin.register(Classroom)
class ClassroomAdmin(admin.ModelAdmin):
    list_display = ("name", "teacher", "join_code", "join_open", "created_at")
    search_fields = ("name", "teacher__username", "join_code")
    raw_id_fields = ("teacher",)
    inlines = [MembershipInline]


class AssignmentGameInline(ReadOnlyInline):
    """Read-only: games are created and changed only through the services (tables start with
    the assignment; seats move on the dashboard), never by editing rows here."""

    model = AssignmentGame
    fields = readonly_fields = ("table", "game", "benched")
    show_change_link = False


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("title", "classroom", "mode", "table_size", "status", "paused", "created_at")
    list_filter = ("mode", "status")
    inlines = [AssignmentGameInline]


@admin.register(TeacherProfile)
class TeacherProfileAdmin(admin.ModelAdmin):
    """Teachers who signed up themselves wait here for approval (until then their classes
    cannot take students of other teachers)."""

    list_display = ("user", "approved", "approved_at", "created_at")
    list_filter = ("approved",)
    search_fields = ("user__username", "user__first_name", "user__email")
    raw_id_fields = ("user",)
    actions = ["approve"]

    @admin.action(description="Approve the selected teachers")
    def approve(self, request, queryset):
        for profile in queryset:
            services.teacher_approve(user=profile.user)
        messages.success(request, f"{queryset.count()} teacher(s) approved.")


@admin.register(StudentAccount)
class StudentAccountAdmin(admin.ModelAdmin):
    """Which class made a student account (its teacher manages it), and the other teachers
    an admin lets manage it too."""

    list_display = ("user", "created_by_class")
    search_fields = ("user__username", "user__first_name")
    raw_id_fields = ("user", "created_by_class")
    filter_horizontal = ("managers",)


# Admin-created teachers: an action on the user list puts users in the "teachers" group.
def make_teachers(modeladmin, request, queryset):
    for user in queryset:
        services.teacher_make(user=user)
    messages.success(request, f"{queryset.count()} user(s) are now teachers.")


make_teachers.short_description = "Make the selected users teachers"

try:
    from django.contrib.auth import get_user_model

    _user_admin = admin.site._registry.get(get_user_model())
    if _user_admin is not None:
        _user_admin.actions = [*(_user_admin.actions or []), make_teachers]
except Exception:  # pragma: no cover - never break the admin over a convenience
    pass
