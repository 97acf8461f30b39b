"""The token pages of the player's profile.  The API itself (``api.endpoints.api``) is
routed by the site at ``/api/``: ninja names its own URLs, in a namespace of its own."""

from django.urls import path

from api import profile

app_name = "api"

urlpatterns = [
    path("account/api-tokens/new/", profile.new_token, name="new_token"),
    path("account/api-tokens/<int:token_id>/revoke/", profile.revoke, name="revoke_token"),
    path("account/bot/", profile.become_bot, name="become_bot"),
]
