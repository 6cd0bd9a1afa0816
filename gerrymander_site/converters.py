"""URL converters.  ``<id:...>`` is a database id: 1 to 18 digits, so it always fits the
database's 64-bit integers (a longer number is simply no page: a 404, never a 500)."""

from django.urls import register_converter


class IdConverter:
    regex = "[0-9]{1,18}"

    def to_python(self, value):
        return int(value)

    def to_url(self, value):
        return str(int(value))


register_converter(IdConverter, "id")
