from django.core.management.base import BaseCommand

from games.services import game_bots_resume_stalled


class Command(BaseCommand):
    help = "Schedule again the bot turns of games that have waited for a bot too long."

    def add_arguments(self, parser):
        parser.add_argument("--idle", type=float, default=None,
                            help="seconds a bot turn may wait (default: BOT_STALL_S)")

    def handle(self, *args, idle, **options):
        resumed = game_bots_resume_stalled(idle_s=idle)
        self.stdout.write(f"resumed {len(resumed)} game(s): {resumed}")
