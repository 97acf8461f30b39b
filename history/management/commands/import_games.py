from django.core.management.base import BaseCommand, CommandError

from history.records import import_file


class Command(BaseCommand):
    help = (
        "Load deals written by export_games. Each record is replayed through the engine; "
        "a bad line is refused with its number and reason and the others still load. "
        "Unknown usernames become inactive accounts with no usable password."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON lines file ('-' for stdin)")

    def handle(self, *args, **options):
        path = options["file"]
        try:
            if path == "-":
                import sys

                report = import_file(sys.stdin)
            else:
                with open(path, encoding="utf-8") as lines:
                    report = import_file(lines)
        except OSError as error:
            raise CommandError(f"cannot read {path}: {error}") from None
        for line, reason in report.refused:
            self.stderr.write(f"line {line}: refused: {reason}")
        if report.created_users:
            self.stdout.write(
                "Created inactive users: " + ", ".join(sorted(set(report.created_users)))
            )
        self.stdout.write(f"Imported {report.imported} deal(s), refused {len(report.refused)}.")
