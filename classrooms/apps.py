from django.apps import AppConfig


class ClassroomsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "classrooms"
    verbose_name = "Classrooms"

    def ready(self):
        from classrooms.access import register_access_rule
        from classrooms.live import on_game_changed
        from games.signals import game_changed

        game_changed.connect(on_game_changed, dispatch_uid="classrooms.on_game_changed")
        register_access_rule()
