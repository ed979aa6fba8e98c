"""A test-only game: two players take 1–3 counters from 15; who takes the last wins.

It proves the play layer: this package (engine, presenter, templates, one
definition) is registered only in the test settings, and the shared code
gives it an in-page demo, a full-screen demo page and online rooms.
"""
