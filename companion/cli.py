"""The ``companion`` command: start the app, or check cards from a terminal.

``companion`` opens the desktop window (or serves the web UI where no desktop
client can be had); ``companion --web`` serves the web UI only.  The
sub-commands ``check``, ``score``, ``replay`` and ``poker`` are for quick
checks and scripts; their options and ``--json`` fields are a public contract.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulesets import GAMES, IllegalActionError, RulesetError, load_check, load_ruleset
from rulesets.cards import parse_cards
from rulesets.errors import DuplicateCardError
from rulesets.judgement import Judgement
from rulesets.words import plural

if TYPE_CHECKING:
    from rulesets.judgement import GameCheck
    from rulesets.protocol import GameRecord, HouseRulesBase

# The sub-commands import what they need when they run: `check` only the plain
# check of its game (no pydantic: benchmarks/cli_start.py), the others the
# protocol (pydantic models) and the one game they are asked about.

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8550

EXIT_OK = 0
EXIT_ILLEGAL = 1  # the referee said "no"
EXIT_BAD_INPUT = 2  # the input could not be read


def _cards_arg(words: Sequence[str]) -> list[str]:
    return [w for w in words if w.strip()]


def _pin(text: str) -> str:
    pin = "".join(text.split())
    if len(pin) != 6 or not pin.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r}: a PIN is 6 digits, e.g. 204518")
    return pin


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description=(
            "Rummy Companion: keeps score, referees melds and settles chip pots for "
            "Umtali, basic Rummy and Rummoli played with real cards.  Without a "
            "sub-command it starts the app."
        ),
        epilog=(
            "Cards are written rank then suit: 10H, TH, th, 10♥, QS, AD; jokers JK.  "
            "Several cards may come as separate words or as one quoted string.  "
            "Exit codes: 0 legal/ok, 1 illegal, 2 bad input."
        ),
    )
    parser.add_argument(
        "--web",
        action="store_true",
        help="serve the app in Flet's web mode (no browser is opened) instead of a desktop window",
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=(
            f"address to serve on in web mode (default {DEFAULT_HOST}); 0.0.0.0 or a network "
            "address lets other devices join, behind a PIN (table mode)"
        ),
    )
    parser.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port for web mode (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--pin",
        type=_pin,
        default=None,
        help=(
            "table mode with this 6-digit PIN (implies --web); table mode also starts, with a "
            "random PIN, when --host is an address other devices can reach"
        ),
    )
    parser.add_argument(
        "--data-dir",
        type=Path,
        default=None,
        help="folder for the game history (default: the user data folder of this system)",
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="add the demo games (three of each game) to the history before starting",
    )
    sub = parser.add_subparsers(
        dest="command", metavar="COMMAND", help="quick checks for scripts (see COMMAND --help)"
    )

    check = sub.add_parser(
        "check",
        help="is this meld or extension legal?",
        description="Ask the referee whether cards may be melded (or laid onto --onto).",
    )
    check.add_argument("game", choices=GAMES, help="which game's rules")
    check.add_argument("cards", nargs="+", help="the cards to play")
    check.add_argument("--onto", help="the meld the cards extend or are laid off onto")
    check.add_argument(
        "--going-out", action="store_true", help="the player goes out this turn (Umtali pairs)"
    )
    check.add_argument("--hand", help="the player's other cards in hand (enables the U7 check)")
    check.add_argument("--rules", action="append", help="house rules, e.g. ace_high_or_low,jokers")
    check.add_argument("--json", action="store_true", help="print a machine-readable verdict")

    score = sub.add_parser(
        "score",
        help="points of some cards",
        description="Points of the given cards under a game's rules.",
    )
    score.add_argument("game", choices=GAMES, help="which game's rules")
    score.add_argument("cards", nargs="+", help="the cards to count")
    score.add_argument("--rules", action="append", help="house rules, e.g. ace_high_or_low")
    score.add_argument("--json", action="store_true", help="print machine-readable points")

    replay = sub.add_parser(
        "replay",
        help="replay a recorded game and print its scores",
        description="Replay a recorded game (JSON) and print the scores or chips.",
    )
    replay.add_argument("file", type=Path, help="a game record (.json)")
    replay.add_argument("--json", action="store_true", help="print the full summary as JSON")

    poker = sub.add_parser(
        "poker",
        help="judge Rummoli poker hands",
        description="Judge poker hands (best five of each hand of any size).",
    )
    poker.add_argument(
        "hands", nargs="+", help='one quoted string per hand, e.g. "AS KS QS JS 10S"'
    )
    poker.add_argument("--names", help="comma-separated player names, in hand order")
    poker.add_argument("--json", action="store_true", help="print the judgement as JSON")

    phone = sub.add_parser(
        "build-phone",
        help="build the whole app as a folder a phone's browser runs offline",
        description=(
            "Write the app, Python (Pyodide) and every package it needs into DIR: any static "
            "file server serves it (python -m http.server -d DIR); opened once on a phone, "
            "it is added to the home screen and starts with no network and no computer."
        ),
    )
    phone.add_argument("dir", type=Path, help="the folder to write (an earlier build is replaced)")
    phone.add_argument(
        "--wheels",
        type=Path,
        default=None,
        help="folder of downloaded browser wheels to reuse (default: the user cache folder)",
    )
    return parser


def _print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2))


def _house_rules(game: GameCheck, specs: Sequence[str] | None) -> HouseRulesBase | None:
    """The house rules ``--rules`` switches on, read and checked by the game's house-rules
    model (pydantic: its exact messages); None without ``--rules`` (RULES.md's rules)."""
    if specs is None:
        return None
    from rulesets.protocol import parse_house_rules

    return parse_house_rules(game.house_rules(), specs)


def _cmd_check(args: argparse.Namespace) -> int:
    game = load_check(args.game)  # plain: no pydantic unless --rules (benchmarks/cli_start.py)
    rules = _house_rules(game, args.rules)
    pack = game.PACK_RULE
    cards = parse_cards(_cards_arg(args.cards), rule=pack)
    onto = parse_cards(args.onto, rule=pack) if args.onto else None
    hand = parse_cards(args.hand, rule=pack) if args.hand is not None else None
    try:
        if hand:  # --hand is the other cards held: none of them is played or on the table
            parse_cards([*map(str, cards), *map(str, onto or ()), *map(str, hand)], rule=pack)
        judgement = game.check(cards, onto=onto, going_out=args.going_out, hand=hand, rules=rules)
    except (IllegalActionError, DuplicateCardError) as exc:  # refused: the same answer
        judgement = Judgement(
            legal=False, rule=exc.rule or "", reason=exc.reason, cards=tuple(map(str, cards))
        )
    if args.json:
        _print_json(judgement.to_json())
    else:
        head = "LEGAL" if judgement.legal else "ILLEGAL"
        detail = f" {judgement.kind}" if judgement.kind else ""
        points = f", {plural(judgement.points, 'point')}" if judgement.points is not None else ""
        print(f"{head}{detail}{points} — {judgement.reason} [{judgement.rule}]")
        for note in judgement.notes:
            print(f"  note: {note}")
    return EXIT_OK if judgement.legal else EXIT_ILLEGAL


def _cmd_score(args: argparse.Namespace) -> int:
    from rulesets.protocol import parse_house_rules

    ruleset = load_ruleset(args.game)
    rules = parse_house_rules(ruleset.house_rules, args.rules)
    report = ruleset.score(parse_cards(_cards_arg(args.cards), rule=ruleset.pack_rule), rules=rules)
    if args.json:
        _print_json(report.to_json())
    else:
        parts = " + ".join(f"{card} {pts}" for card, pts in report.breakdown)
        print(
            plural(report.points, "point") + (f" ({parts})" if parts else "") + f" [{report.rule}]"
        )
        for note in report.notes:
            print(f"  note: {note}")
    return EXIT_OK


def _read_record(path: Path) -> GameRecord:
    """The game record in ``path``; any unreadable input is a RulesetError (exit 2, one line)."""
    from companion import jsonsafe
    from rulesets.protocol import GameRecord

    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise RulesetError(f"{str(path)!r}: cannot read the file ({exc.strerror})") from None
    try:
        data = jsonsafe.loads(raw, max_bytes=64 * 1024 * 1024)
    except jsonsafe.JsonInputError as exc:
        raise RulesetError(f"{str(path)!r}: {exc.reason}") from None
    return GameRecord.from_json(data)


def _cmd_replay(args: argparse.Namespace) -> int:
    from rulesets import timeline

    record = _read_record(args.file)
    summary = timeline.replay(record).game.summary().to_json()
    if args.json:
        _print_json(summary)
        return EXIT_OK
    state = "finished" if summary.get("finished") else "in progress"
    print(f"{record.game}: {', '.join(record.players)} — {state}")
    for hand in summary.get("hands", []):
        scores = ", ".join(f"{p} {v}" for p, v in hand.get("scores", {}).items())
        print(f"  hand {hand.get('number')}: {scores}")
    totals = ", ".join(f"{p} {v}" for p, v in summary.get("totals", {}).items())
    print(f"  totals: {totals}")
    if summary.get("pots"):
        print("  pots: " + ", ".join(f"{k} {v}" for k, v in summary["pots"].items()))
    if summary.get("winners"):
        print(f"  winner(s): {', '.join(summary['winners'])}")
    return EXIT_OK


def _cmd_poker(args: argparse.Namespace) -> int:
    from rulesets import poker

    hands = [parse_cards(h) for h in args.hands]
    names = [n.strip() for n in args.names.split(",")] if args.names else None
    judgement = poker.judge(hands, names=names)
    if args.json:
        _print_json(judgement.to_json())
    else:
        print(judgement.describe())
    return EXIT_OK


def _cmd_build_phone(args: argparse.Namespace) -> int:
    try:
        from companion.phone_build import PhoneBuildError, build_phone
    except ImportError as exc:
        print(f"companion build-phone: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        report = build_phone(args.dir, args.wheels)
    except PhoneBuildError as exc:
        print(f"companion build-phone: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(report.describe())
    return EXIT_OK


COMMANDS = {
    "check": _cmd_check,
    "score": _cmd_score,
    "replay": _cmd_replay,
    "poker": _cmd_poker,
    "build-phone": _cmd_build_phone,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        from companion.serve import serve

        return serve(
            web=args.web,
            host=args.host,
            port=args.port,
            data_dir=args.data_dir,
            demo=args.demo,
            pin=args.pin,
        )
    try:
        return COMMANDS[args.command](args)
    except RulesetError as exc:
        if getattr(args, "json", False):
            _print_json({"error": str(exc), "rule": exc.rule})
        else:
            print(f"companion: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
