"""Work the task worker (``manage.py task_worker``) runs, never a web process."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.forms import PasswordResetForm
from django.utils import translation
from django_tasks import task

# Above the analyses and puzzle searches (priority 0): a player waiting for the link
# should not wait behind a queue of minute-long searches.
PASSWORD_RESET_PRIORITY = 10


@task(priority=PASSWORD_RESET_PRIORITY)
def send_password_reset_mail(
    address: str,
    language: str,
    domain: str,
    site_name: str,
    use_https: bool,
    subject_template_name: str,
    email_template_name: str,
    from_email: str | None = None,
    html_email_template_name: str | None = None,
    extra_email_context: dict[str, Any] | None = None,
) -> None:
    """Mail a password-reset link to every account with ``address`` (none: nothing),
    in ``language``, the language of the page it was asked from.

    The address is looked up and the link's token made here, not in the request: the
    page reads and takes the same time whether an account has the address or not, and
    no token waits in the task table.
    """
    form = PasswordResetForm({"email": address})
    if not form.is_valid():
        return
    with translation.override(language):
        form.save(
            domain_override=domain,
            subject_template_name=subject_template_name,
            email_template_name=email_template_name,
            use_https=use_https,
            from_email=from_email,
            html_email_template_name=html_email_template_name,
            # domain_override names the site by its domain; keep the site's own name.
            extra_email_context={"site_name": site_name, **(extra_email_context or {})},
        )
