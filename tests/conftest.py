"""Shared pytest configuration: hypothesis profiles (a larger one behind SYMCUTE_LARGE=1)."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile("ci", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("large", max_examples=5000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("large" if os.environ.get("SYMCUTE_LARGE") == "1" else "ci")
