import pytest


class SteppingClock:
    """A clock that moves on ``step`` seconds each time it is read: a bot's search sees time
    pass at the same pace on any machine, however busy."""

    def __init__(self, step):
        self.now = 0.0
        self.step = step

    def perf_counter(self):
        self.now += self.step
        return self.now


@pytest.fixture
def stepping_clock(monkeypatch):
    """``stepping_clock(*modules, step=0.01)``: those bot modules read a ``SteppingClock``."""

    def install(*modules, step=0.01):
        clock = SteppingClock(step)
        for module in modules:
            monkeypatch.setattr(module, "time", clock)
        return clock

    return install
