"""Logging helpers."""

import logging


class OneLineClientErrors(logging.Filter):
    """Drop the traceback of a request refused with a 4xx status (``django.request`` logs a
    PermissionDenied with its traceback): a refusal is expected, one line says enough."""

    def filter(self, record):
        if 400 <= getattr(record, "status_code", 0) < 500 and record.exc_info:
            record.exc_info = None
            record.exc_text = None
        return True
