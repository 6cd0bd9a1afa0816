from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self):
        from games.maps import builtin_maps_on_migrate
        from gerrymander_site import converters  # noqa: F401 - <id:...> for every URLconf

        # The built-in state maps (games/map_data/) are loaded, or refreshed, on every migrate.
        post_migrate.connect(builtin_maps_on_migrate, sender=self,
                             dispatch_uid="games.builtin_maps")
