#!/usr/bin/env node
// A small Matador engine in plain Node.js, with no dependencies, that speaks the
// conformance protocol (spec/protocol.md) for ONE variant: gamerules-com with its
// default options. It exists to show a third party how to hook an engine up to
// `matador conform --engine "node conformance/examples/matador-engine.js"`.
//
// The rules it implements (spec/SPEC.md): double-six set, touching halves sum to 7;
// 7/6/5 tiles for 2/3/4 players; the holder of the highest double opens with it
// (nobody holds one: the hand is dealt again); a matador ([0-0], [1-6], [2-5],
// [3-4]) goes on any end, in line, its player choosing the open half; a player with
// no play draws until one comes, and passes only when the boneyard is empty; the
// hand ends on a domino or when every player has passed in a row; the lowest total
// scores the others' pips less its own; a tie for lowest scores nothing.
//
// Run with --deviate, it plays three rules the way no source gives them, to show
// what the conformance report says about an engine that breaks several rules at
// once: the LOWEST double opens (SPEC 6.3, opener); a matador always leaves its
// higher half open, the player has no choice (SPEC 7.3, matador modes); and the
// winner of a blocked hand scores the others' pips without taking off its own
// (SPEC 10.2, points).
"use strict";

const readline = require("readline");

const DEVIATE = process.argv.includes("--deviate");

const PROTOCOL = "matador-engine/1";
const SUM = 7;
const HAND_SIZE = { 2: 7, 3: 6, 4: 5 };

const tileText = ([a, b]) => `${a}-${b}`;
const parseTile = (text) => {
  const m = /^\[?(\d{1,2})[-|](\d{1,2})\]?$/.exec(text);
  if (!m) return null;
  const a = Number(m[1]), b = Number(m[2]);
  return a <= b ? [a, b] : [b, a];
};
const sameTile = (x, y) => x[0] === y[0] && x[1] === y[1];
const isMatador = ([a, b]) => (a === 0 && b === 0) || a + b === SUM;
const pips = (hand) => hand.reduce((sum, [a, b]) => sum + a + b, 0);
const byTile = (x, y) => x[0] - y[0] || x[1] - y[1];

function fullSet() {
  const tiles = [];
  for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) tiles.push([a, b]);
  return tiles;
}

// Parse "2-5@R:5", "6-6", "draw", "pass" into {kind, tile, end, open}.
function parseAction(text) {
  const t = String(text).trim();
  if (/^draw$/i.test(t)) return { kind: "draw" };
  if (/^(pass|knock)$/i.test(t)) return { kind: "pass" };
  const m = /^(\[?\d{1,2}[-|]\d{1,2}\]?)(?:@(L|R|E\d{1,2}):(\d{1,2}))?$/.exec(t);
  if (!m) return null; // this engine knows no crosswise plays
  const tile = parseTile(m[1]);
  if (!m[2]) return { kind: "play", tile, end: null, open: null };
  // L and R are ends 0 and 1; E2, E3... are ends this engine's line never has
  const end = m[2] === "L" ? 0 : m[2] === "R" ? 1 : Number(m[2].slice(1));
  return { kind: "play", tile, end, open: Number(m[3]) };
}

const actionText = (a) =>
  a.kind !== "play" ? a.kind : a.end === null ? tileText(a.tile) : `${tileText(a.tile)}@${"LR"[a.end]}:${a.open}`;

class Game {
  newMatch(players) {
    this.players = players;
    this.scores = new Array(players).fill(0);
    this.handsWon = new Array(players).fill(0);
    this.hand = null;
  }

  newHand(deal) {
    if (this.hand && !this.hand.result) throw { code: "hand_in_progress", message: "the current hand is not over" };
    if (this.hand && this.hand.result && !this.hand.counted) this.count();
    if (this.scores.some((s) => s >= 100)) throw { code: "match_over", message: "the match has a winner" };
    const hands = deal.hands.map((h) => h.map(parseTile));
    const dealt = hands.flat();
    if (hands.length !== this.players || hands.some((h) => h.length !== HAND_SIZE[this.players]) || dealt.some((t) => !t || t[1] > 6)) {
      throw { code: "bad_deal", message: "wrong hand sizes, or a tile not in the double-six set" };
    }
    const boneyard = deal.boneyard
      ? deal.boneyard.map(parseTile)
      : fullSet().filter((t) => !dealt.some((d) => sameTile(d, t)));
    // The hands and the boneyard together must be the set, each tile once.
    const all = [...dealt, ...boneyard];
    const seen = new Set(all.map((t) => (t ? tileText(t) : "?")));
    if (all.length !== 28 || seen.size !== 28 || seen.has("?") || all.some((t) => t[1] > 6)) {
      throw { code: "bad_deal", message: "the hands and the boneyard are not the double-six set" };
    }
    const designated = deal.designated;
    if (designated !== undefined && designated !== null && !(designated >= 0 && designated < this.players)) {
      throw { code: "bad_deal", message: `seat ${designated} is not a seat of this match` };
    }
    this.hand = { hands, boneyard, ends: [], current: 0, passes: 0, result: null, opening: null, counted: false };
    // The holder of the highest double opens with it (--deviate: the lowest).
    const doubles = DEVIATE ? [0, 1, 2, 3, 4, 5, 6] : [6, 5, 4, 3, 2, 1, 0];
    for (const d of doubles) {
      const seat = hands.findIndex((h) => h.some((t) => t[0] === d && t[1] === d));
      if (seat >= 0) {
        this.hand.current = seat;
        this.hand.opening = [d, d];
        return;
      }
    }
    this.finish("redeal", null);
  }

  // Every placement of the seat to act: each tile on each end, each open value.
  placements() {
    const h = this.hand;
    const out = [];
    for (const tile of [...h.hands[h.current]].sort(byTile)) {
      for (let end = 0; end < 2; end++) {
        const value = h.ends[end];
        const opens = new Set();
        if (isMatador(tile)) {
          if (!DEVIATE) opens.add(tile[0]);
          opens.add(tile[1]); // any end, the player chooses the open half (--deviate: the higher)
        } else {
          if (tile[0] + value === SUM) opens.add(tile[1]);
          if (tile[1] + value === SUM) opens.add(tile[0]);
        }
        for (const open of [...opens].sort((x, y) => x - y)) out.push({ kind: "play", tile, end, open });
      }
    }
    return out;
  }

  legal() {
    const h = this.hand;
    if (!h || h.result) return [];
    if (!h.ends.length) return [{ kind: "play", tile: h.opening, end: null, open: null }];
    const plays = this.placements();
    if (plays.length) return plays;
    return [{ kind: h.boneyard.length > 0 ? "draw" : "pass" }];
  }

  // Apply an action, or return the reason code it is refused with.
  apply(text, player) {
    const h = this.hand;
    if (player !== null && player !== undefined && !(player >= 0 && player < this.players)) {
      throw { code: "no_such_seat", message: `seat ${player} is not a seat of this match` };
    }
    const action = parseAction(text);
    if (!action && !/^(\[?\d{1,2}[-|]\d{1,2}\]?)(@(L|R|E\d{1,2})(:\d{1,2}|x|\^\d{1,2}))?$/.test(String(text).trim())) {
      throw { code: "bad_notation", message: `${JSON.stringify(text)} is not an action` };
    }
    if (!h || h.result) return "hand_over";
    if (player !== null && player !== undefined && player !== h.current) return "not_your_turn";
    if (!action) return "placement_not_allowed";
    const legal = this.legal();
    const same = (a) => a.kind === action.kind && (a.kind !== "play" || (sameTile(a.tile, action.tile) && a.end === action.end && a.open === action.open));
    if (!legal.some(same)) return this.whyNot(action, legal);
    const hand = h.hands[h.current];
    if (action.kind === "draw") {
      hand.push(h.boneyard.shift());
      h.passes = 0;
      return null;
    }
    if (action.kind === "pass") {
      h.passes += 1;
      if (h.passes >= this.players) this.finish("blocked", null);
      else h.current = (h.current + 1) % this.players;
      return null;
    }
    hand.splice(hand.findIndex((t) => sameTile(t, action.tile)), 1);
    if (action.end === null) h.ends = [action.tile[0], action.tile[1]];
    else h.ends[action.end] = action.open;
    h.passes = 0;
    if (hand.length === 0) this.finish("domino", h.current);
    else h.current = (h.current + 1) % this.players;
    return null;
  }

  whyNot(action, legal) {
    const h = this.hand;
    const hand = h.hands[h.current];
    const plays = legal.filter((a) => a.kind === "play");
    if (action.kind === "play") {
      if (!h.ends.length && action.end !== null) return "no_such_end";
      if (h.ends.length && (action.end === null || action.end >= h.ends.length)) return "no_such_end";
      if (!hand.some((t) => sameTile(t, action.tile))) return "tile_not_in_hand";
      if (!h.ends.length) return "wrong_opening";
      const onEnd = plays.filter((a) => sameTile(a.tile, action.tile) && a.end === action.end);
      return onEnd.length ? "placement_not_allowed" : "does_not_match_end";
    }
    if (action.kind === "draw") {
      if (!h.ends.length) return "draw_not_allowed";
      if (h.boneyard.length === 0) return "reserve_reached";
      return "draw_not_allowed";
    }
    if (!h.ends.length) return "pass_not_allowed";
    if (h.boneyard.length > 0) return plays.length ? "pass_not_allowed" : "must_draw";
    return plays.every((a) => isMatador(a.tile)) ? "must_play_matador" : "must_play";
  }

  finish(termination, wentOut) {
    const h = this.hand;
    const left = h.hands.map(pips);
    let winner = null;
    if (termination === "domino") winner = wentOut;
    else if (termination === "blocked") {
      const low = Math.min(...left);
      const lowest = left.map((p, seat) => (p === low ? seat : -1)).filter((s) => s >= 0);
      winner = lowest.length === 1 ? lowest[0] : null;
    }
    const points = new Array(this.players).fill(0);
    if (winner !== null) {
      const others = left.reduce((sum, p, seat) => (seat === winner ? sum : sum + p), 0);
      const own = DEVIATE && termination === "blocked" ? 0 : left[winner];
      points[winner] = Math.max(0, others - own);
    }
    h.result = { termination, winner, pips: left, points };
  }

  count() {
    const r = this.hand.result;
    r.points.forEach((p, seat) => (this.scores[seat] += p));
    if (r.winner !== null) this.handsWon[r.winner] += 1;
    this.hand.counted = true;
  }

  matchState() {
    if (this.hand && this.hand.result && !this.hand.counted) this.count();
    const winner = this.scores.findIndex((s) => s >= 100);
    return { scores: this.scores, hands_won: this.handsWon, winner: winner >= 0 ? winner : null };
  }
}

const game = new Game();

function answer(request) {
  switch (request.type) {
    case "hello":
      return {
        type: "hello",
        name: "node example engine",
        version: "1.0",
        protocol: PROTOCOL,
        variants: { "gamerules-com": { draw: ["until_playable"], difference: ["total_minus_own"] } },
      };
    case "new_match": {
      const options = request.options || {};
      const defaults = { draw: "until_playable", difference: "total_minus_own" };
      const odd = Object.keys(options).some((k) => defaults[k] !== options[k]);
      if (request.variant !== "gamerules-com" || odd || !HAND_SIZE[request.players]) {
        return { type: "error", code: "unsupported", message: "only gamerules-com with default options" };
      }
      game.newMatch(request.players);
      return { type: "ok" };
    }
    case "new_hand":
      game.newHand(request.deal);
      return { type: "ok" };
    case "legal":
      return { type: "legal", actions: game.legal().map(actionText) };
    case "ends":
      return { type: "ends", ends: game.hand.ends.map(String) };
    case "to_act":
      return { type: "to_act", seat: game.hand.result ? null : game.hand.current };
    case "apply": {
      const reason = game.apply(request.action, request.player);
      return reason ? { type: "refused", reason } : { type: "applied" };
    }
    case "result":
      return { type: "result", result: game.hand.result };
    case "match":
      return { type: "match", ...game.matchState() };
    case "quit":
      return { type: "bye" };
    default:
      return { type: "error", code: "unknown_request", message: `unknown type ${JSON.stringify(request.type)}` };
  }
}

const lines = readline.createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (!line.trim()) return;
  let request;
  try {
    request = JSON.parse(line);
  } catch (error) {
    process.stdout.write(JSON.stringify({ id: null, type: "error", code: "bad_request", message: "not JSON" }) + "\n");
    return;
  }
  let reply;
  try {
    reply = answer(request);
  } catch (error) {
    reply = error && error.code ? { type: "error", code: error.code, message: error.message } : { type: "error", code: "internal", message: String(error) };
  }
  process.stdout.write(JSON.stringify({ id: request.id, ...reply }) + "\n");
  if (request.type === "quit") process.exit(0);
});
