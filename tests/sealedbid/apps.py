from django.apps import AppConfig


class SealedBidConfig(AppConfig):
    name = "tests.sealedbid"
    label = "sealedbid"
    verbose_name = "Sealed bid (test-only game)"

    def ready(self):
        from games.engine import register

        from . import bots  # noqa: F401 - registers its bot levels
        from .engine import SEALED_BID

        register(SEALED_BID)
