"""The small error family every ruleset raises.

Everything the referee refuses is a :class:`RulesetError`, which is a
:class:`ValueError`, so callers that only know ``ValueError`` still catch it.

* :class:`CardParseError` -- the text could not be read as cards (typo, unknown
  suit, duplicate card in one list).
* :class:`IllegalActionError` -- the cards were read, but the action breaks a
  rule.  It carries the rule ID from ``RULES.md`` (``U6.2``, ``R3.4``, ``M5.3``).
* :class:`HouseRuleError` -- an unknown or malformed house-rule switch.
* :class:`RecordError` -- a recorded game (JSON) that cannot be replayed.

Messages always repeat the offending input so a player can see what was read.
"""

from __future__ import annotations


class RulesetError(ValueError):
    """Root of the error family.  ``rule`` is the RULES.md ID, when one applies.

    The message (``str(exc)``, and ``reason``: it without the rule ID appended) names
    the rule and writes cards as "5H" -- what ``companion check`` prints, a public
    contract.  ``words`` is the same refusal in players' words, what a screen shows
    beside the rule's link: no rule ID in the sentence, cards as 5♥ (given as
    ``words=`` where the message cites a rule in its prose).

    >>> exc = RulesetError('"5H 5H": 5H is listed twice (U1.1)', rule="U1.1",
    ...                    words='"5H 5H": 5H is listed twice')
    >>> str(exc), exc.words
    ('"5H 5H": 5H is listed twice (U1.1)', '5♥ 5♥: 5♥ is listed twice')
    """

    rule: str | None = None

    def __init__(self, message: str, *, rule: str | None = None, words: str | None = None) -> None:
        if rule is not None:
            self.rule = rule
        self.reason = message
        #: the players' words where they differ by more than the cards ("": the message's)
        self.own_words = words or ""
        text = message if self.rule is None or self.rule in message else f"{message} ({self.rule})"
        super().__init__(text)

    @property
    def words(self) -> str:
        """The refusal in players' words, built when read: a check that turns the
        error into a verdict passes :attr:`own_words` on, and the verdict words it
        only if a screen shows it (:attr:`~rulesets.protocol.Verdict.said`)."""
        from rulesets.words import said  # words.py imports cards.py, which raises these

        return said(self.own_words or self.reason)


class CardParseError(RulesetError):
    """Text that is not a card, e.g. ``"1X"`` or ``"QH QH"``."""


class DuplicateCardError(CardParseError):
    """The same card appears twice where one pack allows it once."""


class IllegalActionError(RulesetError):
    """A well-formed action the rules forbid.  ``rule`` names the rule it breaks."""

    def __init__(self, message: str, *, rule: str, words: str | None = None) -> None:
        super().__init__(message, rule=rule, words=words)


class IncompleteActionError(IllegalActionError):
    """An action still being put together: as it stands the rules refuse it, but more
    of it (another card) could make it legal.  A verdict on it says so
    (:attr:`rulesets.protocol.Verdict.incomplete`), so a screen shows it neutral."""


class HouseRuleError(RulesetError):
    """An unknown house-rule name or a value of the wrong kind."""


class RecordError(RulesetError):
    """A recorded game or action that cannot be read or replayed."""
