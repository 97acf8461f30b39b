import random
from datetime import timedelta

from django.core.management.base import BaseCommand
from django.utils import timezone

from history.seeding import play_match

VARIANTS = {2: "classic", 3: "classic", 4: "transfer", 6: "transfer"}


class Command(BaseCommand):
    help = "Play N random finished games (random legal moves) for demos and benchmarks."

    def add_arguments(self, parser):
        parser.add_argument("games", type=int, help="how many deals to play")
        parser.add_argument("--user", default="demo", help="the player who sits in every game")
        parser.add_argument("--opponents", type=int, default=8, help="size of the opponent pool")
        parser.add_argument("--seed", type=int, default=0)

    def handle(self, *args, **options):
        rng = random.Random(options["seed"])
        pool = [f"{options['user']}_rival{i}" for i in range(options["opponents"])]
        when = timezone.now() - timedelta(minutes=10 * options["games"])
        for index in range(options["games"]):
            players = rng.choice([2, 2, 2, 3, 4, 6])
            others = rng.sample(pool, min(players - 1, len(pool)))
            while len(others) < players - 1:
                others.append("medium")
            seats = [options["user"], *others]
            rng.shuffle(seats)
            play_match(
                seats,
                VARIANTS[players],
                seed=rng.randrange(1 << 30),
                started_at=when,
                is_private=rng.random() < 0.1,
            )
            when += timedelta(minutes=10)
            if (index + 1) % 500 == 0:
                self.stdout.write(f"{index + 1} games")
        self.stdout.write(f"Seeded {options['games']} games for {options['user']}.")
