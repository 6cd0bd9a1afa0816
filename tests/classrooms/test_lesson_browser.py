"""A whole lesson in real browsers (Playwright on Debian Chromium, live ASGI server).

The teacher creates a class and prints login cards; one student signs in with a card,
another self-joins with the code; the teacher assigns 2-player Mapmaker; both students see it
appear live in "my games" and play it to the end in their own browser contexts while the
teacher's dashboard (a third context) updates live; the teacher downloads the CSV and it
contains the result.
"""

import csv
import io
import re
import time

import pytest

from .conftest import make_teacher

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

TIMEOUT_MS = 15_000


def _play_step(page):
    """Make one move on ``page`` if it is this player's move; return True if it did."""
    state = page.evaluate("""() => ({
        over: document.body.dataset.over === 'true',
        myTurn: document.body.dataset.myTurn === 'true',
        busy: document.body.dataset.busy === 'true',
        tie: !!document.querySelector('#tie-dialog[open]'),
    })""")
    if state["over"] or state["busy"]:
        return False
    if state["tie"]:
        page.locator("#tie-dialog [data-party]").first.click()
        return True
    if state["myTurn"]:
        edge = page.locator('[data-edge][data-legal="true"]').first
        if edge.count():
            edge.dispatch_event("click")
            return True
    return False


def test_whole_lesson(browser, live_server_url):
    make_teacher("ms_lesson", "Ms Lesson").set_password("lesson-pass-1")
    from django.contrib.auth import get_user_model

    teacher = get_user_model().objects.get(username="ms_lesson")
    teacher.set_password("lesson-pass-1")
    teacher.save()

    contexts = [browser.new_context(base_url=live_server_url, accept_downloads=True)
                for _ in range(3)]
    teacher_page, card_page, join_page = (c.new_page() for c in contexts)
    for page in (teacher_page, card_page, join_page):
        page.set_default_timeout(TIMEOUT_MS)
    try:
        # --- the teacher: sign in, create a class, paste a roster, print cards -------------
        teacher_page.goto("/accounts/login/")
        teacher_page.fill("#id_username", "ms_lesson")
        teacher_page.fill("#id_password", "lesson-pass-1")
        teacher_page.click("button[type=submit]")
        teacher_page.wait_for_url("**/classes/")
        teacher_page.fill("#id_name", "8C, Geography")
        teacher_page.click("#create-class")
        teacher_page.wait_for_selector("#join-code")
        class_url = teacher_page.url
        join_code = teacher_page.inner_text("#join-code").strip()
        teacher_page.fill("#id_names", "Ana María López")
        teacher_page.click("#roster-submit")
        teacher_page.wait_for_selector("#roster-preview")  # checked before it is made
        teacher_page.click("#roster-confirm")
        teacher_page.wait_for_url("**/cards/**")
        card = teacher_page.locator(".login-card").first
        assert "Ana María López" in card.inner_text()
        username = card.locator(".card-username").inner_text().strip()
        password = card.locator(".card-password").inner_text().strip()
        assert teacher_page.locator("button", has_text="Print").count() == 1

        # --- student 1 signs in with the card --------------------------------------------
        card_page.goto("/accounts/login/")
        card_page.fill("#id_username", username)
        card_page.fill("#id_password", password)
        card_page.click("button[type=submit]")
        card_page.wait_for_url("**/me/")

        # --- student 2 self-joins with the code ------------------------------------------
        join_page.goto("/join/")
        join_page.fill("#id_code", join_code.lower())
        join_page.fill("#id_name", "Ben, Jr.")
        join_page.fill("#id_password", "ben-pass-9")
        join_page.click("#join-submit")
        join_page.wait_for_selector("#new-username")
        join_page.click("text=Go to my games")
        join_page.wait_for_url("**/me/")
        for page in (card_page, join_page):
            page.wait_for_selector('#my-games[data-live="open"]', state="attached")

        # --- the teacher assigns 2-player Mapmaker ---------------------------------------
        teacher_page.goto(class_url)
        teacher_page.click("#new-assignment")
        teacher_page.fill("#id_title", "Lesson, part 1")
        teacher_page.select_option("#id_game", "mapmaker:2")
        teacher_page.fill("#id_table_size", "2")
        teacher_page.select_option("#id_grouping", "random")
        teacher_page.select_option("#id_bot_level", "")
        teacher_page.click("#assignment-submit")
        teacher_page.wait_for_selector('#dashboard[data-live="open"]', state="attached")
        assert teacher_page.locator("#dashboard tbody tr").count() == 1

        # --- the game appears in both students' "my games" without a reload ----------------
        pages = []
        for page in (card_page, join_page):
            link = page.locator("#my-games li a", has_text="Lesson, part 1")
            link.wait_for()
            text = page.locator("#my-games li [data-role=text]").first.inner_text()
            assert text == "your turn" or text.startswith("waiting for")
            link.click()
            page.wait_for_selector("#board svg", state="attached")
            pages.append(page)

        # --- both play to the end; the dashboard follows live ---------------------------
        row = teacher_page.locator("#dashboard tbody tr").first
        deadline = time.monotonic() + 240
        seen_dashboard_versions = set()
        while time.monotonic() < deadline:
            if all(p.evaluate("document.body.dataset.over") == "true" for p in pages):
                break
            moved = any([_play_step(p) for p in pages])
            seen_dashboard_versions.add(row.get_attribute("data-version"))
            if not moved:
                time.sleep(0.05)
        else:
            pytest.fail("the game did not finish in time")
        for page in pages:
            page.wait_for_selector("#result:not([hidden])")
        from games.models import Game

        game = Game.objects.get(assignment_table__assignment__title="Lesson, part 1")
        winners = [s.display_name for s in game.seats.filter(index__in=game.result["winners"])]
        # each page opens with its own line ("You won!" / "Game over: ..."), then who won
        said = [re.search(r"Winners?(?: \(shared\))?:(.*?)Decided by", p.inner_text("#result"),
                          re.S).group(1) for p in pages]
        assert said[0] == said[1] and all(name in said[0] for name in winners)
        decided = [p.get_attribute("#decided-by", "data-decided-by") for p in pages]
        assert decided[0] == decided[1] and decided[0]

        teacher_page.wait_for_selector('#dashboard tbody tr[data-status="finished"]')
        assert len(seen_dashboard_versions) > 3, "the dashboard did not update live"
        state_cell = row.locator('[data-role="state"]').inner_text()
        assert state_cell.startswith("Finished:")

        # "my games" says how it ended
        for page in pages:
            page.goto("/me/")
            text = page.locator("#my-games li [data-role=text]").first.inner_text()
            assert text.startswith("finished - you")

        # --- the teacher downloads the CSV ------------------------------------------------
        with teacher_page.expect_download() as download_info:
            teacher_page.click("#csv-link")
        path = download_info.value.path()
        raw = open(path, "rb").read()
        assert raw.startswith(b"\xef\xbb\xbf")
        rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"), newline="")))
        assert {r["Player"] for r in rows} == {"Ana María López", "Ben, Jr."}
        assert all(r["Status"] == "Finished" for r in rows)
        assert sum(r["Won"] == "yes" for r in rows) >= 1
        assert all(r["Assignment"] == "Lesson, part 1" for r in rows)
    finally:
        for context in contexts:
            context.close()
