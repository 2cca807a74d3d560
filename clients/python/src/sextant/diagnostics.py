"""iOS's diagnostics stream (docs/platforms.md I13): why an app gets locations or not, under
Apple's flag names, at start and on each change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, FrozenSet, Optional

from . import _protocol as wire
from .connection import DEFAULT_TIMEOUT, Event


@dataclass(frozen=True)
class Diagnostics:
    """A ``diagnostics`` event (I13): every flag by its wire name (``authorizationDenied``,
    ``insufficientlyInUse``…) to a bool; :attr:`raised` names the true ones."""

    flags: Any

    @property
    def raised(self) -> FrozenSet[str]:
        return frozenset(name for name, value in self.flags.items() if value)

    @classmethod
    def from_event(cls, event: Event) -> "Diagnostics":
        if event.method != wire.EVENT_DIAGNOSTICS:
            raise ValueError("not a diagnostics event: %s" % event)
        return cls(dict(event.params))


class AppDiagnostics:
    """An app's diagnostics stream (iOS profile); mixed into :class:`sextant.App`."""

    connection: Any
    wait_for: Callable[..., Event]

    def start_diagnostics(self) -> None:
        """``diagnostics.start``: a ``diagnostics`` event now, then one per change (I13)."""
        self.connection.call(wire.METHOD_DIAGNOSTICS_START)

    def stop_diagnostics(self) -> None:
        """``diagnostics.stop``."""
        self.connection.call(wire.METHOD_DIAGNOSTICS_STOP)

    def next_diagnostics(
        self, predicate: Optional[Callable[[Diagnostics], bool]] = None, timeout: Optional[float] = DEFAULT_TIMEOUT
    ) -> Diagnostics:
        """The next ``diagnostics`` event (for which ``predicate`` holds), typed."""
        test = None if predicate is None else (lambda e: predicate(Diagnostics.from_event(e)))
        return Diagnostics.from_event(self.wait_for(wire.EVENT_DIAGNOSTICS, test, timeout))
