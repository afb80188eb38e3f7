"""Placeholder board text."""


def board_text(state, seat) -> str:
    return f"round {state.round}"
