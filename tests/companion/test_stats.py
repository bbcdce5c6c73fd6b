"""Player statistics and chart series (companion.stats)."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.stats import ledger_table, player_stats, series
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


def test_series_start_at_a_start_row_and_end_at_the_totals() -> None:
    from rulesets.protocol import LedgerEntry, Summary, Units

    ledger = (
        LedgerEntry(player="A", amount=10, kind="start", rule="M1.3"),
        LedgerEntry(player="B", amount=10, kind="start", rule="M1.3"),
        LedgerEntry(player="A", amount=5, kind="pot", rule="M5.6", hand=1),
        LedgerEntry(player="B", amount=-2, kind="ante", rule="M1.3", hand=1),
        LedgerEntry(player="A", amount=1, kind="ante", rule="M1.3", hand=2),
        LedgerEntry(player="B", amount=4, kind="buy_in", rule="M7.1"),
    )
    summary = Summary(
        game="x",
        players=("A", "B"),
        phase="over",
        finished=True,
        totals={"A": 16, "B": 12},
        units=Units.CHIPS,
        higher_is_better=True,
        ledger=ledger,
    )
    players, rows = ledger_table(summary)
    assert players == ["A", "B"]
    assert [(r.title, r.amounts) for r in rows] == [
        ("Start", {"A": 10, "B": 10}),
        ("Hand 1", {"A": 5, "B": -2}),
        ("Hand 2", {"A": 1, "B": 0}),
        ("Buy-in", {"A": 0, "B": 4}),
    ]
    run = series(summary)
    assert run.labels == ["Start", "1", "2", "Buy-in"]
    assert run.values == {"A": [10, 15, 16, 16], "B": [10, 8, 8, 12]}


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


def test_history_of_every_demo_game_adds_up() -> None:
    """Every row of the hand-by-hand table sums to the total shown (issue 15)."""
    from companion.demo import demo_records
    from rulesets import load_ruleset

    for stem, record in demo_records():
        summary = load_ruleset(record.game).from_record(record).summary()
        players, rows = ledger_table(summary)
        assert rows, stem
        for p in players:
            assert sum(r.amounts[p] for r in rows) == summary.totals[p], (stem, p)
        run = series(summary)
        assert {p: pts[-1] for p, pts in run.values.items()} == summary.totals, stem
        assert len(run.labels) == len(next(iter(run.values.values())))


def test_a_r2_winner_takes_all_rummy_counts_the_highest_total_as_best() -> None:
    """The history line carries each game's own scoring: points won, higher is better."""

    def won(gid: str, ann: int) -> GameListItem:
        return item(gid, "rummy", {"Ann": ann, "Bob": 10}, ["Ann"]).model_copy(
            update={"higher_is_better": True}
        )

    ann = next(s for s in player_stats([won("a", 90), won("b", 140)])["rummy"] if s.player == "Ann")
    assert (ann.best, ann.best_game) == (140, "b")
    penalty = [
        item("c", "rummy", {"Ann": 90, "Bob": 9}, ["Bob"]),
        item("d", "rummy", {"Ann": 40, "Bob": 9}, ["Bob"]),
    ]
    ann = next(s for s in player_stats(penalty)["rummy"] if s.player == "Ann")
    assert (ann.best, ann.best_game) == (40, "d")
