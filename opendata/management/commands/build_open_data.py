from django.core.management.base import BaseCommand, CommandError
from django.template.defaultfilters import filesizeformat

from opendata import files
from opendata.tasks import build_month_file


class Command(BaseCommand):
    help = (
        "Build the open-data file of a month (YYYY-MM; last month by default): every "
        "finished public game, one export line each, gzipped, in OPEN_DATA_DIR."
    )

    def add_arguments(self, parser):
        parser.add_argument("month", nargs="?", help="the month, YYYY-MM (default: last month)")
        parser.add_argument(
            "--queue", action="store_true", help="queue it for the task worker instead"
        )

    def handle(self, *args, **options):
        if options["month"]:
            try:
                year, month = files.parse_month(options["month"])
            except ValueError as error:
                raise CommandError(str(error)) from None
        else:
            year, month = files.last_month()
        key = files.month_key(year, month)
        if not files.has_ended(year, month):
            # A month still running would be published half, and never again in full.
            raise CommandError(f"{key} has not ended yet: only a past month is published.")
        if options["queue"]:
            build_month_file.enqueue(year, month)
            self.stdout.write(f"Queued the file of {key}.")
            return
        built = files.build_month(year, month)
        self.stdout.write(
            f"{built.filename}: {built.games} game(s), {filesizeformat(built.size)}, "
            f"SHA-256 {built.sha256}"
        )
