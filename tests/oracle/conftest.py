"""Fixtures for the oracle's tests: real CuTe (skipped with the reason when absent) and the unit data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from symcute.oracle import CuteOracle, OracleUnavailable
from ..cute_policy import cute_unavailable

DATA = Path(__file__).resolve().parents[1] / "data"


def load_jsonl(name: str) -> list[dict]:
    with open(DATA / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


@pytest.fixture(scope="session")
def oracle() -> CuteOracle:
    try:
        return CuteOracle()
    except OracleUnavailable as exc:
        cute_unavailable(exc)


@pytest.fixture(scope="session")
def unit_cases() -> list[dict]:
    return load_jsonl("cute_unit_cases.jsonl")


@pytest.fixture(scope="session")
def typed_unit_cases() -> dict[int, dict]:
    """Line number (1-based) in cute_unit_cases.jsonl -> the record with its static/dynamic-typed arguments."""
    return {record["line"]: record for record in load_jsonl("cute_unit_cases_typed.jsonl")}
