"""The kit every screen shares: the thumb screen, entry bar, card grid, one card face,
one rule link, labels and the one ending."""
