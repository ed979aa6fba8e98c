import pytest
from django.core.cache import cache

from games import clock


@pytest.fixture(autouse=True)
def fresh_rate_limits():
    """Rate limits live in the (process-wide) cache: every test starts with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def moving_clock():
    """A clock the test moves forward: `moving_clock.advance(5)`."""
    from datetime import timedelta

    from django.utils import timezone

    class Clock:
        def __init__(self):
            self.now = timezone.now()

        def advance(self, seconds):
            self.now += timedelta(seconds=seconds)

    fake = Clock()
    clock.set_clock(lambda: fake.now)
    yield fake
    clock.set_clock(None)
