"""Whether a move may be played: the seat's turn, the move number, a legal action."""

from __future__ import annotations

from boneyard.core.errors import BoneyardError, IllegalActionError
from boneyard.core.game import State
from boneyard.web.errors import WebError
from boneyard.web.play.live import LiveGame


def check_turn(live: LiveGame, seat: int | None, seq: int) -> None:
    """Refuse a move of ``seat`` on move number ``seq`` that is not its to make now."""
    if seat is None:
        raise WebError(403, "spectator", "a spectator cannot act: open an invite link")
    if live.over:
        raise WebError(409, "game_over", f"game {live.id} is over: {live.status_text()}")
    if seq != live.seq:
        raise WebError(
            409,
            "stale",
            f"you acted on move {seq} but the game is at move {live.seq}: "
            "someone moved first (or this was sent twice); reload the board",
        )
    player = live.to_move()
    if player != seat:
        raise WebError(409, "not_your_turn", f"it is not your turn: {live.status_text()}")


def action_id(state: State, action: int | str) -> int:
    """The legal action ``action`` (an id or a string) names; else a 422 that says why."""
    if isinstance(action, bool):
        raise WebError(422, "bad_action", "an action is an id (integer) or an action string")
    if isinstance(action, str):
        try:
            action = state.string_to_action(action)
        except BoneyardError as error:
            raise WebError(422, "bad_action", str(error)) from None
        except (ValueError, IndexError, KeyError) as error:
            raise WebError(422, "bad_action", f"cannot read action: {error}") from None
    if action not in state.legal_actions():
        try:
            state.clone().apply_action(action)
        except IllegalActionError as error:
            raise WebError(422, "illegal", str(error)) from None
        raise WebError(422, "illegal", f"illegal action {action!r}")
    return action
