"""The cyclic garbage collector paused while a phase makes many objects that live on."""

from __future__ import annotations

import gc
from contextlib import contextmanager


@contextmanager
def collector_paused():
    """Reading a project makes ~100,000 objects that stay (the data, its marks, the models), and
    the collector, run every 700 allocations, scans the young ones again and again while they are
    made, and all of them in its full collections: 6-8 % of `validate --no-sim`
    (docs/performance.md). Freeing does not wait for it (reference counting frees what is not in
    a cycle), and a cycle made meanwhile is collected by the first collection after the phase.
    Nested uses and a collector already off are left as they were."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
