"""What leaves the server for a seat: ``seat_view``, its observation, its legal actions when it is
to move, the move log as it saw it, in words, with the session of play and the clock. Never the
state, ``to_json``, the seed (until the end) or another seat's hidden values.

Made here, above the live game and its words: the live game is data the view reads (it calls
neither its words nor its session), so nothing reads the live game back while it calls out.
"""

from __future__ import annotations

from typing import Any

from boneyard.web.play import words
from boneyard.web.play.live import LOG_IN_VIEW, LiveGame, render


def seat_view(
    live: LiveGame, seat: int | None, draw: bool = True, log_from: int | None = None
) -> dict[str, Any]:
    """Everything ``seat`` (``None``: a spectator) may be sent of ``live``, as JSON-safe data.

    ``draw=False`` leaves out the board drawing (programs that read the observation). The
    move log is its latest ``LOG_IN_VIEW`` lines (earlier ones: ``log_lines``, a charged
    read), so a view costs the same however long the game; ``log_from`` sends only the
    lines from that sequence number on (a live update, ``log_update``: the client has the
    rest).
    """
    state = live.state
    observation = state.observation(seat)
    player = live.to_move()
    legal: list[dict[str, Any]] = []
    waiting = live.waiting_for_people()  # nobody may move before every seat is taken
    # (a seat the computer took over from its person is the computer's to move, not the page's)
    if seat is not None and player == seat and not waiting and live.is_persons(seat):
        legal = [{"id": a, "string": state.action_to_string(a)} for a in state.legal_actions()]
    column = seat if seat is not None else live.num_seats
    terminal = live.over
    svg, text = render(live.game, observation) if draw else (None, "")
    if svg is not None:  # a seat's own marks made true once the computer took it over
        svg = words.as_seat_reads(live, seat, svg)
    start = max(live.seq - LOG_IN_VIEW, 0 if log_from is None else log_from)
    people = set(live.people_seats)
    return {
        "game_id": live.id,
        "game": live.game.name,
        "title": live.game.title,
        "params": dict(live.game.params),
        "created": live.stored.created,
        "seq": live.seq,
        "seat": seat,
        "seats": [
            # names before colours: "Ann (Black)" where the person gave a name
            {
                "seat": s,
                "label": words.display_name(live, s),
                "kind": live.stored.seats[s]["kind"],
                "person": s in people,
            }
            for s in range(live.num_seats)
        ],
        "hints_on": live.hints_on,
        "current_player": player if player >= 0 and not waiting else None,
        "terminal": terminal,
        "returns": live.returns() if terminal else None,
        "status": live.status_text(),
        "observation": observation,
        "legal": legal,
        # how this page marks its own seat, drawn or not (the session's socket draws nothing)
        "you_mark": words.you_mark(live, seat),
        "log_update": log_from is not None,
        "log_from": start,
        "log": log_lines(live, column, start, live.seq, draw),
        "svg": svg,
        "text": text,
        "seed_hash": live.stored.seed_hash,
        "seed": live.stored.seed if terminal else None,
        **(words.for_seat(live, seat, observation) if draw else {}),
        "session": live.session.view(live, seat) if live.session is not None else None,
        "clock": live.clock.view(waiting or terminal) if live.clock is not None else None,
    }


def log_lines(
    live: LiveGame, column: int, start: int, stop: int, words_too: bool
) -> list[dict[str, Any]]:
    """The move log's lines ``start`` to ``stop`` as the seat of ``column`` (the spectator's:
    ``num_seats``) saw them; ``words_too``: with each line in words (the pages')."""
    return [
        {"seq": e.seq, "player": e.player, "string": e.strings[column]}
        | ({"words": words.described(live, e.seq, column)} if words_too else {})
        for e in live.log[start:stop]
    ]
