"""The page's HTTP API (docs/WEB.md) on Starlette: only these routes, nothing else is served.

Starlette + uvicorn rather than aiohttp: the app is a plain ASGI object, so its tests drive it
through the same routing and middleware uvicorn serves; sse-starlette gives server-sent events
with keep-alive pings and clean disconnects, which is all the live view needs (a phone only
listens; its few actions are ordinary POSTs, so a websocket would buy nothing).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Any

from sse_starlette.sse import EventSourceResponse
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from tabletap.controller.control_socket.pairing import clean_label
from tabletap.controller.games import registry
from tabletap.controller.language.said import Said
from tabletap.web import languages
from tabletap.web.feed import Feed
from tabletap.web.guard import COOKIE, COOKIE_MAX_AGE, Guard, client_address, token_hash
from tabletap.web.link import DaemonLink, LinkError
from tabletap.web.words import msg, msg_p

STATIC = Path(__file__).parent / "static"
BODY_LIMIT = 16 * 1024
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
UNKNOWN = "unknown request"  # how a daemon without a request kind answers it
DOCTOR_SECONDS = 30.0  # the whole table check: a servo sweep, four colours, every button

Endpoint = Callable[[Request], Awaitable[Response]]


class Headers:
    """Nothing from elsewhere may run or frame the page; API answers are never cached.
    (Plain ASGI rather than BaseHTTPMiddleware, which would buffer the event stream.)"""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = [(b"content-security-policy", CSP.encode()),
                 (b"x-content-type-options", b"nosniff"),
                 (b"referrer-policy", b"no-referrer"),
                 (b"x-frame-options", b"DENY")]
        if scope["path"].startswith("/api/"):
            extra.append((b"cache-control", b"no-store"))

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


LANGUAGE_HEADER = "x-tabletap-language"  # the phone's own language, sent with its POSTs


def language_of(request: Request) -> str | None:
    """The language a phone asked for (`?lang=`, or the header its POSTs carry), when the
    table has it; None: the table's own."""
    asked = request.query_params.get("lang") or request.headers.get(LANGUAGE_HEADER)
    return languages.known(asked)


def _error(status: int, text: str | Said, request: Request | None = None,
           detail: str | None = None) -> JSONResponse:
    """A refusal the page shows: the page's own sentences in the phone's language (a string is
    the daemon's, already in the table's); `detail` is for the maker, never shown."""
    if isinstance(text, Said):
        text = languages.say(text, language_of(request) if request is not None else None)
    body: dict[str, Any] = {"ok": False, "error": text}
    if detail:
        body["detail"] = detail
    return JSONResponse(body, status_code=status)


def _down(exc: LinkError, request: Request) -> JSONResponse:
    """The daemon could not be asked: said to the phone in words, the why kept for the maker."""
    # TRANSLATORS: an answer on the phone page when the table's program does not answer
    return _error(503, msg("The table is not answering: it may be off or restarting. "
                           "Wait a moment and try again."), request, str(exc))


def _too_old() -> Said:
    # TRANSLATORS: on the phone page, when the table's program is older than the page
    return msg("The table's program is too old for this. Ask the grown-up who set it up to "
               "update it.")


def _paired_only() -> Said:
    # TRANSLATORS: on the phone page, when the table shows its game only to paired phones
    return msg("This table shows its game only to paired phones.")


def _unreadable() -> Said:
    # TRANSLATORS: an answer on the phone page when the page sent something the table cannot
    # read (only a broken or old page does)
    return msg("The page sent something the table could not read. Reload the page.")


class Page:
    def __init__(self, socket: str | Path, public: bool = True, poll_period: float = 0.1,
                 pair_rate: str = "5/minute") -> None:
        self.link = DaemonLink(socket)
        self.feed = Feed(self.link, poll_period)
        self.guard = Guard(pair_rate)
        self.public = public
        # per language: the last feed message and it said again (said_again)
        self._said: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}

    # -- who is asking ----------------------------------------------------------------------

    async def pairing_of(self, request: Request) -> dict[str, Any] | None:
        token = self.guard.session_token(request)
        if token is None:
            return None
        reply = await self.link.ask({"pairings": {"check": token_hash(token)}})
        return reply.get("pairing") if reply.get("ok") and reply.get("paired") else None

    async def may_watch(self, request: Request) -> bool:
        return self.public or await self.pairing_of(request) is not None

    def changing(self, paired: bool = True) -> Callable[[Endpoint], Endpoint]:
        """A POST: a session, the CSRF token, this origin, and (unless `paired` is False) a
        pairing the daemon confirms. Unpaired: 401; a forged or stale request: 403."""

        def wrap(endpoint: Endpoint) -> Endpoint:
            async def guarded(request: Request) -> Response:
                problem = self.guard.csrf_problem(request)
                if problem:
                    return _error(403, problem, request)
                try:
                    if paired and await self.pairing_of(request) is None:
                        # TRANSLATORS: on the phone page, when an unpaired phone tries to
                        # change the game; Pair is the page's button "Pair this phone"
                        return _error(401, msg("Pair this phone with the table first: press "
                                               "Pair, then tap the parent card at a reader."),
                                      request)
                    return await endpoint(request)
                except LinkError as exc:
                    return _down(exc, request)

            return guarded

        return wrap

    @staticmethod
    async def body(request: Request) -> Any:
        """The JSON body, read no further than BODY_LIMIT (a phone's action is tiny)."""
        raw = b""
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > BODY_LIMIT:
                raise ValueError(f"the request is larger than {BODY_LIMIT} bytes")
        try:
            return json.loads(raw or b"{}")
        except RecursionError:
            raise ValueError("the JSON is nested too deeply") from None

    async def forward(self, payload: dict[str, Any], kind: str,
                      request: Request | None = None) -> Response:
        reply = await self.link.ask(payload, with_id=True)
        if not reply.get("ok"):
            error = str(reply.get("error"))
            if error.startswith(UNKNOWN):
                return _error(501, _too_old(), request, f"the daemon does not know {kind!r}")
            return _error(400, error)
        await self.feed.poll_once()  # the page sees the result at once, not a period later
        return JSONResponse(languages.reply_in(reply, self.other_language(request)))

    # -- endpoints ----------------------------------------------------------------------------

    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def games(self, request: Request) -> Response:
        """Every installed game, as its spec describes it (controller.games.registry.public): the
        set-up form and the enrolment list are drawn from this, never from a copy in the
        page's script."""
        return JSONResponse({"ok": True, "games": [registry.public(g) for g in registry.games()]})

    async def view(self, request: Request) -> Response:
        """A game's view script or styles, files of the game's own package (its spec's
        `page.script` and `page.style`)."""
        name, kind = request.path_params["game"], request.path_params["kind"]
        spec = registry.find(name)
        if spec is None:
            return _error(404, f"no game called {name!r}")
        file = spec.page.script if kind == "js" else spec.page.style if kind == "css" else None
        if file is None:
            return _error(404, f"{name} has no view {kind}")
        try:
            body = resources.files(registry.package_of(name)).joinpath(file).read_bytes()
        except OSError:
            return _error(404, f"{name} has no view {kind}")
        media = "text/javascript" if kind == "js" else "text/css"
        return Response(body, media_type=media, headers={"cache-control": "no-cache"})

    async def session(self, request: Request) -> Response:
        token = self.guard.session_token(request)
        fresh = token is None
        if fresh:
            token = self.guard.new_token()
        try:
            pairing = None if fresh else await self.pairing_of(request)
        except LinkError as exc:
            pairing, down = None, str(exc)
        else:
            down = None
        response = JSONResponse({"ok": True, "paired": pairing is not None, "pairing": pairing,
                                 "csrf": self.guard.csrf_for(token), "public": self.public,
                                 "down": down, "language": self.table_language()})
        if fresh:
            response.set_cookie(COOKIE, token, max_age=COOKIE_MAX_AGE, httponly=True,
                                samesite="strict", secure=request.url.scheme == "https",
                                path="/")
        return response

    async def state(self, request: Request) -> Response:
        try:
            if not await self.may_watch(request):
                return _error(401, _paired_only(), request)
            await self.feed.poll_once()  # a few bytes when nothing changed
        except LinkError as exc:
            return _down(exc, request)
        if self.feed.down:
            return _down(LinkError(self.feed.down), request)
        return JSONResponse({"ok": True, **self.said_again(self.feed.message(),
                                                            language_of(request))})

    async def stream(self, request: Request) -> Response:
        try:
            if not await self.may_watch(request):
                return _error(401, _paired_only(), request)
        except LinkError as exc:
            return _down(exc, request)
        queue = self.feed.subscribe()
        language = language_of(request)

        async def events() -> AsyncIterator[dict[str, str]]:
            try:
                while True:
                    message = self.said_again(await queue.get(), language)
                    yield {"event": "state", "data": json.dumps(message)}
            finally:
                self.feed.unsubscribe(queue)

        return EventSourceResponse(events(), ping=15)

    async def pair(self, request: Request) -> Response:
        """Ask for a pairing window (controller.control_socket.pairing): the daemon answers
        with the request and, once its window is open, the code this page shows. The
        client's address goes along, since the daemon queues and cools down by address."""
        if not self.guard.may_try_pairing(request):
            # TRANSLATORS: on the phone page, after many tries to pair in a minute
            return _error(429, msg("Too many pairing attempts from this phone; wait a minute."),
                          request)
        token = self.guard.session_token(request)
        assert token is not None  # csrf_problem made sure
        agent = request.headers.get("user-agent", "")
        language = language_of(request)
        # TRANSLATORS: the name a phone gets in the list of paired phones when none was typed
        label = languages.say(msg_p("pairing label", "a phone") if "Mobile" in agent
                              # TRANSLATORS: the same, for a computer's browser
                              else msg_p("pairing label", "a browser"), language)
        with contextlib.suppress(ValueError):
            given = await self.body(request)
            if isinstance(given, dict):
                label = clean_label(given.get("label"), label)
        reply = await self.link.ask({"pair": {"token_sha256": token_hash(token), "label": label,
                                              "address": client_address(request)}})
        if not reply.get("ok"):
            retry = reply.get("retry_after")
            if isinstance(retry, (int, float)):
                return JSONResponse({"ok": False, "error": str(reply.get("error")),
                                     "retry_after": retry}, status_code=429,
                                    headers={"retry-after": str(int(retry) + 1)})
            return _error(409, str(reply.get("error")))
        await self.feed.poll_once()
        return JSONResponse(reply)

    async def pair_status(self, request: Request) -> Response:
        """How this browser's request stands; the daemon tells the code only to the session
        that asked (its token's hash goes along), never to another phone."""
        token = self.guard.session_token(request)
        ask: dict[str, Any] = {"status": request.path_params["rid"]}
        if token is not None:
            ask["token_sha256"] = token_hash(token)
        try:
            reply = await self.link.ask({"pair": ask})
        except LinkError as exc:
            return _down(exc, request)
        return JSONResponse(reply)

    async def forward_object(self, request: Request, kind: str, example: str) -> Response:
        """The JSON object in the body, sent to the daemon as request `kind`."""
        try:
            body = await self.body(request)
        except ValueError as exc:
            return _error(400, _unreadable(), request, f"bad request: {exc}")
        if not isinstance(body, dict) or (kind == "do" and not isinstance(body.get("action"),
                                                                           str)):
            return _error(400, _unreadable(), request,
                          f"bad request: a JSON object like {example} expected")
        return await self.forward({kind: body}, kind, request)

    async def do(self, request: Request) -> Response:
        return await self.forward_object(request, "do", '{"action": "claim", "domino": 5}')

    async def new(self, request: Request) -> Response:
        return await self.forward_object(request, "new",
                                         '{"game": "<game>", "players": ["ana", "ben"]}')

    async def enrol(self, request: Request) -> Response:
        return await self.forward_object(request, "enrol", '{"game": "<game>"}')

    async def enrol_stop(self, request: Request) -> Response:
        return await self.forward({"enrol": {"stop": True}}, "enrol", request)

    async def undo(self, request: Request) -> Response:
        return await self.forward({"undo": True}, "undo", request)

    async def abandon(self, request: Request) -> Response:
        return await self.forward({"abandon": True}, "abandon", request)

    async def voice(self, request: Request) -> Response:
        """The voice's controls, as the voice cards work them: body `{"change": "louder"}`
        (quieter, mute, unmute, repeat)."""
        try:
            body = await self.body(request)
        except ValueError as exc:
            return _error(400, _unreadable(), request, f"bad request: {exc}")
        if not isinstance(body, dict) or not isinstance(body.get("change"), str):
            return _error(400, _unreadable(), request,
                          'bad request: a JSON object like {"change": "louder"} expected')
        return await self.forward({"voice": body["change"]}, "voice", request)

    async def paired_read(self, request: Request, payload: dict[str, Any],
                          refusal: Said) -> Response:
        """A question only a paired phone may ask the daemon; its answer as it comes."""
        try:
            if await self.pairing_of(request) is None:
                return _error(401, refusal, request)
            reply = await self.link.ask(payload)
        except LinkError as exc:
            return _down(exc, request)
        if not reply.get("ok"):
            error = str(reply.get("error"))
            if error.startswith(UNKNOWN):
                return _error(501, _too_old(), request, error)
            return _error(400, error)
        return JSONResponse(reply)

    async def reveal(self, request: Request) -> Response:
        """The hidden information (a game's secret set-up, such as fake keys), for a parent."""
        return await self.paired_read(request, {"state": True, "reveal": True},
                                      # TRANSLATORS: on the phone page, asking for a game's
                                      # hidden set-up without pairing
                                      msg("Only a paired phone may see the game's secrets."))

    async def doctor(self, request: Request) -> Response:
        """The table's check, run by the daemon on the devices it holds
        (controller.health.table): a POST, since with no game under way it moves the chest and
        the lights."""
        reply = await self.link.ask({"doctor": True}, timeout=DOCTOR_SECONDS)
        if not reply.get("ok"):
            error = str(reply.get("error"))
            if error.startswith(UNKNOWN):
                return _error(501, _too_old(), request, error)
            return _error(400, error)
        return JSONResponse(languages.reply_in(reply, self.other_language(request)))

    async def pairings(self, request: Request) -> Response:
        return await self.paired_read(request, {"pairings": True},
                                      # TRANSLATORS: on the phone page, asking for the list
                                      # of paired phones without pairing
                                      msg("Only a paired phone may see the pairings."))

    async def revoke(self, request: Request) -> Response:
        reply = await self.link.ask({"revoke": request.path_params["pid"]}, with_id=True)
        if not reply.get("ok"):
            return _error(404, str(reply.get("error")))
        await self.feed.poll_once()
        return JSONResponse(reply)

    def other_language(self, request: Request | None) -> str | None:
        """The phone's language when it is not the table's (its answers are said again in it),
        else None: the daemon's words stand as they came."""
        language = language_of(request) if request is not None else None
        return language if language != self.table_language() else None

    def table_language(self) -> str:
        """The language the table speaks, as its last snapshot said (English before one)."""
        snap = self.feed.snapshot or {}
        return languages.known(snap.get("language")) or "en"

    async def words(self, request: Request) -> Response:
        """The words the page's scripts say in a language (languages.words), fetched once
        before the page draws; only a language the table has (the answer is cached)."""
        asked = request.query_params.get("lang", "")
        language = languages.known(asked)
        if language is None:
            there = ", ".join(languages.offered())
            return JSONResponse({"ok": False, "error": f"no language {asked!r} here; the "
                                 f"languages are {there}", "languages": list(languages.offered())},
                                status_code=400)
        return JSONResponse(languages.words(language))

    def said_again(self, message: dict[str, Any], language: str | None) -> dict[str, Any]:
        """The feed's message in `language`, rendered once per snapshot and language however
        many phones ask (the newest kept, one per language)."""
        if language is None:
            return message
        kept = self._said.get(language)
        if kept is not None and kept[0] is message:
            return kept[1]
        rendered = languages.said_again(message, language)
        self._said[language] = (message, rendered)
        return rendered

    # -- the app ------------------------------------------------------------------------------

    def app(self) -> Starlette:
        c = self.changing

        @contextlib.asynccontextmanager
        async def lifespan(_app: Starlette) -> AsyncIterator[None]:
            task = asyncio.create_task(self.feed.run())
            try:
                yield
            finally:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

        routes = [
            Route("/", self.index),
            Route("/api/games", self.games),
            Route("/api/words", self.words),
            Route("/views/{game:str}.{kind:str}", self.view),
            Route("/api/session", self.session),
            Route("/api/state", self.state),
            Route("/api/stream", self.stream),
            Route("/api/pair", c(paired=False)(self.pair), methods=["POST"]),
            Route("/api/pair/{rid:str}", self.pair_status),
            Route("/api/do", c()(self.do), methods=["POST"]),
            Route("/api/new", c()(self.new), methods=["POST"]),
            Route("/api/undo", c()(self.undo), methods=["POST"]),
            Route("/api/enrol", c()(self.enrol), methods=["POST"]),
            Route("/api/enrol/stop", c()(self.enrol_stop), methods=["POST"]),
            Route("/api/abandon", c()(self.abandon), methods=["POST"]),
            Route("/api/voice", c()(self.voice), methods=["POST"]),
            Route("/api/reveal", self.reveal),
            Route("/api/doctor", c()(self.doctor), methods=["POST"]),
            Route("/api/pairings", self.pairings),
            Route("/api/pairings/{pid:str}/revoke", c()(self.revoke), methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
        return Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(Headers)])


def build_app(socket: str | Path, public: bool = True, poll_period: float = 0.1) -> Starlette:
    return Page(socket, public, poll_period).app()
