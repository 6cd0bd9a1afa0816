from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from gerrymander_site import converters  # noqa: F401 - <id:...> for every URLconf
