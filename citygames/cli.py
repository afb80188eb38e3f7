"""The ``citygames`` command: play in the terminal, simulate, replay, benchmark, read the rules.

Game options: ``--players N`` sets the option ``num_players`` when the game has it. Any other
``--name=value``, ``--name value`` (for non-boolean options), ``--name`` (true) or ``--no-name``
(false) argument becomes game option ``name`` (dashes become underscores), e.g.
``citygames bench the_capitals --players 4 --prosperity``.

Data overrides: ``--set FILE:PATH=VALUE`` (repeatable; ``citygames rules`` and ``citygames
bench``) changes one value of the game's data files for that run, e.g. ``--set
tiles.yaml:[hotel].cubes=3`` (keys as ``citygames rules GAME --assumptions`` lists them; see
``citygames.core.data``). ``--set NAME=VALUE`` with the name of a game option sets that option.

Every bad option (unknown game, unknown game option, bad value, bad data key, bad bot name, wrong
number of bots, unreadable record) exits with code 2 and a one-line message.
"""

from __future__ import annotations

import os
import secrets
from typing import Sequence

import click

from citygames import __version__
from citygames.bots import make_bot, parse_bot_spec, split_bot_specs
from citygames.core import (Game, GameOptionError, IllegalActionError,
                            RecordError, State, load_game, load_record, registered_games, replay,
                            save_record)
from citygames.core.data import DATA_OVERRIDES, parse_overrides
from citygames.core.markup import plural
from citygames.core.registry import game_info

#: lets a command take game options as extra ``--name[=value]`` arguments
GAME_OPTIONS = {"ignore_unknown_options": True, "allow_extra_args": True}


# --- helpers ------------------------------------------------------------------------------
def _console():
    from rich.console import Console
    return Console(highlight=False)


def _flag(name: str) -> str:
    return "--" + name.replace("_", "-")


def parse_game_options(args: Sequence[str], game_id: str) -> dict:
    """Turn extra command-line arguments into game options.

    Args:
        args: the unparsed arguments (``ctx.args``), e.g. ``["--prosperity", "--pile=3"]``.
        game_id: the game whose options they are.

    Returns:
        ``{option name: value}`` with raw values (strings or bools), checked later by the game.

    Raises:
        click.UsageError: a stray argument, an unknown option, or an option missing its value.
    """
    info = game_class_info(game_id)
    specs = {o.name: o for o in info.options}
    known = ", ".join(_flag(n) for n in specs if n != "num_players") or "none"
    opts: dict = {}
    i = 0
    args = list(args)
    while i < len(args):
        tok = args[i]
        i += 1
        if not tok.startswith("--") or tok == "--":
            raise click.UsageError(f"unexpected argument {tok!r}")
        body = tok[2:]
        if "=" in body:
            raw_name, value = body.split("=", 1)
            name = raw_name.replace("-", "_")
        else:
            name = body.replace("-", "_")
            if name not in specs and name.startswith("no_") and name[3:] in specs:
                name, value = name[3:], False
                if not isinstance(specs[name].default, bool):
                    raise click.UsageError(f"game option {_flag(name)} is not a true/false option")
            elif name in specs and not isinstance(specs[name].default, bool):
                if i < len(args) and not args[i].startswith("--"):
                    value = args[i]
                    i += 1
                else:
                    raise click.UsageError(f"game option {_flag(name)} needs a value ({_flag(name)}=VALUE)")
            else:
                value = True
        if name not in specs:
            raise click.UsageError(f"unknown game option {tok.split('=', 1)[0]} for {game_id}; known: {known}")
        opts[name] = value
    return opts


def game_class_info(game_id: str):
    """``registry.game_info(game_id)``, with an unknown or unloadable game as ``click.UsageError``."""
    try:
        return game_info(game_id)
    except GameOptionError as exc:
        raise click.UsageError(str(exc)) from None
    except ImportError as exc:
        raise click.UsageError(f"game {game_id!r} cannot be loaded: {exc}") from None


#: help of the ``--set`` option of the commands that take it
SET_HELP = ("FILE:PATH=VALUE: change one value of the game's data files for this run (repeatable), e.g. "
            "tiles.yaml:[hotel].cubes=3 or board:final_scoring.cubes_per_prestige=3; keys as "
            "`citygames rules GAME --assumptions` lists them, list items by id, name or index; VALUE is YAML "
            "(3, true, text, {coins: 2}). NAME=VALUE with a game option's name sets that option.")


def split_sets(sets: Sequence[str], game_id: str) -> tuple[dict, dict]:
    """``--set`` arguments as ``(game options, data overrides)``: a key without ``:`` that names one
    of the game's options is that option; every other key is a data key (checked by the game).

    Raises:
        click.BadParameter: an argument without ``=`` or with an empty key, or a key given twice.
    """
    try:
        parsed = parse_overrides(sets)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--set") from None
    specs = {o.name for o in game_class_info(game_id).options}
    options, overrides = {}, {}
    for key, value in parsed.items():
        name = key.replace("-", "_")
        if ":" not in key and name in specs:
            options[name] = value
        else:
            overrides[key] = value
    return options, overrides


def load_cli_game(game_id: str, players: int | None, extra: Sequence[str], sets: Sequence[str] = ()) -> Game:
    """The game ``game_id`` with ``--players``, the extra option arguments and ``--set`` applied.

    Args:
        sets: ``--set`` arguments, ``KEY=VALUE`` (``split_sets``): data overrides (the game option
            ``data_overrides``) or game options.

    Raises:
        click.UsageError: unknown game, unknown option, bad value, bad data key or data value, or
            unsupported player count.
    """
    info = game_class_info(game_id)
    options = parse_game_options(extra, game_id)
    set_options, overrides = split_sets(sets, game_id)
    for name, value in set_options.items():
        if name in options and str(options[name]) != str(value):
            raise click.UsageError(f"{_flag(name)} and --set {name}={value} disagree")
        options[name] = value
    if overrides:
        options[DATA_OVERRIDES] = overrides
    has_np = any(o.name == "num_players" for o in info.options)
    if players is not None:
        if has_np:
            if "num_players" in options and str(options["num_players"]) != str(players):
                raise click.UsageError("--players and --num-players disagree")
            options["num_players"] = players
        elif not info.min_players <= players <= info.max_players:
            raise click.BadParameter(f"{game_id} is for {info.min_players}-{info.max_players} players, "
                                     f"got {players}", param_hint="--players")
    try:
        return load_game(game_id, **options)
    except GameOptionError as exc:
        if "num_players" in str(exc) and players is not None:
            raise click.BadParameter(f"{game_id} is for {info.min_players}-{info.max_players} players, "
                                     f"got {players}", param_hint="--players") from None
        raise click.UsageError(str(exc).splitlines()[0]) from None


def parse_bots(text: str) -> list[str]:
    """Bot specs -> list; ``click.BadParameter`` if empty or a spec is bad (``make_bot``'s message).

    The text is split by ``citygames.bots.split_bot_specs`` (``;`` or ``,``, ``key=value`` items
    belong to the bot before them).
    """
    names = split_bot_specs(text)
    if not names:
        raise click.BadParameter("no bot given", param_hint="--bots")
    for name in names:
        try:
            parse_bot_spec(name)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--bots") from None
    return names


def _seat_label(seat: int, who: dict[int, str], game: Game | None = None) -> str:
    """``"Seat 0 (you)"``, or with a game whose seats have names, ``"Seat 0 North (you)"``."""
    name = game.seat_name(seat) if game is not None else f"Seat {seat}"
    label = f"Seat {seat}" if name == f"Seat {seat}" else f"Seat {seat} {name}"
    return f"{label} ({who[seat]})" if seat in who else label


def _render(game: Game, state: State, seat: int | None, width: int | None = None) -> str:
    render = getattr(game, "render_text", None)
    if render is None:
        import json
        from rich.markup import escape
        return escape(json.dumps(state.observation(seat), indent=1))
    import inspect
    if width is not None and "width" in inspect.signature(render).parameters:
        return render(state, seat, width=width)
    return render(state, seat)


def _print_log(console, events, prefix: str = "  ") -> None:
    for e in events:
        console.print(prefix + e.text, markup=False)


def _results_table(state: State, who: dict[int, str], title: str = "Final ranking"):
    """A rich table: one column per seat in ranking order; rows: the score, then its breakdown with the
    category keys in words (``expo_public_service`` -> "Expo public service")."""
    from rich.table import Table
    from rich.text import Text
    n = state.game.num_players
    scores = state.scores()
    breakdowns = [state.score_breakdown(s) for s in range(n)]
    cats: list[str] = []
    for bd in breakdowns:
        for k in bd:
            if k not in cats:
                cats.append(k)
    ranking = state.ranking() if state.is_terminal() else sorted(range(n), key=lambda s: -scores[s])
    table = Table(title=title, title_justify="left")
    labels = {c: str(c).replace("_", " ").capitalize() for c in cats}   # placement_penalties -> Placement penalties
    table.add_column("", no_wrap=True, min_width=max([5] + [len(v) for v in labels.values()]))
    for place, seat in enumerate(ranking, start=1):
        table.add_column(Text(f"{place}. {_seat_label(seat, who, state.game)}"), justify="right")
    table.add_row(Text("Score", style="bold"), *[Text(str(scores[s]), style="bold") for s in ranking])
    for c in cats:
        table.add_row(Text(labels[c]), *[Text(str(breakdowns[s].get(c, ""))) for s in ranking])
    return table


def _print_outcome(console, state: State, who: dict[int, str]) -> None:
    if state.is_terminal():
        console.print(_results_table(state, who))
        returns = state.returns()
        if len(set(returns)) == 1:
            console.print("Shared victory.", markup=False)
        else:
            console.print(f"{_seat_label(state.ranking()[0], who, state.game)} wins.", markup=False)
    else:
        movers = ", ".join(_seat_label(s, who, state.game) for s in state.players_to_move())
        console.print(f"The game is not over after {plural(len(state.history), 'action')}; to move: {movers}.",
                      markup=False)
        console.print(_results_table(state, who, title="Scores so far"))


# --- commands -----------------------------------------------------------------------------
@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="citygames")
def main() -> None:
    """citygames: city-building board games (play, simulate, tournament, report, replay, bench, rules, bots,
    playthrough, serve)."""


@main.command("games")
def games_cmd() -> None:
    """List the games citygames knows."""
    for game_id in registered_games():
        try:
            info = game_class_info(game_id)
            click.echo(f"{game_id}: {info.name} ({info.min_players}-{info.max_players} players)")
        except click.UsageError:
            click.echo(f"{game_id}: (not available)")


@main.command("bots")
@click.argument("game_id", metavar="[GAME]", required=False)
@click.option("--players", "-p", type=int, help="with GAME: the levels' specs for this many seats "
              "(default: the game's default count)")
def bots_cmd(game_id, players) -> None:
    """List the bots: what each does and its parameters; with GAME, the budgets of the difficulty
    levels on that game too (they can differ by the number of seats: --players)."""
    from citygames.bots import BOT_ABOUT, BOT_PARAMS, BOTS, LEVEL_NAMES
    from citygames.bots.levels import level_spec
    if game_id is not None and game_id not in registered_games():
        raise click.BadParameter(f"unknown game {game_id!r}; games: {', '.join(registered_games())}",
                                 param_hint="GAME")
    if players is not None and game_id is None:
        raise click.BadParameter("give a GAME with --players", param_hint="--players")
    if game_id is not None:
        info = game_class_info(game_id)
        if players is None:
            players = info.default_players
        elif not info.min_players <= players <= info.max_players:
            raise click.BadParameter(f"{info.name} takes {info.min_players}-{info.max_players} players, "
                                     f"not {players}", param_hint="--players")
    for name in list(LEVEL_NAMES) + sorted(b for b in BOTS if b not in LEVEL_NAMES):
        line = f"{name:8} {BOT_ABOUT.get(name, '')}"
        params = BOT_PARAMS.get(name)
        if params:
            line += f" (parameters: {', '.join(params)})"
        if name in LEVEL_NAMES and game_id is not None:
            line += f"; on {game_id} with {players} players: {level_spec(name, game_id, players)}"
        click.echo(line)


@main.command(context_settings=GAME_OPTIONS)
@click.argument("game_id", metavar="[GAME]", required=False)
@click.option("--players", "-p", type=int, help="number of seats (game option num_players)")
@click.option("--human", "humans", type=int, multiple=True,
              help="a seat played at this terminal (repeatable); none: bots only")
@click.option("--bots", default="greedy", show_default=True,
              help="bots for the other seats in seat order, comma- or ;-separated; the last repeats; "
                   "a search bot takes parameters: 'ismcts:iterations=200,c=1.4;greedy'")
@click.option("--seed", type=int, help="game seed (default: random, printed)")
@click.option("--save", type=click.Path(dir_okay=False),
              help="write the game record here after every move (resume it with --resume)")
@click.option("--resume", type=click.Path(dir_okay=False),
              help="continue the game saved in this record (its game, options, seed, moves and seats)")
@click.option("--layout", type=click.Choice(["auto", "compact", "full"]), default="auto", show_default=True,
              help="compact: a summary that fits 80x24 (b shows the full board); full: the whole board; "
                   "auto: compact unless the terminal has room for the board")
@click.pass_context
def play(ctx, game_id, players, humans, bots, seed, save, resume, layout) -> None:
    """Play GAME in the terminal against bots (or watch bots play).

    Extra --name[=value] arguments are game options. At a prompt: a number plays that choice, b shows
    the full board, l the whole log so far, n the next page of a long menu, q asks before quitting.
    """
    resumed = None
    if resume:
        if players is not None or ctx.args:
            raise click.UsageError("--resume takes the game's options from the record: give no --players "
                                   "or game options with it")
        resumed = _load_resume(resume, game_id)
        game = resumed.game
        game_id = game.info.id
        saved_seats = resumed.record.get("terminal") or {}
        if not humans and isinstance(saved_seats.get("humans"), list):
            humans = tuple(h for h in saved_seats["humans"] if isinstance(h, int))
        if ctx.get_parameter_source("bots") != click.core.ParameterSource.COMMANDLINE \
                and isinstance(saved_seats.get("bots"), str):
            bots = saved_seats["bots"]
        seed = resumed.record["seed"]
        save = save or resume
    else:
        if not game_id:
            raise click.UsageError("give a GAME to play, or --resume FILE")
        game = load_cli_game(game_id, players, ctx.args)
    n = game.num_players
    humans = list(humans)
    for h in humans:
        if not 0 <= h < n:
            raise click.BadParameter(f"seat {h} does not exist (seats are 0..{n - 1})", param_hint="--human")
    if len(set(humans)) != len(humans):
        raise click.BadParameter("a seat is given twice", param_hint="--human")
    names = parse_bots(bots)
    bot_seats = [s for s in range(n) if s not in humans]
    if len(names) > max(1, len(bot_seats)):
        raise click.BadParameter(f"{len(names)} bots given for {len(bot_seats)} bot seat(s)", param_hint="--bots")
    if seed is None:
        seed = secrets.randbelow(1_000_000)
    from citygames.sim import bot_seeds
    seeds = bot_seeds(seed, n)
    bot_objs = {}
    who: dict[int, str] = {}
    for k, s in enumerate(bot_seats):
        name = names[min(k, len(names) - 1)]
        bot_objs[s] = make_bot(name, seeds[s])
        who[s] = name
    for h in humans:
        who[h] = "you" if len(humans) == 1 else "human"
    seats_info = {"humans": humans, "bots": bots}

    console = _console()
    compact = _compact_wanted(layout, game)
    if compact:
        console.width = min(console.width, 80)
    console.print(f"{game.info.name}: seed {seed}; "
                  + ", ".join(_seat_label(s, who, game) for s in range(n)), markup=False)
    if resumed is not None:
        state = resumed.state
        console.print(f"Resumed from {resume} after {plural(len(state.history), 'action')}.", markup=False,
                      soft_wrap=True)
    else:
        state = game.new_initial_state(seed=seed)
    start = len(state.log) if resumed is not None else 0
    log_pos = {h: start for h in humans}
    spectator_pos = 0
    view = _View(compact)
    try:
        while not state.is_terminal():
            player = state.players_to_move()[0]
            bot = bot_objs.get(player)
            if bot is not None:
                state.apply_action(bot.step(state, player), player=player)
                if save:
                    _save(console, state, save, seats_info, quiet=True)
                if not humans:
                    _print_log(console, state.log_for(None, spectator_pos), prefix="")
                    spectator_pos = len(state.log)
                continue
            _human_turn(console, game, state, player, who, log_pos, view)
            if save:
                _save(console, state, save, seats_info, quiet=True)
    except (click.Abort, KeyboardInterrupt, EOFError):
        console.print()
        console.print(f"You left the game after {plural(len(state.history), 'action')}.", markup=False)
        if save:
            _save(console, state, save, seats_info, quiet=True)
            console.print(f"The game is saved in {save}; continue it with: citygames play --resume {save}",
                          markup=False, soft_wrap=True)
        ctx.exit(0)

    console.rule("Game over")
    if len(humans) == 1:
        _print_log(console, state.log_for(humans[0], log_pos[humans[0]]))
    elif humans:
        _print_log(console, state.log_for(None, min(log_pos.values())))
    else:
        _print_log(console, state.log_for(None, spectator_pos), prefix="")
    if not compact:
        console.print(_render(game, state, None, console.width))
    _print_outcome(console, state, who)
    if save:
        _save(console, state, save, seats_info)


class _Resumed:
    """A record read back for ``play --resume``: the record, its game and the state it replays to."""

    def __init__(self, record: dict, state: State):
        self.record = record
        self.state = state
        self.game = state.game


def _load_resume(path: str, game_id: str | None) -> _Resumed:
    """Read and replay the record at ``path`` for ``play --resume``; ``click.BadParameter`` (exit 2)
    with a one-line reason when it cannot be read, is no record, does not replay, or is of another
    game than ``game_id`` (when given)."""
    try:
        record = load_record(path)
        state = replay(record)
    except (RecordError, TypeError, ValueError, KeyError) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else repr(exc)
        raise click.BadParameter(f"{path} cannot be resumed: {msg}", param_hint="--resume") from None
    if game_id and game_id != record["game"]:
        raise click.BadParameter(f"{path} holds a game of {record['game']}, not {game_id}", param_hint="--resume")
    if state.is_terminal():
        raise click.BadParameter(f"the game in {path} is over (citygames replay {path} shows it)",
                                 param_hint="--resume")
    return _Resumed(record, state)


def _compact_wanted(layout: str, game: Game) -> bool:
    """Whether ``play`` shows the compact view: ``--layout compact``, or ``auto`` with a terminal
    smaller than the full board needs (120 columns x 60 lines), for a game that has a compact view."""
    from citygames.compact import has_compact
    if not has_compact(game.info.id) or layout == "full":
        return False
    if layout == "compact":
        return True
    import shutil
    size = shutil.get_terminal_size((80, 24))
    return size.columns < 120 or size.lines < 60


class _View:
    """How ``_human_turn`` shows a frame: compact or full, and the menu page shown."""

    def __init__(self, compact: bool):
        self.compact = compact


def _save(console, state: State, path: str, seats: dict | None = None, quiet: bool = False) -> None:
    record = state.record()
    if seats is not None:
        record["terminal"] = seats     # who plays what, for --resume
    try:
        save_record(record, path)
    except OSError as exc:
        raise click.ClickException(f"cannot write the record to {path}: {exc}") from None
    if not quiet:
        console.print(f"Record saved to {path}.", markup=False)


#: lines of a compact frame: the terminal's height (at most 24 counted on)
_FRAME_LINES = 24
#: log lines a compact frame shows at most
_LOG_LINES = 5


def _wrapped(text: str, width: int) -> list[str]:
    import textwrap
    return textwrap.wrap(text, width, subsequent_indent="    ") or [""]


def _human_turn(console, game: Game, state: State, player: int, who: dict[int, str],
                log_pos: dict[int, int], view: _View | None = None) -> None:
    """Show ``player``'s view, read a valid choice and apply it. ``click.Abort`` on EOF/Ctrl-C or a
    confirmed ``q``. Compact view (issue 15, defect 9): a summary, the last log lines and one page of
    the menu, 24 lines in all; ``b`` prints the full board, ``l`` the whole log, ``n`` the next page."""
    from rich.markup import escape
    view = view or _View(False)
    me = " (you)" if who.get(player) == "you" else ""
    legal = state.legal_actions(player)
    texts = [state.action_to_string(a) for a in legal]
    new = state.log_for(player, log_pos[player])
    first = log_pos[player] == 0
    log_pos[player] = len(state.log)
    width = min(console.width, 80)
    if view.compact:
        from citygames.compact import compact_lines
        console.rule(f"{_seat_label(player, {}, game)} to move{me}")
        summary = compact_lines(state, player, width) or []
        for line in summary:
            console.print(line, markup=False)
        log_lines: list[str] = []
        for e in new:
            log_lines.extend(_wrapped("  " + e.text, width))
        hidden = len(log_lines) - _LOG_LINES
        if log_lines:
            head = "So far" if first else "Since your last move"
            console.print(f"{head}:" + (f" ({hidden} earlier lines: l shows the log)" if hidden > 0 else ""),
                          markup=False)
            for line in log_lines[-_LOG_LINES:]:
                console.print(line, markup=False)
        used = 1 + len(summary) + (1 + min(len(log_lines), _LOG_LINES) if log_lines else 0) + 1
        page = max(3, _FRAME_LINES - used - 2)    # the prompt and the page note
    else:
        console.rule(f"{_seat_label(player, {}, game)} to move{me}")
        console.print(_render(game, state, player, console.width))
        if new:
            console.print("[bold]So far:[/bold]" if first else "[bold]Since your last move:[/bold]")
            _print_log(console, new)
        page = len(legal)
    # the menu in pages that fit the frame: an action's text wraps (never cut: its cost must show)
    pages: list[list[str]] = [[]]
    used_lines = 0
    for k, text in enumerate(texts):
        lines = _wrapped(f"{k + 1:>3}. {text}", width) if view.compact else [f"{k + 1:>3}. {escape(text)}"]
        if view.compact and pages[-1] and used_lines + len(lines) > page:
            pages.append([])
            used_lines = 0
        pages[-1].extend(lines)
        used_lines += len(lines)
    current = 0

    def show_menu() -> None:
        for line in pages[current]:
            console.print(line, markup=not view.compact, highlight=False)
        if len(pages) > 1:
            console.print(f"     (menu page {current + 1} of {len(pages)}: n shows the next)", markup=False)

    show_menu()
    keys = "b board, l log, " + ("n more, " if len(pages) > 1 else "") + "q quit"
    while True:
        answer = click.prompt(f"Your choice ({'1' if len(legal) == 1 else f'1-{len(legal)}'}; {keys})",
                              default="", show_default=False).strip()
        low = answer.lower()
        if low in ("q", "quit", "exit"):
            if click.confirm("Quit?", default=False):
                raise click.Abort()
            continue
        if low == "b":
            import shutil
            console.print(_render(game, state, player, shutil.get_terminal_size((console.width, 24)).columns))
            continue
        if low == "l":
            _print_log(console, state.log_for(player, 0))
            continue
        if low == "n" and len(pages) > 1:
            current = (current + 1) % len(pages)
            show_menu()
            continue
        if not answer:
            console.print(f"Please type a number from 1 to {len(legal)}.")
            continue
        try:
            k = int(answer)
        except ValueError:
            console.print(f"{escape(answer)!s} is not a number; type a number from 1 to {len(legal)}.")
            continue
        if not 1 <= k <= len(legal):
            console.print(f"{k} is not in the menu; type a number from 1 to {len(legal)}.")
            continue
        try:
            state.apply_action(legal[k - 1], player=player)
        except IllegalActionError as exc:  # should not happen: the menu lists legal actions
            console.print(f"Not allowed: {escape(str(exc))}")
            continue
        return


@main.command(context_settings=GAME_OPTIONS)
@click.argument("game_id", metavar="GAME")
@click.option("--players", "-p", type=int, help="number of seats (game option num_players)")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--bots", default="random", show_default=True,
              help="one bot per seat, comma- or ;-separated (or one for all seats); a search bot takes "
                   "parameters: 'ismcts:iterations=200,c=1.4;greedy'")
@click.option("--seed", type=int, default=0, show_default=True, help="game i uses seed SEED+i")
@click.option("--out", type=click.Path(), help="results: a folder of Parquet tables (a name ending in .parquet: "
              "games, seats with score categories, component facts) or a CSV file (.csv, one row per game)")
@click.option("--resume", is_flag=True, help="complete the interrupted run in --out (a .parquet results folder)")
@click.option("--part-games", type=click.IntRange(min=1), default=2000, show_default=True,
              help="games per Parquet part: what an interruption can lose at most, and what is held in memory")
@click.option("--backend", type=click.Choice(["local", "ray"]), default="local", show_default=True,
              help="local worker processes, or a Ray cluster")
@click.option("--address", help="Ray cluster to join ('auto' or an address); default: start a local Ray")
@click.option("--workers", type=click.IntRange(min=1), help="worker processes or local Ray CPUs (default: all cores)")
@click.option("--save-records", type=click.Path(file_okay=False), help="write every game record here")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help=SET_HELP)
@click.option("--no-progress", is_flag=True, help="no progress bar")
@click.pass_context
def simulate(ctx, game_id, players, n_games, bots, seed, out, resume, part_games, backend, address, workers,
             save_records, sets, no_progress) -> None:
    """Simulate many bot games of GAME and print win rates, scores, game lengths and, for games
    that report it, how the games were won (e.g. the victory types of 7 Wonders Duel).

    With --out X.parquet the results are streamed to a folder of Parquet tables as games finish
    (read them with pandas, Polars, DuckDB or `citygames report`); an interrupted run keeps what
    finished and the same command with --resume completes it.

    What-if studies: --set KEY=VALUE changes a value of the game's data (as listed by `citygames
    rules GAME --assumptions`) for this run only; the overrides are in the results and the records.

    Extra --name[=value] arguments are game options.
    """
    from rich.console import Console

    from citygames import sim
    from citygames.sim.backends import make_backend
    from citygames.sim.results import ResultsError
    from citygames.sim.study import out_format, run_study
    game = load_cli_game(game_id, players, ctx.args, sets)
    n = game.num_players
    names = parse_bots(bots)
    if len(names) not in (1, n):
        raise click.BadParameter(f"{game_id} with {n} players needs {n} bots (one per seat) or one for all, "
                                 f"got {len(names)}", param_hint="--bots")
    if len(names) == 1:
        names = names * n
    if out is not None:
        try:
            fmt = out_format(out)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--out") from None
        if resume and fmt != "parquet":
            raise click.BadParameter("--resume needs a results folder (--out ending in .parquet)",
                                     param_hint="--resume")
    elif resume:
        raise click.BadParameter("--resume needs --out (the results folder to complete)", param_hint="--resume")
    if address and backend != "ray":
        raise click.BadParameter("--address needs --backend ray", param_hint="--address")
    try:
        local_workers = min(workers or os.cpu_count() or 1, n_games)
        runner = make_backend(backend, workers=local_workers if backend == "local" else workers, address=address)
    except ImportError as exc:
        raise click.UsageError(str(exc)) from None
    progress_console = Console(stderr=True)
    try:
        done = run_study(game_id, game.options, names, n_games, runner, seed=seed, out=out, resume=resume,
                         save_records=save_records, progress=not no_progress, console=progress_console,
                         flush_games=part_games)
    except ResultsError as exc:
        raise click.UsageError(str(exc)) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc}") from None
    opts = ", ".join(f"{k}={v}" for k, v in game.options.items())
    title = f"{game.info.name} [{opts}]: {done.total} games, seed {seed}, bots {','.join(names)}"
    click.echo(sim.summary_text(done.stats, title=title), nl=False)
    click.echo(f"Played {done.played} games on {runner.name} with {runner.workers} worker"
               f"{'s' if runner.workers != 1 else ''}.")
    if out:
        what = f"{done.stats.games} games" if fmt == "parquet" else f"{done.played} rows"
        click.echo(f"Wrote {what} to {out}")
    if save_records:
        click.echo(f"Records in {save_records}")
    if done.interrupted:
        click.echo(f"Stopped after {done.stats.games} of {done.total} games: {done.interrupted}.", err=True)
        if out and fmt == "parquet":
            click.echo(f"Run the same command with --resume to play the {done.total - done.stats.games} "
                       f"missing games.", err=True)
        ctx.exit(130)


@main.command(context_settings=GAME_OPTIONS)
@click.argument("game_id", metavar="GAME")
@click.option("--bots", required=True, help="the entrants, comma-separated bot specs (at least 2), e.g. "
              "'random,greedy,ismcts:iterations=200' (a bot given twice plays itself, the second labelled NAME#2)")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=100, show_default=True,
              help="games per pair (per group with more seats): a multiple of the number of seats")
@click.option("--players", "-p", type=int, help="number of seats (game option num_players)")
@click.option("--seed", type=int, default=0, show_default=True, help="same seed, same games, same file")
@click.option("--out", type=click.Path(dir_okay=False), help="CSV file, one row per game, written as games finish")
@click.option("--resume", is_flag=True,
              help="continue or extend the run in --out: the games already in it (same bots in the same order, "
                   "game options and seed; with as many bots as seats, --games may be larger) are reused, only the "
                   "missing ones are played, and the file ends as a fresh run would write it (no file: a fresh run)")
@click.option("--plot", type=click.Path(dir_okay=False),
              help="PNG plot of the ratings with their 95% intervals (and rating against budget when one search "
                   "bot is entered at several iterations= or seconds=)")
@click.option("--summary", type=click.Path(dir_okay=False),
              help="CSV file of the ratings and head-to-head results, one row per pair (written at the end)")
@click.option("--workers", type=click.IntRange(min=1), help="worker processes (default: all cores)")
@click.option("--bootstrap", type=click.IntRange(min=0), default=0, show_default=True,
              help="0: Wald 95% intervals from the penalised likelihood; N > 0: instead, percentile "
                   "intervals over N bootstrap resamples of the games (a clean sweep then gets a zero-width "
                   "interval)")
@click.option("--no-progress", is_flag=True, help="no progress bar")
@click.pass_context
def tournament(ctx, game_id, bots, n_games, players, seed, out, resume, plot, summary, workers, bootstrap,
               no_progress) -> None:
    """Round-robin tournament between bots on GAME: ratings with 95% intervals and a head-to-head table.

    Every pair of bots plays --games games, seats rotated so that each bot plays every seat
    equally often; the rotations of a pair share their deals (game k of each starts from the same
    seed), and each bot is seeded by its place in --bots, so a bot against a copy of itself plays
    different games in the two seat orders. With more than two seats, every group of that many bots
    meets in each cyclic rotation (with fewer bots than seats, each bot meets a field of copies of
    each other bot). Ratings are Bradley-Terry maximum likelihood on the Elo scale (mean 0), from
    the pairwise results within each game, with one virtual draw per pair; 95% Wald intervals from
    that likelihood (or --bootstrap N). The head-to-head table gives each pair's share of wins with
    a 95% Wilson interval and says which bot is ahead when the interval of the rating difference
    excludes a tie. --plot adds a budget-vs-rating panel when one search bot is entered at several
    budgets (ismcts:iterations=100,ismcts:iterations=400).

    --resume continues an interrupted run, or extends one to more --games, from its --out file:
    the games already there are not played again.

    Extra --name[=value] arguments are game options.
    """
    from pathlib import Path

    from rich.console import Console

    from citygames.sim.backends import RunInterrupted
    from citygames.sim.tournament import (ResumeError, plot_ratings, rate, resume_games, run_tournament,
                                          schedule, split_bot_list, write_summary)
    game = load_cli_game(game_id, players, ctx.args)
    specs = split_bot_list(bots)
    if len(specs) < 2:
        raise click.BadParameter(f"a tournament needs at least 2 bots, got {len(specs)}", param_hint="--bots")
    for spec in specs:
        try:
            make_bot(spec, 0)
        except ValueError as exc:
            raise click.BadParameter(str(exc), param_hint="--bots") from None
    seats = game.num_players
    if n_games % seats:
        raise click.BadParameter(f"must be a multiple of {seats} (the seat rotations, so every bot plays every "
                                 f"seat equally), got {n_games}", param_hint="--games")
    if out is not None and not out.lower().endswith(".csv"):
        raise click.BadParameter(f"must end in .csv, got {out!r}", param_hint="--out")
    if resume and out is None:
        raise click.BadParameter("--resume needs --out (the CSV of the run to continue)", param_hint="--resume")
    if plot is not None and not plot.lower().endswith(".png"):
        raise click.BadParameter(f"must end in .png, got {plot!r}", param_hint="--plot")
    if summary is not None and not summary.lower().endswith(".csv"):
        raise click.BadParameter(f"must end in .csv, got {summary!r}", param_hint="--summary")
    paths = [(p, hint) for p, hint in ((out, "--out"), (plot, "--plot"), (summary, "--summary")) if p]
    for path, hint in paths:      # before the games, not after a long run
        if not Path(path).resolve().parent.is_dir():
            raise click.BadParameter(f"no folder {str(Path(path).parent)!r} to write {path!r} in", param_hint=hint)
    if len({str(Path(p).resolve()) for p, _ in paths}) < len(paths):
        raise click.BadParameter("--out, --plot and --summary must be different files")
    reuse = None
    if resume:        # before any game and before the file is touched: a refused file stays as it is
        try:
            reuse = resume_games(out, specs, seats, n_games, seed)
        except ResumeError as exc:
            raise click.BadParameter(f"{exc} (the file is left as it is)", param_hint="--resume") from None
        except OSError as exc:
            raise click.ClickException(f"cannot read {out}: {exc}") from None
        total = sum(p.games for p in schedule(len(specs), seats, n_games, seed))
        click.echo(f"Resuming {out}: {len(reuse)} of {total} games reused, {total - len(reuse)} to play."
                   if Path(out).exists() else f"No {out} yet: {total} games to play.")
    try:
        done = run_tournament(game_id, game.options, specs, n_games, seed=seed,
                              workers=workers or os.cpu_count() or 1, out=out, progress=not no_progress,
                              console=Console(stderr=True), reuse=reuse)
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc}") from None
    except (KeyboardInterrupt, RunInterrupted) as exc:
        why = "interrupted (Ctrl-C)" if isinstance(exc, KeyboardInterrupt) else str(exc)
        click.echo(f"Stopped: {why}." + (f" The games written so far are in {out}: run the same command "
                                         f"with --resume to play the others." if out else ""), err=True)
        ctx.exit(130)
    except RuntimeError as exc:   # a game failed
        raise click.ClickException(str(exc)) from None
    ratings = rate(done.games, done.labels, bootstrap=bootstrap, seed=seed)
    _print_tournament(game, done, ratings, seed, n_games)
    if plot:
        try:
            plot_ratings(ratings, plot, title=f"{game.info.name}: {len(done.games)} games ({n_games} per "
                                             f"{'pair' if seats == 2 else 'group'}), seed {seed}", specs=done.specs)
        except OSError as exc:
            raise click.ClickException(f"cannot write {plot}: {exc}") from None
    if summary:
        try:
            write_summary(ratings, summary)
        except OSError as exc:
            raise click.ClickException(f"cannot write {summary}: {exc}") from None
    if out:
        click.echo(f"Wrote {len(done.games)} games to {out}"
                   + (f" ({done.reused} reused, {len(done.games) - done.reused} played)" if resume else ""))
    if plot:
        click.echo(f"Wrote the plot to {plot}")
    if summary:
        click.echo(f"Wrote the ratings and head-to-head results to {summary}")


def _print_tournament(game: Game, done, ratings, seed: int, per_group: int) -> None:
    """The ratings table and the head-to-head table (one row per pair) of a tournament."""
    from rich.table import Table
    console = _console()
    labels = done.labels
    how = "bootstrap" if ratings.method == "bootstrap" else "Wald"
    t = Table(title=f"{game.info.name}: {len(done.games)} games ({per_group} per "
                    f"{'pair' if game.num_players == 2 else 'group'}), seed {seed}",
              caption=f"Bradley-Terry ratings in Elo points (mean 0; +400 = 10:1 odds), 95% {how} intervals; "
                      f"won: games won outright; seats: games in seat 1 / 2 / ...")
    for col in ("bot", "rating", "95% interval", "games", "won", "seats"):
        t.add_column(col, justify="left" if col == "bot" else "right")
    for i in ratings.order():
        played = sum(1 for who, _ in done.games if i in who)
        won = sum(1 for r in done.results if r.winner >= 0 and r.bots[r.winner] == labels[i])
        t.add_row(labels[i], f"{ratings.rating[i]:+.0f}", f"{ratings.low[i]:+.0f} .. {ratings.high[i]:+.0f}",
                  str(played), f"{won} ({won / played:.0%})" if played else "0",
                  " / ".join(str(c) for c in done.seat_counts[i]))
    console.print(t)
    h = Table(title="Head to head: A against B",
              caption="W-D-L: A's wins, draws, losses against B (with more than two seats, every placing of A "
                      "and B in a game counts); share: of those, A's (draws half), 95% Wilson interval over "
                      "the games they met in; A - B: rating difference, 95% interval; A ahead?: yes when that "
                      "interval excludes a tie")
    for col in ("A", "B"):
        h.add_column(col, overflow="fold")
    for col in ("W-D-L", "share (95%)", "A - B (95%)", "A ahead?"):
        h.add_column(col, justify="right", no_wrap=True)
    for i, j in ratings.pairs():
        d = ratings.draws[i, j]
        lo, hi = ratings.diff_low[i, j], ratings.diff_high[i, j]
        h.add_row(labels[i], labels[j],
                  f"{ratings.wins[i, j] - d / 2:.0f}-{d:.0f}-{ratings.wins[j, i] - d / 2:.0f}",
                  f"{ratings.score[i, j]:.0%} ({100 * ratings.score_low[i, j]:.0f}-{ratings.score_high[i, j]:.0%})",
                  f"{ratings.rating[i] - ratings.rating[j]:+.0f} ({lo:+.0f}..{hi:+.0f})",
                  "yes" if lo > 0 else "B ahead" if hi < 0 else "undecided")
    console.print(h)


@main.command("report")
@click.argument("results", metavar="RESULTS", type=click.Path())
@click.argument("results_b", metavar="[RESULTS_B]", type=click.Path(), required=False)
@click.option("--out", required=True, type=click.Path(file_okay=False),
              help="report folder (created if missing): index.html, its PNG plots and CSV tables")
@click.option("--top", type=click.IntRange(min=1), default=15, show_default=True,
              help="components shown at each end of the ranking (strongest and weakest)")
@click.option("--min-count", type=click.IntRange(min=1), default=20, show_default=True,
              help="seat-games a component needs on each side (happened / did not; both runs) to be ranked")
def report(results, results_b, out, top, min_count) -> None:
    """Write a static HTML report (with PNG plots) of the results folder RESULTS made by
    `citygames simulate --out X.parquet`: win rates by seat and bot, scores, score categories, game
    length and outcomes, and the per-component balance table (components.csv).

    With a second folder RESULTS_B of the same game, compare the two runs instead (B - A).
    """
    from citygames.sim.report import build_comparison, build_report
    from citygames.sim.results import ResultsError
    try:
        if results_b is None:
            index = build_report(results, out, top=top, min_count=min_count)
        else:
            index = build_comparison(results, results_b, out, top=top, min_count=min_count)
    except ResultsError as exc:
        raise click.UsageError(str(exc).splitlines()[0]) from None
    except OSError as exc:
        raise click.ClickException(f"cannot write the report to {out}: {exc}") from None
    click.echo(f"Wrote {index}")


@main.command("replay")
@click.argument("record_path", metavar="RECORD")
@click.option("--seat", type=int, help="show only what this seat saw (default: everything)")
def replay_cmd(record_path, seat) -> None:
    """Replay the game record RECORD (JSON): every log line, then the outcome."""
    try:
        record = load_record(record_path)
        state = replay(record)
    except (RecordError, TypeError, ValueError, KeyError) as exc:
        raise click.BadParameter(str(exc).splitlines()[0] if str(exc) else repr(exc),
                                 param_hint="RECORD") from None
    n = state.game.num_players
    if seat is not None and not 0 <= seat < n:
        raise click.BadParameter(f"seat {seat} does not exist (seats are 0..{n - 1})", param_hint="--seat")
    console = _console()
    console.print(f"{state.game.info.name} {dict(state.game.options)}, seed {record['seed']}, "
                  f"{plural(len(record['actions']), 'action')}", markup=False)
    for e in state.log:
        if seat is not None:
            if e.visible(seat):
                console.print(e.text, markup=False)
        elif e.visible_to is not None:
            console.print(f"(seat {e.visible_to} only) {e.text}", markup=False)
        else:
            console.print(e.text, markup=False)
    if seat is not None and not state.is_terminal():
        console.print(_render(state.game, state, seat, console.width))
        movers = ", ".join(_seat_label(s, {}, state.game) for s in state.players_to_move())
        console.print(f"The game is not over after {plural(len(state.history), 'action')}; to move: {movers}.",
                      markup=False)
        return
    _print_outcome(console, state, {})


@main.command(context_settings=GAME_OPTIONS)
@click.argument("game_id", metavar="GAME")
@click.option("--players", "-p", type=int, help="number of seats (game option num_players)")
@click.option("--seconds", type=click.FloatRange(min=0, min_open=True), default=3.0, show_default=True,
              help="total measuring time, shared by the three measurements")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help=SET_HELP)
@click.option("--adapters", is_flag=True,
              help="instead: random-play steps/s through each research adapter (PettingZoo, Gymnasium, "
                   "OpenSpiel) next to the raw engine, --seconds each")
@click.pass_context
def bench(ctx, game_id, players, seconds, seed, sets, adapters) -> None:
    """Measure GAME on one core: random-play actions/s, clones/s, random games/s.

    Extra --name[=value] arguments are game options; --set changes data values (or options).
    """
    from citygames.sim.bench import ACTIONS_BUDGET, CLONES_BUDGET, run_bench
    game = load_cli_game(game_id, players, ctx.args, sets)
    opts = ", ".join(f"{k}={v}" for k, v in game.options.items())
    if adapters:
        _bench_adapters(game, opts, seconds, seed)
        return
    rates = run_bench(game, seconds, seed)
    click.echo(f"{game.info.name} [{opts}], one core, {seconds:g} s")
    click.echo(f"random-play actions/s: {rates['actions_per_s']:>12,.0f}   (budget {ACTIONS_BUDGET:,})")
    click.echo(f"clones/s:              {rates['clones_per_s']:>12,.0f}   (budget {CLONES_BUDGET:,})")
    click.echo(f"random games/s:        {rates['games_per_s']:>12,.1f}")
    extra = game.part("bench_extra")   # a game's own figures (Quadropolis: the allocation search)
    if extra is not None:
        for label, value, budget in extra(game, seconds / 3, seed):
            click.echo(f"{label + ':':<23}{value}   ({budget})")


def _bench_adapters(game, opts: str, seconds: float, seed: int) -> None:
    """``citygames bench --adapters``: one line per adapter with its speed and its cost against the engine."""
    try:
        from citygames.adapters.bench import ADAPTER_BUDGET, run_adapter_bench
        rates = run_adapter_bench(game, seconds, seed)
    except ImportError as exc:
        raise click.UsageError(f"the adapters need their extra: pip install 'citygames[adapters]' ({exc})")
    except NotImplementedError as exc:
        raise click.UsageError(str(exc))
    click.echo(f"{game.info.name} [{opts}], one core, {seconds:g} s each")
    engine = rates["engine"]
    for name, rate in rates.items():
        if rate is None:
            click.echo(f"{name + ' steps/s:':<29}{'not installed':>12}")
            continue
        cost = engine / rate
        mark = "" if name == "engine" else f"   cost {cost:4.2f}x the engine (budget {ADAPTER_BUDGET:g}x)"
        click.echo(f"{name + ' steps/s:':<29}{rate:>12,.0f}{mark}")


@main.command("bench-study", context_settings=GAME_OPTIONS)
@click.argument("game_id", metavar="GAME", default="the_capitals")
@click.option("--players", "-p", type=int, default=4, show_default=True, help="number of seats")
@click.option("--games", "n_games", type=click.IntRange(min=1), default=20_000, show_default=True,
              help="games per speed measurement")
@click.option("--backends", default="local:1,local:2,ray:2", show_default=True,
              help="what to measure: BACKEND:WORKERS, comma-separated (ray = a local Ray instance)")
@click.option("--memory", "memory_games", default="10000,100000", show_default=True,
              help="study sizes for the memory measurement (local, all cores), comma-separated; '' for none")
@click.pass_context
def bench_study(ctx, game_id, players, n_games, backends, memory_games) -> None:
    """Benchmark studies of GAME with random bots: games/s per backend and worker count, the speed-up
    over one worker, the share of worker time spent in games, and the parent's peak memory as the
    study grows. Each measurement runs in a fresh process and streams to a temporary results folder.
    """
    from citygames.sim.study_bench import measure
    game = load_cli_game(game_id, players, ctx.args)
    configs = []
    for item in backends.split(","):
        name, _, k = item.strip().partition(":")
        if name not in ("local", "ray") or not k.isdigit() or int(k) < 1:
            raise click.BadParameter(f"{item!r} is not BACKEND:WORKERS (local:2, ray:2)", param_hint="--backends")
        configs.append((name, int(k)))
    try:
        sizes = [int(x) for x in memory_games.split(",") if x.strip()]
    except ValueError:
        raise click.BadParameter(f"{memory_games!r} is not a list of numbers", param_hint="--memory") from None
    opts = {k: v for k, v in game.options.items()}
    click.echo(f"{game.info.name} {opts}, random bots, {os.cpu_count()} cores")
    base = None
    for name, k in configs:
        m = measure(game_id, opts, n_games, name, k)
        base = base or m.games_per_s
        click.echo(f"{m.label:>9}: {m.games:,} games in {m.seconds:6.1f} s = {m.games_per_s:7.1f} games/s, "
                   f"speed-up {m.games_per_s / base:4.2f}x, busy {m.busy:.0%}, start-up {m.startup:.1f} s, "
                   f"parent peak {m.peak_rss_mb:.0f} MiB")
    for size in sizes:
        m = measure(game_id, opts, size, "local", os.cpu_count() or 1)
        click.echo(f"memory: {size:,} games ({m.label}, {m.games_per_s:.1f} games/s): "
                   f"parent peak {m.peak_rss_mb:.0f} MiB")


@main.command(context_settings=GAME_OPTIONS)
@click.argument("game_id", metavar="GAME")
@click.option("--players", "-p", type=int, help="number of seats (game option num_players)")
@click.option("--assumptions", is_flag=True, help="also list every value no source confirms")
@click.option("--set", "sets", multiple=True, metavar="KEY=VALUE", help=SET_HELP)
@click.option("--how-to-play", "how_to_play", is_flag=True,
              help="print the short \"How to play\" text instead (the page /rules/GAME of the server)")
@click.pass_context
def rules(ctx, game_id, players, assumptions, sets, how_to_play) -> None:
    """Print the rules of GAME (with --assumptions: the values no source confirms; with --set: the
    rules with those data values changed, the overridden values listed; with --how-to-play: the
    short guide the browser table links to, as Markdown).

    Extra --name[=value] arguments are game options.
    """
    game = load_cli_game(game_id, players, ctx.args, sets)
    if how_to_play:
        from citygames.server.rules_page import NoHowTo, howto_text
        try:
            click.echo(howto_text(game.info.id).rstrip("\n"))
        except NoHowTo as exc:
            raise click.ClickException(str(exc)) from None
        return
    describe = getattr(game, "describe_rules", None)
    if describe is None:
        info = game.info
        click.echo(f"{info.name} ({info.id}), {info.min_players}-{info.max_players} players")
        for o in info.options:
            click.echo(f"  {_flag(o.name)}: {o.doc} (default {o.default})")
        return
    click.echo(describe(assumptions=assumptions))


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True)
@click.option("--db", "db", metavar="URL_OR_PATH",
              help="database: an SQLite file path or an SQLAlchemy URL such as postgresql://user@host/db "
                   "[default: data/citygames.sqlite3 under the current directory]")
@click.option("--bot-delay", type=click.FloatRange(min=0), default=0.6, show_default=True,
              help="seconds a bot waits before each move")
@click.option("--bot-processes", type=click.IntRange(min=0), default=0, show_default=True,
              help="run bots in this many worker processes (0: worker threads)")
@click.option("--allowed-origin", "allowed_origins", multiple=True, metavar="URL",
              help="another origin (https://example.org[:port]) whose pages may open table sockets; repeatable "
                   "(the server's own origin is always allowed)")
@click.option("--rate-limit", "rate_limit_opts", multiple=True, metavar="NAME=N/PERIOD",
              help="change a per-client rate limit, e.g. create=10/minute or message=off; repeatable. Names: "
                   "create, join, watch, replay, message, client_messages, flood (defaults in SECURITY.md)")
@click.option("--no-rate-limits", is_flag=True, help="turn every rate limit off (load tests)")
@click.option("--idle-evict", type=click.FloatRange(min=0), default=600.0, show_default=True,
              help="seconds after which an open table nobody uses leaves memory (0: never)")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="server worker processes on the port (more than 1 needs a postgresql:// database)")
@click.option("--away-grace", type=click.FloatRange(min=0), default=120.0, show_default=True,
              help="seconds a player to move must be away (no open page) before another player may let a bot "
                   "play their seat")
def serve(host, port, db, bot_delay, bot_processes, allowed_origins, rate_limit_opts, no_rate_limits,
          idle_evict, workers, away_grace) -> None:
    """Run the browser table: lobby, tables, spectators and replays over HTTP and WebSockets."""
    try:
        import uvicorn

        from citygames.server.app import WS_MAX_FRAME, create_app, resolve_db_url
    except ImportError as exc:  # pragma: no cover - broken install
        raise click.ClickException(f"the server needs its dependencies (pip install citygames): {exc}") from None
    try:
        url = resolve_db_url(db)
    except OSError as exc:
        raise click.BadParameter(f"cannot create the database folder: {exc}", param_hint="--db") from None
    if workers > 1 and not url.startswith("postgresql"):   # issue 16, part 5: SQLite is one process
        raise click.BadParameter(
            f"{workers} workers need a PostgreSQL database (--db postgresql://user@host/db): SQLite is the "
            f"single-process embedded database, run it with --workers 1", param_hint="--workers")
    # the port first: a busy port fails here with one line, before the "table at" line (issue 15)
    sock = _listen_socket(host, port)
    import faulthandler
    try:  # a fatal signal (SIGBUS, SIGSEGV) still leaves a line and a stack on stderr
        faulthandler.enable()
    except (OSError, ValueError, AttributeError):  # stderr is not a file (tests' CliRunner)
        pass
    from citygames.server.db import DatabaseInUse, DatabaseUnwritable, Repository, hold_database
    try:  # fail here with one line rather than in the server's startup with a traceback
        hold_database(url)  # one server per SQLite file, for the life of this process (issue 16, defect 3)
        Repository(url).close()
    except (DatabaseInUse, DatabaseUnwritable) as exc:
        raise click.ClickException(str(exc)) from None
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise click.BadParameter(f"cannot open the database: {first}", param_hint="--db") from None
    rate_limits: dict | None = None
    if not no_rate_limits:
        rate_limits = {}
        for opt in rate_limit_opts:
            name, sep, value = opt.partition("=")
            if not sep:
                raise click.BadParameter(f"expected NAME=N/PERIOD, got {opt!r}", param_hint="--rate-limit")
            rate_limits[name.strip()] = value.strip()
    try:
        app = create_app(url, bot_delay=bot_delay, bot_processes=bot_processes, allowed_origins=allowed_origins,
                         rate_limits=rate_limits, idle_evict=idle_evict, away_grace=away_grace)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--allowed-origin/--rate-limit") from None
    if workers > 1:   # several worker processes (issue 16, part 5): see citygames/server/cluster.py
        _serve_workers(url, host, port, workers, sock, bot_delay=bot_delay, bot_processes=bot_processes,
                       allowed_origins=list(allowed_origins), rate_limits=rate_limits, idle_evict=idle_evict,
                       away_grace=away_grace)
        return
    for game_id in registered_games():  # import every engine now rather than during play
        try:
            load_game(game_id)
        except Exception:  # pragma: no cover - a broken game package must not stop the server
            pass
    # what is loaded now (web stack, engines) lives for good: keeping it out of the collector's
    # full passes shortens the pauses they cause at every table; and young objects are collected
    # less often, so short-lived ones do not fill the old generation (see cluster.tune_gc)
    from citygames.server.cluster import tune_gc
    tune_gc()
    shown = f"[{host}]" if ":" in host else host
    where = url if not url.startswith("sqlite") else url.split("///", 1)[-1]
    if "@" in where:  # never print a password
        where = where.split("://", 1)[0] + "://…@" + where.rsplit("@", 1)[-1]
    port = sock.getsockname()[1]   # the port the system chose for --port 0
    click.echo(f"citygames table at http://{shown}:{port}/ (database {where})", nl=True)
    # no per-message deflate: compressing every state costs more CPU than building it
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=WS_MAX_FRAME, ws_per_message_deflate=False,
                            log_level="warning", timeout_graceful_shutdown=3)
    server = uvicorn.Server(config)
    try:   # uvicorn serves on the socket bound above: nobody can take the port in between
        server.run(sockets=[sock])
    except KeyboardInterrupt:   # Ctrl-C: uvicorn has already shut down gracefully
        pass
    finally:
        sock.close()
    if not server.started:   # as uvicorn.run: a failed start is exit code 1 (its log says why)
        raise SystemExit(1)


def _listen_socket(host: str, port: int):
    """A socket bound to ``host:port`` as uvicorn binds it (SO_REUSEADDR; IPv6 for an address with
    a colon), inheritable for uvicorn's worker processes.

    Raises:
        click.ClickException: the port is in use, needs privileges, or the host is not an address
            of this machine; one line saying which and what to do.
    """
    import errno
    import socket

    shown = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            why = (f"port {port} on {host} is in use (address already in use: another server?): "
                   f"choose another with --port")
        elif exc.errno == errno.EACCES:
            why = (f"cannot listen on {shown}: permission denied (ports below 1024 need privileges): "
                   f"choose another with --port")
        elif exc.errno == errno.EADDRNOTAVAIL:
            why = (f"cannot listen on {shown}: {host} is not an address of this machine "
                   f"(--host 0.0.0.0 listens on all of them)")
        else:
            why = f"cannot listen on {shown}: {exc.strerror or exc}"
        raise click.ClickException(why) from None
    sock.set_inheritable(True)
    return sock


def _serve_workers(url: str, host: str, port: int, workers: int, sock, **app_kwargs) -> None:
    """``serve --workers N`` (N > 1): N uvicorn workers sharing a PostgreSQL database (issue 16,
    part 5); SQLite stays one process and is refused here with a message. ``sock`` is the port
    bound by ``serve`` to check it is free: it is released just before uvicorn binds it again."""
    from citygames.server.cluster import serve_workers
    shown = f"[{host}]" if ":" in host else host
    where = url.split("://", 1)[0] + "://…@" + url.rsplit("@", 1)[-1] if "@" in url else url
    click.echo(f"citygames table at http://{shown}:{port}/ (database {where}, {workers} workers)", nl=True)
    sock.close()   # uvicorn's supervisor binds the port itself (SO_REUSEADDR) and shares it with its workers
    try:
        serve_workers(url, host=host, port=port, workers=workers, **app_kwargs)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise click.ClickException(f"cannot start the workers: {first}") from None


@main.command(context_settings=GAME_OPTIONS)
@click.argument("game_id", metavar="GAME")
@click.option("--players", "-p", type=int, help="number of seats (game option num_players)")
@click.option("--seed", type=int, default=0, show_default=True,
              help="the game's seed, also the seed that draws the actions")
@click.option("--out", type=click.Path(dir_okay=False), help="write the playthrough here (default: print it)")
@click.pass_context
def playthrough(ctx, game_id, players, seed, out) -> None:
    """Play GAME from SEED with seeded random actions and write every step: the seat to move, the
    legal action ids with their texts, the action applied, the log events and each seat's
    observation (the golden-test format; scripts/regen_goldens.sh rewrites tests/golden).

    Extra --name[=value] arguments are game options.
    """
    from citygames.sim.playthrough import record_playthrough
    game = load_cli_game(game_id, players, ctx.args)
    recorded = record_playthrough(game, seed)
    text = recorded.text()
    if not out:
        click.echo(text, nl=False)
        return
    try:
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
    except OSError as exc:
        raise click.ClickException(f"cannot write {out}: {exc}") from None
    click.echo(f"Wrote {out}: {plural(len(recorded.steps) - 1, 'action')}, {len(text.encode()):,} bytes")


if __name__ == "__main__":  # pragma: no cover
    main()
