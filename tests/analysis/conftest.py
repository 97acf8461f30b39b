import pytest

IMMEDIATE = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend"}}
DATABASE = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}


@pytest.fixture(autouse=True)
def quick_analyses(settings):
    """Analyses run at once on the test's thread, with a tiny search budget; a test of
    the queue itself sets the database backend."""
    settings.TASKS = IMMEDIATE
    settings.ANALYSIS_SECONDS = 0.002
    settings.ANALYSIS_SAMPLES = 2
