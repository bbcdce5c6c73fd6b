"""The card picker's labels keep a player's name as it was typed ("Type Ann's cards")."""

from __future__ import annotations

import pytest

from companion.components.kit.card_grid import in_sentence


@pytest.mark.parametrize(
    ("label", "said"),
    [
        ("Meld", "meld"),
        ("Cards going down", "cards going down"),
        ("Ann's cards", "Ann's cards"),
        ("ann's cards", "ann's cards"),
        ("DeShawn's cards", "DeShawn's cards"),
        ("Thomas' cards", "Thomas' cards"),
    ],
)
def test_a_label_inside_a_sentence_keeps_names_as_typed(label: str, said: str) -> None:
    assert in_sentence(label) == said
