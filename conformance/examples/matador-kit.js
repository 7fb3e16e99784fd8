// The adapter kit in plain Node.js (no dependencies): put an existing Matador engine in
// front of the conformance suite in a few dozen lines. The Python kit
// (reference_engine.kit, docs/adapter-kit.md) is its twin; the hooks are the same.
//
// An adapter is an object with what the engine has:
//
//   name, version         what the engine calls itself
//   maxPip                the set's highest pip (6 unless said): a deal that gives no
//                         boneyard leaves the rest of this set, in canonical order
//   variants              {variantId: {option: [values]}}, or null for every variant
//   plays                 what it plays beyond that (spec/protocol.md, "Declaring what
//                         you play"); the kit adds scoring, matches and reasons from
//                         the hooks given
//   opensItself           true when start() lays the opening tile itself
//   reasons               "engine" when play() returns reason codes, else "none"
//   newGame(variant, options, players)           a match begins (optional)
//   start(table)          deal table.hands / table.boneyard in the engine (or rig its
//                         shuffle: stackFor, riggedRandom); false refuses the deal;
//                         an engine that opens itself returns {move, seat}
//   seat()                the seat to act, or null once the hand is over
//   moves()               the legal actions, as Move values; or allows(move)
//   play(move, seat)      true (or nothing) when done, false (or a reason code) when
//                         refused, or the Move it did instead
//   openEnds()            the open ends, L first: numbers for plain ends
//   tiles(seat)           a seat's tiles, as [a, b] pairs
//   winner()              the winning seat (side) once the hand is over, null for a tie
//   points()              optional: what each side scored in the hand
//   termination()         optional: "domino", "blocked" or "redeal"
//   matchWinner()         optional: the side that has won the match, or null
//   sides(players)        optional: how many sides score (default: one per seat)
//
// serve(adapter) answers the protocol on standard input and output.
"use strict";

const readline = require("readline");

const PROTOCOL = "matador-engine/1";
const MAX_LINE = 1 << 20;

// ------------------------------------------------------------------------ notation

const tileOf = (a, b) => (a <= b ? [a, b] : [b, a]);
const tileText = ([a, b]) => `${a}-${b}`;
const endText = (end) => (end === 0 ? "L" : end === 1 ? "R" : `E${end}`);

function parseTile(text) {
  const m = /^(?:(\d{1,2})-(\d{1,2})|\[(\d{1,2})[-|](\d{1,2})\])$/.exec(String(text).trim());
  if (!m) return null;
  return tileOf(Number(m[1] ?? m[3]), Number(m[2] ?? m[4]));
}

// "2-5@R:5" -> {kind: "play", tile: [2, 5], end: 1, shape: "inline", open: 5}
function parseAction(text) {
  const t = String(text).trim();
  if (/^draw$/i.test(t)) return Move.draw;
  if (/^(pass|knock)$/i.test(t)) return Move.pass;
  const m = /^(\d{1,2}-\d{1,2}|\[\d{1,2}[-|]\d{1,2}\])(?:@(L|R|E\d{1,2})(?::(\d{1,2})|(x)|\^(\d{1,2})))?$/.exec(t);
  if (!m) return null;
  const tile = parseTile(m[1]);
  if (!m[2]) return { kind: "play", tile, end: null, shape: "inline", open: null };
  const end = m[2] === "L" ? 0 : m[2] === "R" ? 1 : Number(m[2].slice(1));
  if (m[4]) return { kind: "play", tile, end, shape: "crosswise", open: null };
  const open = Number(m[3] ?? m[5]);
  if (open !== tile[0] && open !== tile[1]) return null;
  return { kind: "play", tile, end, shape: m[3] !== undefined ? "inline" : "crosswise_offset", open };
}

function actionText(move) {
  if (move.kind !== "play") return move.kind;
  if (move.end === null || move.end === undefined) return tileText(move.tile);
  const at = `${tileText(move.tile)}@${endText(move.end)}`;
  if (move.shape === "crosswise") return `${at}x`;
  return move.shape === "crosswise_offset" ? `${at}^${move.open}` : `${at}:${move.open}`;
}

const Move = {
  draw: Object.freeze({ kind: "draw" }),
  pass: Object.freeze({ kind: "pass" }),
  opening: (a, b) => ({ kind: "play", tile: tileOf(a, b), end: null, shape: "inline", open: null }),
  inline: (a, b, end, open) => ({ kind: "play", tile: tileOf(a, b), end, shape: "inline", open }),
  // lay [a-b] in line on end with its half `inward` against the end
  attach: (a, b, end, inward) => {
    const tile = tileOf(a, b);
    return { kind: "play", tile, end, shape: "inline", open: inward === tile[0] ? tile[1] : tile[0] };
  },
  across: (a, b, end) => ({ kind: "play", tile: tileOf(a, b), end, shape: "crosswise", open: null }),
  offset: (a, b, end, open) => ({ kind: "play", tile: tileOf(a, b), end, shape: "crosswise_offset", open }),
  text: actionText,
  parse: parseAction,
};

// Every action the seat to act could try (for an adapter with allows() but no moves()).
function* candidates(adapter) {
  const seat = adapter.seat();
  if (seat === null || seat === undefined) return;
  const ends = adapter.openEnds().length;
  for (const [a, b] of adapter.tiles(seat)) {
    if (!ends) { yield Move.opening(a, b); continue; }
    const halves = a === b ? [a] : [Math.min(a, b), Math.max(a, b)];
    for (let end = 0; end < ends; end++) {
      for (const h of halves) yield Move.inline(a, b, end, h);
      yield Move.across(a, b, end);
      for (const h of halves) yield Move.offset(a, b, end, h);
    }
  }
  yield Move.draw;
  yield Move.pass;
}

// ------------------------------------------------------------------------ rigging a shuffle

// The stack an engine must shuffle into to deal `hands` and leave `boneyard`:
// dealing "blocks" (seat 0's whole hand first) or "rounds" (a tile to each seat in turn),
// taking tiles from the front, or from the end (fromEnd: pop()).
function stackFor(hands, boneyard, { dealing = "blocks", fromEnd = false } = {}) {
  const order = [];
  if (dealing === "blocks") hands.forEach((hand) => order.push(...hand));
  else {
    const most = Math.max(0, ...hands.map((h) => h.length));
    for (let i = 0; i < most; i++) hands.forEach((hand) => { if (i < hand.length) order.push(hand[i]); });
  }
  order.push(...boneyard);
  return fromEnd ? order.reverse() : order;
}

// The choices j a Fisher-Yates shuffle of `initial` makes to end as `wanted`, in the
// order drawn: "backward" (i from n-1 down to 1, j in 0..i) or "forward" (i from 0, j in i..n-1).
function fisherYatesChoices(initial, wanted, direction = "backward") {
  const key = (t) => tileText(t);
  const current = initial.map((t) => t);
  const where = new Map(current.map((t, i) => [key(t), i]));
  if (initial.length !== wanted.length || wanted.some((t) => !where.has(key(t)))) {
    throw new Error("the stack wanted is not an order of the tiles the engine shuffles");
  }
  const choices = [];
  const n = current.length;
  const steps = direction === "backward" ? [...Array(n - 1).keys()].map((k) => n - 1 - k) : [...Array(n - 1).keys()];
  for (const i of steps) {
    const j = where.get(key(wanted[i]));
    choices.push({ j, low: direction === "backward" ? 0 : i, count: direction === "backward" ? i + 1 : n - i });
    [current[i], current[j]] = [current[j], current[i]];
    where.set(key(current[i]), i);
    where.set(key(current[j]), j);
  }
  return choices;
}

// A replacement for Math.random (or a seeded generator) whose next n-1 numbers make a
// shuffle computing j = low + Math.floor(r * count) give `wanted`; then `fallback`'s.
function riggedRandom(initial, wanted, { direction = "backward", fallback = Math.random } = {}) {
  const planned = fisherYatesChoices(initial, wanted, direction);
  return () => {
    const next = planned.shift();
    return next ? (next.j - next.low + 0.5) / next.count : fallback();
  };
}

// ------------------------------------------------------------------------ checking the hooks

// A slip in the adapter is said as one (the runner reports it as the engine failing,
// never as a rule of the game broken).
class KitError extends Error {}
const GUIDE = "docs/adapter-kit.md";
const shown = (value) => { try { return JSON.stringify(value); } catch (e) { return String(value); } };
const END_TEXT = /^\d{1,2}(\/\d{1,2})?( (sum|identical|blank|any|none) (free|match_only|never))?$/;

function missingHooks(a) {
  const missing = ["start", "seat", "play", "openEnds", "tiles", "winner"].filter((name) => typeof a[name] !== "function");
  if (typeof a.moves !== "function" && typeof a.allows !== "function") missing.push("moves (or allows)");
  return missing;
}

function seatOf(value, players, hook = "seat()") {
  if (value === null || value === undefined) return null;
  if (!Number.isInteger(value) || value < 0 || value >= players) {
    throw new KitError(`${hook} gave ${shown(value)}: the seat to act is a number from 0 to ${players - 1}, or null once the hand is over (${GUIDE})`);
  }
  return value;
}

function endOf(value) {
  if (Number.isInteger(value) && value >= 0 && value <= 99) return String(value);
  if (typeof value === "string" && END_TEXT.test(value)) return value;
  throw new KitError(`openEnds() gave the end ${shown(value)}: an end is the number it shows, or as the protocol writes it (${GUIDE})`);
}

function pairOf(value, hook) {
  if (!Array.isArray(value) || value.length !== 2 || !value.every((n) => Number.isInteger(n) && n >= 0)) {
    throw new KitError(`${hook} gave the tile ${shown(value)}: a tile is a pair of numbers, [a, b]`);
  }
  return tileOf(value[0], value[1]);
}

function moveOf(value, hook = "moves()") {
  if (typeof value === "string") {
    const parsed = parseAction(value);
    if (parsed) return parsed;
  } else if (value && typeof value === "object" && ["play", "draw", "pass"].includes(value.kind)) {
    return value;
  }
  throw new KitError(`${hook} gave ${shown(value)}: make each move with Move (Move.inline(2, 5, 1, 5), Move.draw...) or write it in the notation (${GUIDE})`);
}

// ------------------------------------------------------------------------ the protocol

// The tiles of the double-`maxPip` set no hand holds, in canonical order: the boneyard of
// a deal that gives none (spec/protocol.md).
function undealt(hands, maxPip) {
  const dealt = new Set(hands.flat().filter(Boolean).map(tileText));
  const rest = [];
  for (let a = 0; a <= maxPip; a++) for (let b = a; b <= maxPip; b++) if (!dealt.has(`${a}-${b}`)) rest.push([a, b]);
  return rest;
}

class Refusal extends Error {
  constructor(code, message) { super(message); this.code = code; }
}

class Session {
  constructor(adapter) {
    this.a = adapter;
    this.variant = null;
    this.inHand = false;
  }

  declared() {
    const a = this.a;
    const all = Object.assign({}, (a.plays || {})["*"] || {});
    if (typeof a.points !== "function") all.scoring = false;
    if (typeof a.matchWinner !== "function") all.matches = false;
    if (a.reasons !== "engine") all.reasons = false;
    if (a.opensItself) all.opens_itself = true;
    return Object.assign({}, a.plays || {}, { "*": all });
  }

  sides() { return typeof this.a.sides === "function" ? this.a.sides(this.players) : this.players; }

  needHand() {
    if (this.variant === null) throw new Refusal("no_match", "no match yet: start one with new_match");
    if (!this.inHand) throw new Refusal("no_hand", "no hand yet: start one with new_hand");
  }

  seat() { return seatOf(this.a.seat(), this.players); }

  tiles(seat) { return [...this.a.tiles(seat)].map((t) => pairOf(t, `tiles(${seat})`)); }

  result() {
    const a = this.a;
    if (this.seat() !== null) return null;
    const pips = [];
    for (let s = 0; s < this.players; s++) pips.push(this.tiles(s).reduce((n, [x, y]) => n + x + y, 0));
    const termination = typeof a.termination === "function" ? a.termination()
      : pips.some((p, s) => this.tiles(s).length === 0) ? "domino" : "blocked";
    if (!["domino", "blocked", "redeal"].includes(termination)) {
      throw new KitError(`termination() gave ${shown(termination)}: domino, blocked or redeal (${GUIDE})`);
    }
    const points = typeof a.points === "function" ? [...a.points()] : new Array(this.sides()).fill(0);
    let winner = termination === "redeal" ? null : a.winner();
    if (winner === undefined) winner = null;
    if (winner !== null && (!Number.isInteger(winner) || winner < 0 || winner >= this.sides())) {
      throw new KitError(`winner() gave ${shown(winner)}: a side from 0 to ${this.sides() - 1}, or null for a tie (${GUIDE})`);
    }
    return { termination, winner, pips, points };
  }

  closeHand() {
    if (!this.inHand) return;
    const r = this.result();
    this.inHand = false;
    if (!r) return;
    r.points.forEach((p, side) => { if (side < this.scores.length) this.scores[side] += p; });
    if (r.winner !== null && r.winner < this.won.length) this.won[r.winner] += 1;
  }

  hello(req) {
    if (req.protocol !== PROTOCOL) throw new Refusal("unsupported_protocol", `this engine speaks ${PROTOCOL}`);
    const missing = missingHooks(this.a);
    if (missing.length) {
      throw new KitError(`the adapter gives no ${missing.join(", ")}: every adapter gives start, seat, play, openEnds, tiles, winner and moves or allows (${GUIDE})`);
    }
    return { type: "hello", name: this.a.name, version: String(this.a.version), protocol: PROTOCOL,
             variants: this.a.variants === undefined ? null : this.a.variants, plays: this.declared() };
  }

  new_match(req) {
    const v = this.a.variants;
    if (v && !(req.variant in v)) throw new Refusal("unsupported", `${req.variant} is not played here`);
    Object.assign(this, { variant: req.variant, options: req.options, players: req.players, inHand: false, hands: 0 });
    this.scores = new Array(this.sides()).fill(0);
    this.won = new Array(this.sides()).fill(0);
    if (typeof this.a.newGame === "function") this.a.newGame(req.variant, req.options, req.players);
    return { type: "ok" };
  }

  new_hand(req) {
    if (this.variant === null) throw new Refusal("no_match", "no match yet: start one with new_match");
    if (this.inHand) {
      if (this.seat() !== null) throw new Refusal("hand_in_progress", "the current hand is not over");
      this.closeHand();
    }
    if (typeof this.a.matchWinner === "function" && this.a.matchWinner() !== null) throw new Refusal("match_over", "the match has been won");
    const hands = req.deal.hands.map((h) => h.map(parseTile));
    const boneyard = req.deal.boneyard ? req.deal.boneyard.map(parseTile) : undealt(hands, this.a.maxPip ?? 6);
    if (hands.length !== this.players || hands.flat().includes(null) || boneyard.includes(null)) {
      throw new Refusal("bad_deal", "the deal does not fit this match");
    }
    const designated = req.deal.designated;
    if (designated !== undefined && designated !== null && !(designated >= 0 && designated < this.players)) {
      throw new Refusal("bad_deal", `seat ${designated} is not in this match`);
    }
    const table = { variant: this.variant, options: this.options, players: this.players, hands, boneyard,
                    designated: req.deal.designated ?? null, number: this.hands, deal: req.deal };
    const opened = this.a.start(table);
    if (opened === false) throw new Refusal("bad_deal", "the engine refused the deal");
    this.inHand = true;
    this.hands += 1;
    if (!this.a.opensItself) return { type: "ok" };
    if (!opened || opened === true) return { type: "ok", opened: null, opened_by: null };
    const move = moveOf(opened.move, "start()");
    const seat = seatOf(opened.seat, this.players, "start()");
    if (seat === null) throw new KitError(`start() gave no seat with its opening (${GUIDE})`);
    return { type: "ok", opened: actionText(move), opened_by: seat };
  }

  legal() {
    this.needHand();
    const a = this.a;
    if (this.seat() === null) return { type: "legal", actions: [] };
    const given = typeof a.moves === "function" ? a.moves() : [...candidates(a)].filter((m) => a.allows(m));
    if (!given || typeof given[Symbol.iterator] !== "function" || typeof given === "string") {
      throw new KitError(`moves() gave ${shown(given)}: it gives the legal moves, an array (${GUIDE})`);
    }
    return { type: "legal", actions: [...new Set([...given].map((m) => actionText(moveOf(m))))] };
  }

  apply(req) {
    this.needHand();
    if (req.player !== null && (req.player < 0 || req.player >= this.players)) {
      throw new Refusal("no_such_seat", `seat ${req.player} is not in this match`);
    }
    const move = parseAction(req.action);
    if (!move) throw new Refusal("bad_notation", `${JSON.stringify(req.action)} is not an action`);
    const seat = this.seat();
    if (seat === null) return { type: "refused", reason: "hand_over" };
    if (req.player !== null && req.player !== seat) return { type: "refused", reason: "not_your_turn" };
    const done = this.a.play(move, seat);
    // true, undefined or null: done; false or a reason: refused; a move: what was done instead
    if (done === false || typeof done === "string") {
      return { type: "refused", reason: typeof done === "string" && this.a.reasons === "engine" ? done : "refused" };
    }
    if (done !== true && done !== undefined && done !== null) {
      const laid = moveOf(done, "play()");
      if (actionText(laid) !== actionText(move)) return { type: "applied", laid: actionText(laid) };
    }
    return { type: "applied" };
  }

  match() {
    if (this.variant === null) throw new Refusal("no_match", "no match yet: start one with new_match");
    if (this.inHand && this.seat() === null) this.closeHand();
    const winner = typeof this.a.matchWinner === "function" ? this.a.matchWinner() : null;
    return { type: "match", scores: this.scores, hands_won: this.won, winner };
  }

  answer(req) {
    switch (req.type) {
      case "hello": return this.hello(req);
      case "new_match": return this.new_match(req);
      case "new_hand": return this.new_hand(req);
      case "legal": return this.legal();
      case "ends": this.needHand(); return { type: "ends", ends: [...this.a.openEnds()].map(endOf) };
      case "to_act": this.needHand(); return { type: "to_act", seat: this.seat() };
      case "apply": return this.apply(req);
      case "result": this.needHand(); return { type: "result", result: this.result() };
      case "match": return this.match();
      case "held": {
        this.needHand();
        if (!Number.isInteger(req.seat) || req.seat < 0 || req.seat >= this.players) throw new Refusal("no_such_seat", `seat ${req.seat} is not in this match`);
        return { type: "held", tiles: this.tiles(req.seat).map(tileText) };
      }
      default: throw new Refusal("unknown_request", `unknown type ${JSON.stringify(req.type)}`);
    }
  }
}

// Answer the protocol on standard input and output with `adapter` (an object, or a
// function that makes one).
function serve(adapter) {
  const session = new Session(typeof adapter === "function" ? adapter() : adapter);
  const out = (reply) => process.stdout.write(JSON.stringify(reply) + "\n");
  const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  input.on("line", (line) => {
    if (!line.trim()) return;
    if (line.length > MAX_LINE) return out({ id: null, type: "error", code: "line_too_long", message: "line too long" });
    let req;
    try { req = JSON.parse(line); } catch (e) {
      return out({ id: null, type: "error", code: "bad_request", message: "not JSON" });
    }
    if (req === null || typeof req !== "object" || Array.isArray(req) || !Number.isInteger(req.id) || req.id < 0) {
      return out({ id: null, type: "error", code: "bad_request", message: "a request is an object with an integer id" });
    }
    if (req.type === "quit") { out({ id: req.id, type: "bye" }); input.close(); return; }
    try {
      out(Object.assign({ id: req.id }, session.answer(req)));
    } catch (e) {
      const code = e instanceof Refusal ? e.code : "internal_error";
      if (!(e instanceof Refusal)) process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
      out({ id: req.id, type: "error", code, message: String(e && e.message ? e.message : e) });
    }
  });
  input.on("close", () => process.exit(0));
}

module.exports = { Move, serve, candidates, stackFor, fisherYatesChoices, riggedRandom, parseTile, tileText, Refusal, KitError };
