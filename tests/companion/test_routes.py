"""Rule addresses, and the Back address the rules section keeps in its own address."""

from __future__ import annotations

import pytest

from companion.routes import back_of, path_of, query_value, rule_route, with_back


def test_a_rule_address_ends_in_a_slash_and_knows_its_game() -> None:
    assert rule_route("U6.2") == "/rules/umtali/U6.2/"
    assert rule_route("M5.3.9") == "/rules/rummoli/M5.3/"
    assert rule_route("nonsense") == "/rules"


@pytest.mark.parametrize(
    "back", ["/play/g1", "/check?gid=g1", "/rules?q=how many cards", "/rules/umtali?back=%2F"]
)
def test_the_back_address_survives_the_round_trip(back: str) -> None:
    route = with_back(rule_route("U6.2"), back)
    assert path_of(route) == "/rules/umtali/U6.2"
    assert back_of(route) == back


def test_no_back_address_means_no_query() -> None:
    assert with_back("/rules/umtali", None) == "/rules/umtali"
    assert back_of("/rules/umtali") is None


@pytest.mark.parametrize("outside", ["https://example.com/", "//example.com/x", "javascript:x"])
def test_back_never_leaves_the_app(outside: str) -> None:
    assert back_of(with_back("/rules", outside)) is None


def test_query_value_reads_a_search() -> None:
    assert query_value("/rules?q=marrige", "q") == "marrige"
    assert query_value("/rules", "q") == ""
