"""Player statistics and chart series (companion.stats)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.stats import cumulative_series, hand_table, player_stats, starting_stacks
from companion.storage import GameListItem


def item(
    gid: str, game: str, totals: dict[str, int], winners: list[str], **kw: Any
) -> GameListItem:
    return GameListItem(
        id=gid,
        game=game,
        players=list(totals),
        created="2026-01-01T00:00:00",
        updated="2026-01-01T00:00:00",
        status=kw.get("status", "finished"),
        winners=winners,
        totals=totals,
        hands=kw.get("hands", 4),
    )


def test_wins_win_rate_and_best_depend_on_the_game() -> None:
    games = [
        item("u1", "umtali", {"Ann": 120, "Bob": 90}, ["Ann"]),
        item("u2", "umtali", {"Ann": 80, "Bob": 100}, ["Bob"]),
        item("r1", "rummy", {"Ann": 30, "Bob": 110}, ["Ann"], hands=3),
        item("r2", "rummy", {"Ann": 105, "Bob": 20}, ["Bob"], hands=5),
    ]
    stats = player_stats(games)
    ann_u = next(s for s in stats["umtali"] if s.player == "Ann")
    assert (ann_u.games, ann_u.wins, ann_u.win_rate) == (2, 1, 0.5)
    assert (ann_u.best, ann_u.best_game) == (120, "u1")  # Umtali: most points is best
    assert ann_u.per_hand == 25.0  # 200 points over 8 hands
    bob_r = next(s for s in stats["rummy"] if s.player == "Bob")
    assert (bob_r.best, bob_r.best_game) == (20, "r2")  # Rummy: least penalty is best
    assert bob_r.per_hand == 16.25  # 130 over 8 hands


def test_games_in_progress_do_not_count_and_ties_count_for_each() -> None:
    games = [
        item("a", "rummoli", {"Ann": 50, "Bob": 50}, ["Ann", "Bob"]),
        item("b", "rummoli", {"Ann": 10, "Bob": 90}, [], status="in_progress"),
    ]
    rows = player_stats(games)["rummoli"]
    assert [(s.player, s.games, s.wins) for s in rows] == [("Ann", 1, 1), ("Bob", 1, 1)]


def test_sorted_by_win_rate_then_games() -> None:
    games = [
        item("1", "rummy", {"Cy": 10, "Di": 50}, ["Cy"]),
        item("2", "rummy", {"Cy": 60, "Di": 5}, ["Di"]),
        item("3", "rummy", {"Di": 5, "Eve": 70}, ["Di"]),
    ]
    assert [s.player for s in player_stats(games)["rummy"]] == ["Di", "Cy", "Eve"]


def test_hand_table_and_series_from_a_summary() -> None:
    summary = {
        "players": ["A", "B"],
        "hands": [
            {"number": 1, "scores": {"A": 5, "B": -2}},
            {"number": 2, "scores": {"A": 1}},
            "junk",
        ],
    }
    assert hand_table(summary) == (["A", "B"], [(1, [5, -2]), (2, [1, None])])
    assert cumulative_series(summary, {"A": 10, "B": 10}) == {"A": [10, 15, 16], "B": [10, 8, 8]}
    assert starting_stacks("rummoli", [{"type": "start", "chips": [7, 9]}], ["A", "B"]) == {
        "A": 7,
        "B": 9,
    }
    assert starting_stacks("umtali", [{"type": "start_hand"}], ["A", "B"]) == {"A": 0, "B": 0}


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["umtali", "rummy", "rummoli"]),
            st.integers(0, 200),
            st.integers(0, 200),
            st.booleans(),
        ),
        max_size=12,
    )
)
def test_counts_add_up(rows: list[tuple[str, int, int, bool]]) -> None:
    games = [
        item(f"g{i}", g, {"Ann": a, "Bob": b}, ["Ann"] if ann_won else ["Bob"])
        for i, (g, a, b, ann_won) in enumerate(rows)
    ]
    stats = player_stats(games)
    for game in {g for g, *_ in rows}:
        played = sum(1 for g, *_ in rows if g == game)
        by_player = {s.player: s for s in stats[game]}
        assert by_player["Ann"].games == by_player["Bob"].games == played
        assert by_player["Ann"].wins + by_player["Bob"].wins == played


def test_replayed_demo_summaries_give_final_totals() -> None:
    from companion.demo import demo_games

    for game in demo_games():
        assert game.summary is not None
        start = starting_stacks(game.game, game.actions, game.players)
        series = cumulative_series(game.summary, start)
        # every line ends at the total (Rummoli: after the final poker's extra point)
        assert {p: pts[-1] for p, pts in series.items()} == game.summary["totals"]
        assert all(len(pts) >= len(game.summary["hands"]) + 1 for pts in series.values())
