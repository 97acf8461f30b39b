from datetime import datetime, time

from django.core.management.base import BaseCommand, CommandError
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from history.records import finished_deals, write_export


class Command(BaseCommand):
    help = "Write finished deals as JSON lines: match metadata, seats and the engine record."

    def add_arguments(self, parser):
        parser.add_argument("--variant", help="only this variant (its slug)")
        parser.add_argument("--user", help="only deals this username played")
        parser.add_argument("--since", help="only deals finished on or after this date (ISO)")
        parser.add_argument("-o", "--output", help="write to this file instead of stdout")

    def handle(self, *args, **options):
        since = None
        if options["since"]:
            since = parse_datetime(options["since"])
            if since is None:
                day = parse_date(options["since"])
                if day is None:
                    raise CommandError(f"--since is not a date: {options['since']!r}")
                since = datetime.combine(day, time.min)
            if timezone.is_naive(since):
                since = timezone.make_aware(since)
        deals = finished_deals(options["variant"], options["user"], since)
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as out:
                count = write_export(deals, out)
        else:
            count = write_export(deals, self.stdout)
        self.stderr.write(f"Exported {count} deal(s).")
