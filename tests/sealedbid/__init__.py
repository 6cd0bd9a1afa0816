"""A small sealed-bid game that exists only in the tests: it proves that the platform's seam
carries a game it was not shaped around (three seats bid at once, hidden bids, a reveal).

Adding it took: ``engine.py`` (its rules), ``bots.py`` (its bots), its board module
``static/games/js/sealedbid-board.js``, and one registration line (``apps.py``).  The test
settings install this folder as an app (``gerrymander_site.settings``, under TESTING).
"""
