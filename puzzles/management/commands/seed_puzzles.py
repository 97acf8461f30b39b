from django.core.management.base import BaseCommand

from puzzles.generation import seed_puzzles
from puzzles.models import Puzzle
from puzzles.tasks import seed_from_bot_games


class Command(BaseCommand):
    help = (
        "Play N two-player games between medium bots, store them, and find their puzzles "
        "(so a new site has puzzles from its first day)."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=20, help="how many games to play")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--if-empty", action="store_true", help="do nothing when the site has puzzles already"
        )
        parser.add_argument(
            "--queue",
            action="store_true",
            help="leave the work to the task worker instead of doing it now",
        )

    def handle(self, *args, **options):
        if options["if_empty"] and Puzzle.objects.exists():
            self.stdout.write("The site has puzzles already.")
            return
        if options["queue"]:
            seed_from_bot_games.enqueue(options["games"], options["seed"])
            self.stdout.write(f"Queued {options['games']} bot games for puzzles.")
            return
        games, stored = seed_puzzles(options["games"], options["seed"])
        self.stdout.write(f"Played {games} games, stored {stored} new puzzles.")
