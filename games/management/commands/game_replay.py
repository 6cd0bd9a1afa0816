from django.core.management.base import BaseCommand, CommandError

from games.models import Game
from games.replay import game_replay


class Command(BaseCommand):
    help = "Rebuild games from their seed and move log and check the stored snapshots."

    def add_arguments(self, parser):
        parser.add_argument("game_ids", nargs="*", type=int, help="games to check (default: all)")

    def handle(self, *args, game_ids, **options):
        games = Game.objects.all().order_by("pk")
        if game_ids:
            games = games.filter(pk__in=game_ids)
            missing = set(game_ids) - set(games.values_list("pk", flat=True))
            if missing:
                raise CommandError(f"No such game: {', '.join(map(str, sorted(missing)))}")
        bad = 0
        for game in games.iterator():
            report = game_replay(game=game)
            if report.matches:
                self.stdout.write(f"game {game.pk}: OK ({report.plies} moves replayed)")
            else:
                bad += 1
                self.stdout.write(self.style.ERROR(f"game {game.pk}: MISMATCH - {report.problem}"))
        if bad:
            raise CommandError(f"{bad} game(s) do not match their move log.")
