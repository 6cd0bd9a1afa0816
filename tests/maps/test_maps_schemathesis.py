"""schemathesis against the maps API's own OpenAPI schema, in-process (WSGI), as a staff user
with a token: schema-valid and schema-breaking requests to every maps operation, and every
answer must be documented (status code, content type, body schema) and never a server
error.  Run with ``-s`` to see the number of cases per operation."""

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, given, settings
from rest_framework.authtoken.models import Token
from rest_framework.throttling import UserRateThrottle
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from games import maps

pytestmark = pytest.mark.django_db

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance]
EXAMPLES = 25  # per operation and generation mode (and again on a real map's id)
SMALL = {"cells": [[x, y] for y in range(2) for x in range(4)],
         "tiles": {"random": 2, "berries": [[2, 1, 0, 0], [2, 1, 0, 0]]},
         "mystery": [[1, 0, 0, 0], [1, 0, 0, 0]]}


@pytest.fixture
def wsgi_in_test_transaction(monkeypatch):
    """The WSGI handler closes "old" database connections around each request, which would
    close the test's transaction; Django's test client turns that off the same way."""
    monkeypatch.setattr(UserRateThrottle, "rate", "100000/min", raising=False)  # many calls
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield get_wsgi_application()
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def test_the_maps_api_keeps_to_its_schema(people, wsgi_in_test_transaction):
    app = wsgi_in_test_transaction
    staff = people["staff"]
    auth = {"Authorization": f"Token {Token.objects.create(user=staff).key}"}
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", app, headers=auth)
    schema = schema.include(path_regex=r"^/api/maps")
    counts = {}

    def run(operation, strategy, label, examples=EXAMPLES):
        @settings(max_examples=examples, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(case=strategy)
        def exercise(case):
            response = case.call(headers=auth)
            case.validate_response(response, checks=CHECKS, headers=auth)
            key = (operation.label, label)
            counts.setdefault(key, {}).setdefault(response.status_code, 0)
            counts[key][response.status_code] += 1

        exercise()

    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == 9  # list, create, read, change, delete, publish, unpublish,
    #                              check, outline
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            run(operation, operation.as_strategy(generation_mode=mode), mode.value)
        for i, strategy in enumerate(schema.get_strategies_from_examples(operation)):
            run(operation, strategy, f"example {i + 1}", examples=1)  # the schema's own
        if "{map_id}" in operation.path:  # again on a map that exists
            game_map = maps.map_create(kind="berrymandering", name=f"Fuzz {operation.label}",
                                       data=SMALL, created_by=staff)
            run(operation, operation.as_strategy(path_parameters={"map_id": game_map.pk}),
                "existing map")

    total = sum(sum(c.values()) for c in counts.values())
    print(f"\nschemathesis: {total} cases, 0 server errors, 0 schema violations")
    for (label, mode), by_status in sorted(counts.items()):
        print(f"  {label:<40} {mode:<14} {dict(sorted(by_status.items()))}")
    assert total >= 9 * 2 * 10
    # the documented examples succeed (schemathesis also tries them among the positive
    # cases): a map saved, map data checked, a draft made from an outline
    for label, status in (("POST /api/maps/", 201), ("POST /api/maps/check/", 200),
                          ("POST /api/maps/outline/", 200)):
        assert any(c.get(status) for (op, _), c in counts.items() if op == label), label
