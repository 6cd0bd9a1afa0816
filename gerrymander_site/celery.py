"""Celery application: only schedules work (bot moves); the work itself lives in services."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "gerrymander_site.settings")

app = Celery("gerrymander_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
