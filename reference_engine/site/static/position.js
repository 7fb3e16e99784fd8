/* A position in the notation (spec/notation.md, "Positions"), read for the explain page: the
 * same sections, the same checks as the engine's reader (engine/state.py, parse_position), so
 * that a position pasted here and given to `matador explain --position` are the same position.
 * tests/test_position_js.py runs both readers over the same texts. */
(function (root) {
  "use strict";

  var NUMBER = "[0-9]{1,2}";
  var TILE = new RegExp("^(?:(" + NUMBER + ")-(" + NUMBER + ")|\\[(" + NUMBER + ")[-|](" + NUMBER + ")\\])$");
  var SECTION = new RegExp("^\\s*(ends|seat\\s+(" + NUMBER + ")|boneyard|to\\s+act|passes|drawn|opener)\\s*:\\s*([\\s\\S]*?)\\s*$", "i");
  var OPEN_END = new RegExp("^" + NUMBER + "(?:/" + NUMBER + ")*(?:\\s+(?:sum|identical|blank|any|none)\\s+(?:free|match_only|never))?$");

  function tile(text) {
    var found = TILE.exec(text);
    if (!found) { throw new Error(JSON.stringify(text) + " is not a tile in the notation"); }
    var a = Number(found[1] !== undefined ? found[1] : found[3]);
    var b = Number(found[2] !== undefined ? found[2] : found[4]);
    return Math.min(a, b) + "-" + Math.max(a, b);
  }

  function tiles(body) {
    return body.split(/\s+/).filter(function (w) { return w !== ""; }).map(tile);
  }

  function number(text, what) {
    var t = text.trim();
    if (!/^[0-9]{1,3}$/.test(t)) { throw new Error(what + " is a number, not " + JSON.stringify(t)); }
    return Number(t);
  }

  /* {players, hands: [[tile, ...], ...], ends: [{text, value, plain}], boneyard: [tile],
   * toAct, passes, drawn, opener}; an Error says what is wrong. */
  function parse(text) {
    var found = {}, hands = {};
    text.split(";").forEach(function (part) {
      if (!part.trim()) { return; }
      var section = SECTION.exec(part);
      if (!section) { throw new Error(JSON.stringify(part.trim()) + " is no section of a position"); }
      var key = section[1].toLowerCase().split(/\s+/).join(" ");
      if (section[2] !== undefined) {
        var seat = Number(section[2]);
        if (hands.hasOwnProperty(seat)) { throw new Error("seat " + seat + " is given twice"); }
        hands[seat] = tiles(section[3]).sort(function (x, y) {
          var p = x.split("-").map(Number), q = y.split("-").map(Number);
          return p[0] - q[0] || p[1] - q[1];
        });
        return;
      }
      if (found.hasOwnProperty(key)) { throw new Error(JSON.stringify(key) + " is given twice"); }
      found[key] = section[3];
    });
    ["ends", "to act"].forEach(function (needed) {
      if (!found.hasOwnProperty(needed)) { throw new Error("a position needs " + JSON.stringify(needed)); }
    });
    var seats = Object.keys(hands).map(Number).sort(function (a, b) { return a - b; });
    if (seats.length < 2 || seats.length > 4 || seats.some(function (s, i) { return s !== i; })) {
      throw new Error("a position gives every seat once, from seat 0: two to four seats");
    }
    var ends = found.ends.split(",").map(function (t) {
      var e = t.trim();
      if (!OPEN_END.test(e)) { throw new Error(JSON.stringify(e) + " is not an open end in the notation"); }
      var values = e.split(/\s+/)[0].split("/").map(Number);
      return { text: e, value: Math.max.apply(null, values), plain: /^[0-9]+$/.test(e) };
    });
    if (ends.length < 2) { throw new Error("a position is after the opening: it has two ends or more"); }
    var boneyard = tiles(found.boneyard || "");
    var all = [].concat.apply([], seats.map(function (s) { return hands[s]; })).concat(boneyard);
    if (all.some(function (t, i) { return all.indexOf(t) !== i; })) {
      throw new Error("a tile is held twice, or held and in the boneyard");
    }
    function seatOf(text, what) {
      var s = number(text, what);
      if (s >= seats.length) {
        throw new Error(what + " is seat " + s + ", and the seats are 0 to " + (seats.length - 1));
      }
      return s;
    }
    var toAct = seatOf(found["to act"], "the seat to act");
    var drawn = found.hasOwnProperty("drawn") ? tiles(found.drawn) : [];
    if (drawn.length > 1 || (drawn.length && hands[toAct].indexOf(drawn[0]) < 0)) {
      throw new Error("the tile drawn is one tile, in the hand of the seat to act");
    }
    return {
      players: seats.length,
      hands: seats.map(function (s) { return hands[s]; }),
      ends: ends,
      boneyard: boneyard,
      toAct: toAct,
      passes: number(found.passes || "0", "passes"),
      drawn: drawn.length ? drawn[0] : null,
      opener: found.hasOwnProperty("opener") ? seatOf(found.opener, "the opener") : null
    };
  }

  var api = { parse: parse };
  if (typeof module !== "undefined" && module.exports) { module.exports = api; }
  else { root.MatadorPosition = api; }
}(this));
