"""The test database is emptied after every test, even while the live server still writes.

CI once failed when the live server was saving a finished game's lesson while a test's
database was flushed: the flush and the server's transaction locked each other, PostgreSQL
failed the flush, and the rows were left for the next tests."""

import threading
import time

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.core.management.color import no_style
from django.core.management.sql import sql_flush
from django.db import connection
from django.test import TransactionTestCase

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _locker(tables, started):
    """Another connection, as the live server's: it holds the table the flush locks last and
    then reads the one the flush locks first, so the two wait for each other."""
    s = connection.settings_dict
    with psycopg.connect(host=s["HOST"] or "127.0.0.1", port=s["PORT"] or 5432,
                         user=s["USER"], password=s["PASSWORD"], dbname=s["NAME"]) as conn:
        conn.execute(f'LOCK TABLE "{tables[-1]}" IN ROW EXCLUSIVE MODE')
        started.set()
        time.sleep(0.5)  # the flush is waiting by now, holding the first table
        try:
            conn.execute(f'SELECT count(*) FROM "{tables[0]}"')
        except psycopg.errors.DeadlockDetected:
            pass  # PostgreSQL may fail this side instead; then the flush goes through at once
        conn.rollback()


def test_a_flush_that_loses_a_deadlock_is_tried_again():
    get_user_model().objects.create(username="left_behind")
    sql = sql_flush(no_style(), connection, reset_sequences=False)[0]
    tables = [t.strip(' ";') for t in sql.removeprefix("TRUNCATE ").split(",")]
    started = threading.Event()
    other = threading.Thread(target=_locker, args=(tables, started))
    other.start()
    started.wait(5)
    try:
        TransactionTestCase(methodName="__init__")._fixture_teardown()
    finally:
        other.join(10)
    assert not get_user_model().objects.exists()
