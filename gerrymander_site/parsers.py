"""The API's JSON parser: the project's limits on nesting and non-numbers (jsonsafe)."""

from django.conf import settings
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from gerrymander_site import jsonsafe


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            return jsonsafe.loads(stream.read().decode(encoding))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ParseError(f"The request body is not acceptable JSON: {exc}") from None
