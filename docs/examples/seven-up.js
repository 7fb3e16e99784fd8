// seven-up.js: a Matador ("Seven-Up") engine as hobbyists write one, in plain Node.js.
//
// It knows nothing of the conformance protocol: it is a handful of functions over a
// plain game object. It deals itself, shuffling the double-six set with its own
// seeded generator and dealing one tile at a time round the table, and it lays the
// opening tile itself as it deals. It keeps a score and plays a match to 100.
// docs/examples/seven-up-adapter.js hooks it up to the suite with the adapter kit.
//
// The rules it means to play are gamerules.com's (variant gamerules-com): 7, 6 or 5
// tiles for 2, 3 or 4 players; the holder of the highest double opens with it; a
// tile goes on an end when its halves make seven with it; the matadors ([0-0], [1-6],
// [2-5], [3-4]) go on any end, the player choosing the half left open; a player who
// cannot play draws until a tile fits, and passes only when the boneyard is empty;
// the hand ends when a player is out or every player has passed in a row, and the
// lowest total scores the others' pips less its own.
//
// It breaks three of them, as the conformance report should find (and nothing else):
//   1. nobody_has_double: when no hand holds a double, the hand is not dealt again;
//      the holder of the heaviest tile opens with it.
//   2. tie: a blocked hand tied for the lowest total goes to the first of the tied
//      seats, which scores as a winner does.
//   3. points: the winner of a blocked hand scores the others' pips without taking
//      off its own.
"use strict";

const SEVEN = 7;
const HAND_SIZE = { 2: 7, 3: 6, 4: 5 };
const TARGET = 100;

// A small seeded generator (mulberry32): floats in [0, 1).
function seeded(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function boneyardInOrder() {
  const tiles = [];
  for (let a = 0; a <= 6; a++) for (let b = a; b <= 6; b++) tiles.push([a, b]);
  return tiles;
}

const isMatador = ([a, b]) => (a === 0 && b === 0) || a + b === SEVEN;
const count = (tiles) => tiles.reduce((n, [a, b]) => n + a + b, 0);
const same = (x, y) => x[0] === y[0] && x[1] === y[1];

function newGame(players, seed = 1) {
  return { players, random: seeded(seed), totals: new Array(players).fill(0), hands: [], stock: [],
           left: null, right: null, turn: 0, passes: 0, over: false, winner: null, points: null, opening: null };
}

// Shuffle (Fisher-Yates, from the back) and deal a tile at a time; the opener lays
// the opening tile at once.
function dealHand(game) {
  const stack = boneyardInOrder();
  for (let i = stack.length - 1; i > 0; i--) {
    const j = Math.floor(game.random() * (i + 1));
    [stack[i], stack[j]] = [stack[j], stack[i]];
  }
  game.hands = Array.from({ length: game.players }, () => []);
  for (let k = 0; k < HAND_SIZE[game.players]; k++) {
    for (let p = 0; p < game.players; p++) game.hands[p].push(stack.shift());
  }
  game.stock = stack;
  Object.assign(game, { left: null, right: null, passes: 0, over: false, winner: null, points: null });
  let best = null;
  game.hands.forEach((hand, seat) => hand.forEach((tile) => {
    if (tile[0] === tile[1] && (!best || tile[0] > best.tile[0])) best = { tile, seat };
  }));
  if (!best) {
    // no double: the heaviest tile opens
    game.hands.forEach((hand, seat) => hand.forEach((tile) => {
      const weight = (t) => (t[0] + t[1]) * 10 + Math.max(t[0], t[1]);
      if (!best || weight(tile) > weight(best.tile)) best = { tile, seat };
    }));
  }
  const hand = game.hands[best.seat];
  hand.splice(hand.findIndex((t) => same(t, best.tile)), 1);
  [game.left, game.right] = best.tile;
  game.opening = best;
  game.turn = (best.seat + 1) % game.players;
  return game;
}

// The moves of the player to act: {type: "play", tile, side, outer}, "draw", "knock".
function legalMoves(game) {
  if (game.over) return [];
  const moves = [];
  for (const tile of game.hands[game.turn]) {
    for (const side of ["left", "right"]) {
      const end = game[side];
      for (const outer of tile[0] === tile[1] ? [tile[0]] : tile) {
        const inner = tile[0] + tile[1] - outer;
        if (isMatador(tile) || inner + end === SEVEN) moves.push({ type: "play", tile, side, outer });
      }
    }
  }
  if (moves.length === 0) moves.push(game.stock.length ? { type: "draw" } : { type: "knock" });
  return moves;
}

function finish(game, winner) {
  const left = game.hands.map(count);
  game.over = true;
  game.winner = winner;
  game.points = new Array(game.players).fill(0);
  if (winner !== null) {
    game.points[winner] = left.reduce((a, b) => a + b, 0) - left[winner];
    game.totals[winner] += game.points[winner];
  }
}

function makeMove(game, move) {
  const allowed = legalMoves(game).find((m) => m.type === move.type &&
    (m.type !== "play" || (same(m.tile, move.tile) && m.side === move.side && m.outer === move.outer)));
  if (!allowed) return false;
  const hand = game.hands[game.turn];
  if (move.type === "draw") {
    hand.push(game.stock.shift());
    game.passes = 0;
    return true;
  }
  if (move.type === "knock") {
    game.passes += 1;
    if (game.passes === game.players) {
      const left = game.hands.map(count);
      finish(game, left.indexOf(Math.min(...left)));
    } else game.turn = (game.turn + 1) % game.players;
    return true;
  }
  hand.splice(hand.findIndex((t) => same(t, move.tile)), 1);
  game[move.side] = move.outer;
  game.passes = 0;
  if (hand.length === 0) finish(game, game.turn);
  else game.turn = (game.turn + 1) % game.players;
  return true;
}

const matchWinner = (game) => {
  const best = game.totals.findIndex((t) => t >= TARGET);
  return best < 0 ? null : best;
};

module.exports = { newGame, dealHand, legalMoves, makeMove, matchWinner, boneyardInOrder, HAND_SIZE };
