"""The base of every service error: a stable ``code`` and a ``message`` for the user."""


class ServiceError(Exception):
    code = "error"

    def __init__(self, message, *, code=None):
        super().__init__(message)
        self.message = message
        if code:
            self.code = code
