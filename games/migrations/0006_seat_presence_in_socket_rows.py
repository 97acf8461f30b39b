from django.db import migrations


class Migration(migrations.Migration):
    """Open sockets are counted by their ``SocketPresence`` rows alone."""

    dependencies = [
        ("games", "0005_deal_first_attacker_by_and_presence"),
    ]

    operations = [
        migrations.RemoveField(model_name="seat", name="connections"),
    ]
