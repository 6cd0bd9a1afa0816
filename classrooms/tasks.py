"""Celery tasks of the classrooms (thin wrappers: the work is in services)."""

from celery import shared_task

from classrooms import services


@shared_task(name="classrooms.tasks.assignments_close_due", ignore_result=True)
def assignments_close_due():
    """Periodic sweep (celery beat): close the assignments whose due time has passed and whose
    teacher chose to close the games then."""
    return services.assignments_close_due()
