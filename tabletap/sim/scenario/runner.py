"""Running a scenario through the full daemon on simulated hardware, on virtual time.

Each step changes the simulated world (a tag on a reader, a button pressed) and then lets the
daemon run for as long as the real table would need to notice: taps go through the real reader
path, presence tracking, identity, the session and the journal, exactly as at the table.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ndef

from tabletap.controller.games.base import ManualAction
from tabletap.controller.loading.schema import SchemaError, loc_text
from tabletap.controller.loading.source import SourceError
from tabletap.controller.settings.config import Config
from tabletap.controller.state.occupancy import live_game
from tabletap.controller.table.daemon import Daemon
from tabletap.controller.table.runtime import GameSpec, StartError, open_table
from tabletap.sim.context import make_context
from tabletap.sim.scenario.model import Scenario, Step, TagSpec
from tabletap.sim.world import SimTag, SimWorld, uid_for


class ScenarioError(SourceError):
    """The scenario cannot run as written (exit 2), as opposed to a failed expectation."""


@dataclass
class Failure:
    step: Step
    message: str

    def describe(self, path: str) -> str:
        where = f"step {self.step.index}" + (f" (line {self.step.line})" if self.step.line else "")
        return f"{path}: {where}: {self.message}"


def partial_mismatch(expected: Any, actual: Any, path: str = "state") -> str | None:
    """Where `expected` is not contained in `actual`: mappings compare only the keys given."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path} is {actual!r}, not a mapping"
        for key, value in expected.items():
            if key not in actual:
                return f"{path}.{key} is missing (have {', '.join(map(str, actual))})"
            found = partial_mismatch(value, actual[key], f"{path}.{key}")
            if found:
                return found
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path} is {actual!r}, expected {expected!r}"
        for i, (e, a) in enumerate(zip(expected, actual, strict=True)):
            found = partial_mismatch(e, a, f"{path}[{i}]")
            if found:
                return found
        return None
    if expected != actual:
        return f"{path} is {actual!r}, expected {expected!r}"
    return None


class ScenarioRun:
    def __init__(self, scenario: Scenario, narrate: Callable[[str], None] = lambda t: None,
                 replace_live_game: bool = False):
        """`replace_live_game`: a `config: {state_dir: ...}` naming a folder with a live game
        is refused unless this is set (then the unfinished game is archived, not lost)."""
        self.scenario = scenario
        self.narrate = narrate
        self._tmp = tempfile.TemporaryDirectory(prefix="tabletap-scenario-")
        try:
            self.config = Config.model_validate({"state_dir": self._tmp.name, **scenario.config})
        except SchemaError as exc:
            raise ScenarioError(scenario.path, None, loc_text(("config", *exc.loc)),
                                exc.message) from None
        if "state_dir" in scenario.config:
            live = live_game(self.config.state_dir)
            if live and (not replace_live_game or "daemon" in live):
                self._tmp.cleanup()
                raise ScenarioError(
                    scenario.path, None, "config.state_dir",
                    f"{live}; a scenario would replace it. Use another folder"
                    + ("" if "daemon" in live else
                       ", or `tabletap sim run --replace-live-game` to archive it"))
        self.context = make_context()
        self.world: SimWorld = self.context["world"]
        # `players: []`: no game under way, the table waits for a game card (table/setup.py)
        spec = GameSpec(scenario.game, scenario.players, scenario.seed, scenario.options,
                        scenario.setup) if scenario.players else None
        self._said_mark = 0
        try:
            self.daemon: Daemon = open_table(self.config, self.context, self.world.clock, spec,
                                             narrate, new=True)
        except StartError as exc:
            raise ScenarioError(scenario.path, None, "setup", str(exc)) from None
        self.session = self.daemon.session

    # -- steps -----------------------------------------------------------------------------

    def run(self, after_step: Callable[[Step, dict[str, Any]], None] | None = None
            ) -> Failure | None:
        """Run every step; `after_step(step, expect)` lets a test look at the simulated
        hardware once a step's expectations held (the PWM on the servo pin, say)."""
        try:
            for step in self.scenario.steps:
                if step.action != "expect":
                    self.session.last = None
                    self._said_mark = self.session.speaker.total
                self._do(step)
                expect = (step.value if step.action == "expect" else step.expect) or {}
                failure = self.check(step, expect)
                if failure:
                    return failure
                if after_step is not None:
                    after_step(step, expect)
            return None
        finally:
            self.close()

    def close(self) -> None:
        self.daemon.close()
        self.session.outputs.close()
        self._tmp.cleanup()

    def _settle_place(self) -> float:
        return self.config.poll.period * 2

    def _settle_remove(self) -> float:
        return self.config.poll.period * (self.config.poll.miss_threshold + 2)

    def _reader(self, step: Step, spec: TagSpec) -> str:
        reader = spec.reader or self.config.default_reader
        if reader not in self.config.readers:
            raise ScenarioError(self.scenario.path, step.line, f"step {step.index}",
                                f"this table has no reader called {reader!r} "
                                f"(it has {', '.join(self.config.readers)})")
        return reader

    def _tag(self, spec: TagSpec) -> SimTag:
        if spec.piece is not None:
            try:
                return SimTag.for_piece(spec.piece)
            except ValueError:  # not even shaped like a piece id: write it anyway, raw
                message = b"".join(ndef.message_encoder([ndef.UriRecord("tabletap:" + spec.piece)]))
                return SimTag(uid_for(spec.piece), message, spec.piece)
        if spec.uid is not None:
            message = None if spec.ndef is None else bytes.fromhex(spec.ndef)
            return SimTag(bytes.fromhex(spec.uid.replace(":", "")), message)
        message = b"".join(ndef.message_encoder([ndef.UriRecord(spec.uri or "")]))
        return SimTag(uid_for(spec.uri or ""), message)

    def _do(self, step: Step) -> None:
        value = step.value
        action = step.action
        if action in ("tap", "place", "remove"):
            reader = self._reader(step, value)
            try:
                tag = self._tag(value)
            except ValueError as exc:  # an NDEF message bigger than the simulated tag
                raise ScenarioError(self.scenario.path, step.line, f"step {step.index}",
                                    f"this tag cannot be simulated: {exc}") from None
            if action in ("tap", "place"):
                self.world.place(reader, tag)
                self.daemon.run_for(self._settle_place())
            if action in ("tap", "remove"):
                if not self.world.remove(reader, tag.uid) and action == "remove":
                    raise ScenarioError(self.scenario.path, step.line, f"step {step.index}",
                                        f"nothing like that lies on the {reader} reader")
                last = self.session.last
                self.daemon.run_for(self._settle_remove())
                if action == "tap":
                    self.session.last = last  # the lift means nothing; keep the tap's answer
        elif action in ("press", "hold"):
            self.narrate(f"  ({'long press' if action == 'hold' else 'press'}: {value})")
            self.world.press(value, long=action == "hold")
            self.daemon.run_for(self._settle_place())
        elif action == "lid":
            self.narrate(f"  (the lid is {value})")
            self.world.lid(closed=value == "closed")
            self.daemon.run_for(self._settle_place())
        elif action == "roll":
            self.session.table.force("roll", value)
        elif action == "do":
            self.narrate(f"  (entered by hand: {value})")
            self.session.handle(ManualAction(dict(value)), self.world.clock.now())
        elif action == "wait":
            self.daemon.run_for(value)
        elif action == "restart":
            self._restart(step, value)

    def _restart(self, step: Step, value: dict[str, Any]) -> None:
        """Stop the daemon and start it again on the same state folder, as after a power cut,
        with the config's game and players given by the step."""
        self.narrate("  (the daemon restarts)")
        self.daemon.close()
        self.session.outputs.close()
        spec = None
        if "game" in value:
            spec = GameSpec(value["game"], list(value.get("players") or []), self.scenario.seed,
                            {}, {})
        try:
            self.daemon = open_table(self.config, self.context, self.world.clock, spec,
                                     self.narrate)
        except StartError as exc:
            raise ScenarioError(self.scenario.path, step.line, f"step {step.index}",
                                str(exc)) from None
        self.session = self.daemon.session
        self._said_mark = 0

    # -- expectations ----------------------------------------------------------------------

    def check(self, step: Step, expect: dict[str, Any]) -> Failure | None:
        engine, state = self.session.engine, self.session.state
        last = self.session.last
        for key, want in expect.items():
            problem: str | None = None
            if engine is None and key in ("turn", "score", "winner", "state"):
                problem = f"expected {key}: {want}, but no game is under way"
            elif key == "said":
                problem = self._said(want)
            elif key == "game":
                got_game = self.session.header.game if self.session.header else None
                if got_game != want:
                    problem = f"expected game: {want}, got {got_game}"
            elif key == "seats":
                if self.session.setup.seats != want:
                    problem = f"expected seats: {want}, got {self.session.setup.seats}"
            elif key == "accepted":
                got = None if last is None else last.accepted
                if got is None and last is not None and last.pending:
                    got_text = f"pending ({last.pending})"
                elif last is None:
                    got_text = "no action at all"
                elif last.rejection:
                    got_text = f"rejected ({last.rejection.code}: {last.rejection.message})"
                else:
                    got_text = str(got).lower()
                if got is not bool(want) or got is None:
                    problem = f"expected accepted: {str(want).lower()}, got {got_text}"
            elif key == "rejected":
                code = last.rejection.code if last and last.rejection else None
                if code != want:
                    got = f"rejected ({code})" if code else (
                        "accepted" if last and last.accepted else "no rejection")
                    problem = f"expected rejected: {want}, got {got}"
            elif key == "turn":
                got = engine.current_player(state)
                if got != want:
                    problem = f"expected turn: {want}, got {got}"
            elif key == "score":
                scores = engine.scores(state)
                wrong = {p: scores.get(p) for p, v in want.items() if scores.get(p) != v}
                if wrong:
                    problem = f"expected score: {want}, got {scores}"
            elif key == "winner":
                got = sorted(engine.winners(state))
                wanted = [] if want is None else sorted(want if isinstance(want, list) else [want])
                if got != wanted:
                    problem = f"expected winner: {want}, got {got or None}"
            elif key == "chest":
                got = "open" if self.session.outputs.chest.is_open else "closed"
                if got != want:
                    problem = f"expected chest: {want}, got {got}"
            elif key == "lights":
                got = self.session.outputs.lights.pattern
                if got != want:
                    problem = f"expected lights: {want}, got {got}"
            elif key == "state":
                problem = partial_mismatch(want, engine.public_view(state))
                if problem:
                    problem = f"expected state: {problem}"
            if problem:
                return Failure(step, problem)
        return None

    def _said(self, want: str | list[str] | dict[str, str | list[str]]) -> str | None:
        """Each wanted text must be part of a sentence the table said during the step. A plain
        `said:` is English; a mapping names the language of each of its sentences, and only
        the table's language is checked (the other languages' sentences are not said)."""
        language = self.session.words.language
        if isinstance(want, dict):
            if language not in want:
                return None
            want = want[language]
        elif language != "en":
            return None
        speaker = self.session.speaker
        heard = list(speaker.said)[max(0, len(speaker.said) - (speaker.total - self._said_mark)):]
        for text in [want] if isinstance(want, str) else want:
            if not any(text in sentence for sentence in heard):
                return (f"expected said: {text!r}, but the table said "
                        + (" | ".join(repr(h) for h in heard) or "nothing"))
        return None
