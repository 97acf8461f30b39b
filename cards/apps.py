from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CardsConfig(AppConfig):
    """The playing cards as every page draws them: faces, backs, their names."""

    name = "cards"
    verbose_name = _("Cards")
