"""Contract tests: one abstract test class per storage port, run on every implementation
(Redis in tests/integration, memory in tests/unit), so that they cannot drift apart."""
