"""`tabletap tags read|write|enroll|check|misses`: the maker's tag tools (docs/nfc.md).

Each works on one reader from the config (`--reader`, default the config's `default_reader`)
through the same adapter the daemon uses. `--sim` runs them against the emulated PN532 instead,
with tags laid on it (`--sim-tag SPEC`) or tapped one after another by a simulated hand
(`--sim-tap SPEC`); `enroll --sim` without taps is fed one blank tag per piece.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from tabletap.controller.clock import SystemClock
from tabletap.controller.commands.common import STOP_FIRST, config_source, table_running
from tabletap.controller.loading.source import SourceError
from tabletap.controller.ports import ListsTargets, ReaderUnavailable, TagReader, TagWriter
from tabletap.controller.settings.config import Config, load_config
from tabletap.controller.table.adapters import AdapterError, build_readers
from tabletap.controller.table.identity import Identifier, UidRegistry
from tabletap.controller.table.misses import (
    MissCount,
    NoRestingTag,
    Ways,
    count_misses,
    resting_tag,
)
from tabletap.controller.table.pieces import pieces_of, sets
from tabletap.controller.table.tagging import (
    CheckReport,
    Desk,
    Enrolment,
    TagJobError,
    check_set,
    write_piece,
)
from tabletap.controller.table.tagging import read_tags as read_now


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("tags", help="read, write, enrol and check NFC tags")
    sub = parser.add_subparsers(dest="tags_command", metavar="ACTION")
    sub.required = True

    def common(p: argparse.ArgumentParser, registry: bool = True, taps: bool = True) -> None:
        """The options every tool takes; `misses` names no piece (no --registry) and wants one
        tag resting from the start (no --sim-tap), so it is not offered what it would ignore."""
        p.add_argument("--config", metavar="FILE",
                       help="tabletap config (default: $TABLETAP_CONFIG, else "
                            "/etc/tabletap/table.yaml, else the built-in simulated table)")
        p.add_argument("--reader", metavar="NAME", help="which reader (default: default_reader)")
        if registry:
            p.add_argument("--registry", metavar="FILE",
                           help="UID registry (default: from config)")
        p.add_argument("--sim", action="store_true", help="use the emulated PN532")
        p.add_argument("--sim-tag", action="append", default=[], metavar="SPEC",
                       help="with --sim: a tag resting on the reader (piece id, blank, foreign, "
                            "unformatted, classic, locked:PIECE, copy:PIECE)")
        if taps:
            p.add_argument("--sim-tap", action="append", default=[], metavar="SPEC",
                           help="with --sim: a tag tapped after the others (repeatable, in "
                                "order)")

    p = sub.add_parser("read", help="what is on the reader now")
    common(p)
    p.set_defaults(func=run_read)

    p = sub.add_parser("write", help="program the tag on the reader with a piece id")
    common(p)
    p.add_argument("piece", help="piece id, e.g. admin/1 (docs/CONTRACTS.md, \"Pieces\")")
    p.add_argument("--force", action="store_true", help="overwrite a tag holding other data")
    p.set_defaults(func=run_write)

    for name, helptext, func in (
        ("enroll", "walk through every piece of a game, tap by tap", run_enroll),
        ("check", "which pieces of a set are present, missing or duplicated", run_check),
    ):
        p = sub.add_parser(name, help=helptext)
        common(p)
        p.add_argument("game", choices=sets(),
                       help="a game, or admin or game for the table's cards")
        p.add_argument("--deck", action="append", default=[], metavar="NAME",
                       help="a player's deck, in games whose players bring one (repeatable)")
        p.add_argument("--only", metavar="PREFIX", help="only piece ids starting with PREFIX")
        p.set_defaults(func=func)
    enroll = sub.choices["enroll"]
    enroll.add_argument("--registry-only", action="store_true",
                        help="enrol every tag by UID, writing nothing on it")
    enroll.add_argument("--resume", action="store_true", help="skip pieces already enrolled")
    enroll.add_argument("--timeout", type=float, default=300.0, metavar="SECONDS",
                        help="give up when no tag comes for this long (default 300)")
    sub.choices["check"].add_argument("--seconds", type=float, default=300.0,
                                      help="listen this long at most (default 300)")

    p = sub.add_parser(
        "misses", help="count how often a resting tag goes unseen, and whether the chip's own "
        "retries would cover it as the re-listings do (docs/nfc.md, \"Extra listings\")")
    common(p, registry=False, taps=False)
    p.add_argument("--seconds", type=_positive, default=120.0,
                   help="count this long (default 120); Ctrl-C ends the count early")
    p.add_argument("--rounds", type=_whole, metavar="N", help="stop after N rounds")
    p.add_argument("--wait", type=_positive, default=30.0, metavar="SECONDS",
                   help="wait this long for a tag to rest on the reader (default 30)")
    p.add_argument("--sim-fade", type=_fraction, default=0.0, metavar="P",
                   help="with --sim: the emulated tag is missed with probability P ...")
    p.add_argument("--sim-fade-by", choices=("listing", "activation"), default="listing",
                   help="... by a whole listing, or by each activation on its own "
                   "(default listing)")
    p.set_defaults(func=run_misses)


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds above 0")
    return value


def _whole(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a count of 1 or more")
    return value


def _fraction(text: str) -> float:
    value = float(text)
    if not 0 <= value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a probability from 0 to below 1")
    return value


class ConfigProblem(ValueError):
    """The command line or config cannot work as given (exit 2)."""


def say(line: str) -> None:
    print(line, flush=True)


def _open(args: argparse.Namespace, taps: list[str] | None = None,
          fade: dict[str, Any] | None = None) -> tuple[Desk, Config, Any]:
    source = config_source(args)  # --config, $TABLETAP_CONFIG or /etc/tabletap/table.yaml
    config = load_config(source)
    name = args.reader or config.default_reader
    if name not in config.readers:
        raise TagJobError(f"no reader called {name!r} in the config "
                          f"(it has {', '.join(config.readers) or 'none'})")
    context: dict[str, Any] = {}
    tapped = getattr(args, "sim_tap", [])  # `misses` has none
    if args.sim:
        context = {"sim": True, "sim_script": {"rest": args.sim_tag, "taps": taps or tapped}}
        if fade:
            context["sim_fade"] = fade
    elif args.sim_tag or tapped:
        raise TagJobError(f"{'--sim-tag' if args.sim_tag else '--sim-tap'} needs --sim")
    elif config.readers[name].transport == "sim":
        # the built-in config's readers are emulated: without this a maker at a real reader
        # would be told there is no tag on it
        where = f"config {source}" if source else "the built-in config (no --config)"
        raise ConfigProblem(
            f"reader {name} in {where} is the emulator (transport: sim), not a PN532; pass "
            "--config FILE with your reader's transport (uart, spi or i2c), or --sim to try "
            "the emulator"
        )
    else:
        _refuse_a_running_table(config, name)
    print(f"tabletap: config {source or 'built-in (no config file)'}; reader {name} "
          f"({'emulated, --sim' if args.sim else config.readers[name].transport})",
          file=sys.stderr)
    one = config.model_copy(update={"readers": {name: config.readers[name]}})
    reader = build_readers(one, context)[name]
    clock = context.get("clock") or SystemClock()
    desk = Desk(reader, clock, say, config.poll.period, config.poll.miss_threshold)
    return desk, config, reader


def _refuse_a_running_table(config: Config, reader: str) -> None:
    """A tool and the daemon on one reader would take each other's replies: the tool reads
    nonsense, and the daemon sees garbled polls or a missing reader."""
    running = table_running(config)
    if running is not None:
        raise TagJobError(f"{running} and uses reader {reader} (state folder "
                          f"{config.state_dir}): run this with the table stopped; {STOP_FIRST}")


def _registry(args: argparse.Namespace, config: Config) -> UidRegistry:
    return UidRegistry.load(args.registry or config.registry_path())


def _run(args: argparse.Namespace, job: Any) -> int:
    """Run a job with the errors a maker can act on turned into one clear line: exit 1 when the
    job failed at the reader, 2 when the command line or config is wrong."""
    try:
        return int(job())
    except (TagJobError, ReaderUnavailable) as exc:
        print(f"tabletap tags: {exc}", file=sys.stderr)
        return 1
    except (ValueError, SourceError, AdapterError) as exc:  # IdentityError: a bad piece id
        print(f"tabletap tags: {exc}", file=sys.stderr)
        return 2


def _writer(reader: TagReader) -> TagWriter:
    if not isinstance(reader, TagWriter):
        raise TagJobError(f"reader {reader.name} cannot write tags")
    return reader


def run_read(args: argparse.Namespace) -> int:
    def job() -> int:
        desk, config, reader = _open(args)
        try:
            return read_now(desk, Identifier(_registry(args, config)))
        finally:
            reader.close()

    return _run(args, job)


def run_write(args: argparse.Namespace) -> int:
    def job() -> int:
        desk, _, reader = _open(args)
        try:
            say(write_piece(desk, _writer(reader), args.piece, force=args.force))
            return 0
        finally:
            reader.close()

    return _run(args, job)


def run_enroll(args: argparse.Namespace) -> int:
    def job() -> int:
        pieces = pieces_of(args.game, tuple(args.deck), args.only)
        taps = args.sim_tap or (["blank"] * len(pieces) if args.sim else None)
        desk, config, reader = _open(args, taps)
        try:
            registry = _registry(args, config)
            enrol = Enrolment(desk, _writer(reader), registry, args.registry_only, args.timeout)
            return enrol.run(pieces, resume=args.resume)
        finally:
            reader.close()

    return _run(args, job)


def run_check(args: argparse.Namespace) -> int:
    def job() -> int:
        pieces = pieces_of(args.game, tuple(args.deck), args.only)
        taps = args.sim_tap or (pieces if args.sim else None)
        desk, config, reader = _open(args, taps)
        report = CheckReport(pieces)
        try:
            check_set(desk, Identifier(_registry(args, config)), report, args.seconds)
        except KeyboardInterrupt:
            pass
        finally:
            reader.close()
        for line in report.lines():
            say(line)
        return 0 if report.ok else 1

    return _run(args, job)


def _sim_fade(args: argparse.Namespace) -> dict[str, Any] | None:
    """The emulated tag's misses asked for with --sim-fade, as the sim backend reads them from
    its context (`sim_fade`, sim/pn532/backend.py); None without --sim."""
    if not args.sim:
        if args.sim_fade:
            raise ConfigProblem("--sim-fade needs --sim")
        return None
    return {"rate": args.sim_fade, "by": args.sim_fade_by}


def _progress(count: MissCount) -> None:
    one, daemon, chip = count.tallies()
    say(f"  {count.seconds:.0f} s, {len(count):,} rounds: missed by one activation "
        f"{one.missed:,}, by the daemon's way {daemon.missed:,}, by the chip's retries "
        f"{chip.missed:,}")


def run_misses(args: argparse.Namespace) -> int:
    def job() -> int:
        desk, _, reader = _open(args, fade=_sim_fade(args))
        try:
            if not isinstance(reader, ListsTargets):
                raise TagJobError(f"reader {reader.name} cannot list with a number of retries "
                                  "(a PN532 can)")
            try:
                uid = resting_tag(reader, desk.clock, args.wait)
            except NoRestingTag as exc:
                raise TagJobError(str(exc)) from None
            say(f"counting tag {uid.hex()} on reader {reader.name} for {args.seconds:g} s"
                + (f" or {args.rounds:,} rounds" if args.rounds else "")
                + ": leave it where it rests")
            count = MissCount(uid, Ways.of(reader))
            try:
                count_misses(reader, desk.clock, count, args.seconds, args.rounds,
                             progress=_progress)
            except KeyboardInterrupt:
                say("")  # past the terminal's ^C
                count.stopped = "stopped with Ctrl-C"
        finally:
            reader.close()
        for line in count.lines():
            say(line)
        return 0

    return _run(args, job)
