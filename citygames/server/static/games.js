// citygames — which module draws which game. The pages (table.html, replay.html, index.html) ask
// `loadView(gameId)` for a game's *view*; everything game-specific on those pages goes through it.
//
// ==== The renderer module interface ==========================================================
//
// A game's module is a plain ES module in this folder, listed in VIEWS below (game id -> a
// function doing the dynamic import()). It MUST export:
//
//   export function render(svg, obs, comps, legal, ui) -> Array | undefined
//
//     svg    the page's <svg id="board"> element. Replace its whole content on every call and set
//            its viewBox; the board area scales it to fit. Called again after every state
//            message (each action, undo, reconnect; each replay step): draw from scratch.
//     obs    the observation: `state.observation(seat)` of the viewer's seat, or of a spectator
//            (seat null) when watching and in the replay. Exactly the JSON the server sends.
//     comps  `game.components_json()` of the table's game with the table's options (GET
//            /api/games/{id}/components?<options>); at least {game, name}.
//     legal  the legal actions of the viewer, `game.action_json(...)` each: {id, kind, arg, text,
//            ...keys the game adds to place the action on its board}. [] when the viewer is not
//            to move, is a spectator, or in the replay.
//     ui     {
//              onAction: ((id: number, action: object) => void) | null
//                        THE callback for sending an action: call it with the `id` (and the
//                        action object) of one of `legal` when the user clicks the element that
//                        stands for it. The page sends {type: "action", seq, action: id} over the
//                        socket and ignores further calls until the server answers (so a double
//                        click is harmless). null when the viewer may not act (spectator, not
//                        their turn, replay): draw nothing clickable then.
//              onWhy:    ((query: {kind, arg} | {action}) => Promise<{action, legal, reason}>) | null
//                        ask the server why a greyed choice is not open (PROTOCOL.md, "Why not");
//                        use it through svg.js `makeWhy` on the greyed element. null when
//                        onAction is null.
//              names:    string[]  the display name of each seat (the player's name, or the
//                                  server's default: game.seat_name(seat))
//              colors:   string[]  the CSS colour of each seat (your `seatColors`, or the default)
//              seat:     number | null  the viewer's seat (null: spectator or replay)
//              busy:     boolean   an action was sent and is not answered yet (e.g. dim the
//                                  highlights; clicks are dropped by the page anyway)
//              recent:   any       what your `recent(log)` returned for the visible log
//                                  (undefined if you do not export `recent`)
//              log:      Array     the visible log entries so far [{index, kind, player, text, data}]
//              myChoice: object | null  in a simultaneous step, the viewer's own pending choice
//                                  (an action as in `legal`, the state message's `my_choice`);
//                                  null otherwise (and always in the replay)
//              replay:   boolean   true in the replay viewer
//            }
//
//     Returns the legal actions it did NOT draw as clickable board elements; the page shows
//     those as buttons under the turn card (and always lists every legal action under "All legal
//     actions"). Return undefined (or legal itself) to leave every action to the buttons.
//     Convention (the end-to-end test and the keyboard rely on it): give each clickable element
//     the class "legal" and the attributes data-action=<id> and data-kind=<kind>. Use svg.js
//     `makeClickable` for it: on a touch screen (no hover) a tap then selects the element and the
//     details panel commits (issue 15, defect 2), with a mouse a click plays at once.
//
// It MAY export (each has a game-agnostic default, see DEFAULTS):
//
//   recent(log) -> any                 derive something from the visible log entries (The
//                                      Capitals: tiles built this round); passed as ui.recent
//   seatColors(comps, n) -> string[]   CSS colour of each of the n seats: lobby dots, log
//                                      stripes, swatches, the score sheet
//   prompt(obs, legal) -> string       the hint shown to the seat that must move
//   describe(obs, comps) -> string     one line saying where the game stands (turn card, replay)
//   status(obs, comps) -> string       short form for the top bar (e.g. "round 3/10 · building")
//   panels(log, ctx) -> Array<{id, title, node, class?}>
//                                      extra cards in the side panel, built from the visible log;
//                                      ctx = {comps, colors, names}; node: a DOM Node
//   logClass(entry) -> string | null   an extra CSS class for a log entry
//   isSkip(entry) -> bool              a log entry saying why a turn passed by itself, repeated
//                                      in the turn card (The Capitals: "cannot activate anything")
//   scoring = {labels: {category: label}, total: "Total", winner: (name) => "Ann wins."}
//                                      wording of the final score sheet (categories are the keys
//                                      of result.breakdown)
//
// A module may import helpers from ./app.js (h, cap, swatch, ...); app.js imports no game module.
//
// If a game has no entry here, or its module fails to load (e.g. the file is not written yet),
// the pages show the generic view: the observation as JSON, every legal action as a button, the
// log and the score sheet.

const VIEWS = {
  the_capitals: () => import("./capitals.js"),
  seven_wonders_duel: () => import("./seven_wonders_duel.js"),
  quadropolis: () => import("./quadropolis.js"),
  between_two_cities: () => import("./between_two_cities.js"),
};

/** Seat colours for games without their own. */
export const DEFAULT_COLORS = ["#1c7ed6", "#e03131", "#2f9e44", "#9c36b5", "#f08c00", "#343a40", "#0c8599"];

function field(obs, k) { return obs && obs[k] !== undefined && obs[k] !== null ? obs[k] : null; }

const DEFAULTS = {
  render: null,
  recent: () => undefined,
  seatColors: (comps, n) => Array.from({ length: n }, (_, i) => DEFAULT_COLORS[i % DEFAULT_COLORS.length]),
  prompt: () => "Choose an action.",
  describe: (obs) => {
    const round = field(obs, "round"), phase = field(obs, "phase");
    const step = field(obs, "step") ?? field(obs, "decision");
    const parts = [];
    if (round !== null) parts.push(`Round ${round}`);
    if (phase !== null) parts.push(`${phase} phase`);
    return parts.join(" · ") + (step !== null ? `${parts.length ? " — " : ""}${step}` : "");
  },
  status: (obs) => {
    const round = field(obs, "round"), phase = field(obs, "phase");
    return [round !== null ? `round ${round}` : null, phase].filter(x => x !== null).join(" · ");
  },
  panels: () => [],
  logClass: () => null,
  isSkip: () => false,
  scoring: { labels: {}, total: "Total", winner: (name) => `${name} wins.` },
};

const cache = new Map();

/**
 * The view of `gameId`: every hook of the interface above, the game's own where its module
 * exports one, else the default. `view.render` is null for the generic view (no module, or it
 * failed to load: the reason is in `view.error`). Never throws; cached per game.
 */
export function loadView(gameId) {
  if (!cache.has(gameId)) cache.set(gameId, resolve(gameId));
  return cache.get(gameId);
}

async function resolve(gameId) {
  const loader = Object.prototype.hasOwnProperty.call(VIEWS, gameId) ? VIEWS[gameId] : null;
  let mod = null;
  let error = null;
  if (loader) {
    try {
      mod = await loader();
      if (typeof mod.render !== "function") throw new Error("the module exports no render()");
    } catch (e) {
      error = e;
      mod = null;
      console.warn(`citygames: no board view for ${gameId}, showing the generic view (${e.message || e})`);
    }
  }
  const view = { game: gameId, generic: !mod, error };
  for (const [k, def] of Object.entries(DEFAULTS)) {
    const own = mod ? mod[k] : undefined;
    view[k] = own !== undefined && own !== null ? own : def;
  }
  if (mod && mod.scoring) view.scoring = { ...DEFAULTS.scoring, ...mod.scoring };
  return view;
}
