from django.apps import AppConfig


class ClassroomsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "classrooms"
    verbose_name = "Classrooms"

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.contrib.auth.signals import user_logged_out
        from django.db.models.signals import post_save, pre_save

        from classrooms import sessions
        from classrooms.access import register_access_rule
        from classrooms.live import on_game_changed
        from games.signals import game_changed

        game_changed.connect(on_game_changed, dispatch_uid="classrooms.on_game_changed")
        register_access_rule()
        from classrooms import pages
        from games import hooks

        if pages.game_page not in hooks._page_providers:
            hooks.game_page_register(pages.game_page)
            hooks.game_titles_register(pages.game_titles)
        user = get_user_model()
        pre_save.connect(sessions.remember_account_state, sender=user,
                         dispatch_uid="classrooms.sessions.before")
        post_save.connect(sessions.close_sockets_after_account_change, sender=user,
                          dispatch_uid="classrooms.sessions.after")
        user_logged_out.connect(sessions.close_sockets_on_logout,
                                dispatch_uid="classrooms.sessions.logout")
