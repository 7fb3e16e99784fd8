/* The explain page: a small interpreter of the data the engine exports in
 * explain-data.js (site/explaindata.py): the compiled tables of placements with the
 * engine's refusal of each tile that has none, and the turn's rulings (engine/turn.py)
 * for every turn the page can show. It works out the facts of a position and looks
 * the answer up; it decides nothing itself, and names no rule.
 * Nothing here names a variant: the variants, their options and every table
 * come from the data. `MatadorExplain.answer` is the pure part (the site's tests
 * compare it with `matador explain`); the rest draws the form and the answer. */
(function () {
  "use strict";

  var DATA = window.MATADOR_EXPLAIN;
  var END_NAMES = ["L", "R"];

  function profileFor(variant, chosen) {
    var key = variant.options.map(function (o) { return o.name + "=" + chosen[o.name]; }).join(",");
    return DATA.profiles[variant.profiles[key]];
  }

  function refusal(profile, reason, rule) {
    return {
      reason: reason,
      rule: rule,
      when: DATA.reasons[reason] || "",
      cite: (profile.cite[rule] || []).map(function (i) { return DATA.citations[i]; })
    };
  }

  /* The answer of the engine for one situation:
   * {players, hand: ["3-4", ...], ends: [l, r], boneyard, drawn: "3-4" | null}. */
  function answer(profile, situation) {
    var table = DATA.tables[profile.table];
    var index = {};
    table.tiles.forEach(function (t, i) { index[t] = i; });
    if (profile.players.indexOf(situation.players) < 0) {
      return { possible: false, whyNot: "not played by " + situation.players };
    }
    if (!situation.hand.length) {
      return { possible: false, whyNot: "the hand is empty: choose at least one tile" };
    }
    var held = situation.hand.map(function (t) { return index[t]; });
    if (held.some(function (i) { return i === undefined; }) ||
        Math.max(situation.ends[0], situation.ends[1]) > table.max_pip) {
      return { possible: false, whyNot: "the double-" + table.max_pip + " set has no such tile or value" };
    }
    held.sort(function (a, b) { return a - b; });
    var unseen = table.tiles.length - held.length;
    if (situation.boneyard + situation.players - 1 > unseen) {
      return { possible: false, whyNot: "the double-" + table.max_pip + " set has too few tiles for that boneyard" };
    }
    var drawn = situation.drawn ? index[situation.drawn] : null;
    if (drawn !== null && held.indexOf(drawn) < 0) {
      return { possible: false, whyNot: "the drawn tile " + situation.drawn + " is not in the hand" };
    }
    function ways(end, i) { return table.moves[end][situation.ends[end]][i]; }
    function placements(tiles) {
      var out = [];
      tiles.forEach(function (i) { out = out.concat(ways(0, i), ways(1, i)); });
      return out;
    }
    var playable = held.filter(function (i) { return ways(0, i).length || ways(1, i).length; });
    var isMatador = function (i) { return table.matadors.indexOf(i) >= 0; };
    /* The facts of the turn, as the engine's Hand.turn_facts gives them, and the turn's
     * rulings for them (null: allowed), looked up in the data. */
    var single = drawn !== null && profile.single_draw;
    var facts = [
      single,
      single && playable.indexOf(drawn) >= 0,
      playable.length > 0,
      playable.length > 0 && playable.every(isMatador),
      profile.draws && situation.boneyard - profile.kept[String(situation.players)] > 0
    ];
    var turn = profile.turn[facts.reduce(function (n, fact) { return 2 * n + (fact ? 1 : 0); }, 0)];
    var onlyDrawn = single && profile.after_draw !== null;
    var legal = placements(onlyDrawn ? playable.filter(function (i) { return i === drawn; }) : playable);
    if (!turn[0]) { legal = legal.concat(["draw"]); }
    else if (!turn[1]) { legal = legal.concat(["pass"]); }
    var tiles = held.map(function (i) {
      return {
        tile: table.tiles[i],
        matador: isMatador(i),
        ends: [0, 1].map(function (end) {
          var allowed = ways(end, i).filter(function (w) { return legal.indexOf(w) >= 0; });
          if (allowed.length) { return { end: END_NAMES[end], ways: allowed }; }
          /* the engine's own refusal: of another tile than the one drawn, or on this end */
          var given = onlyDrawn && i !== drawn ? profile.after_draw : table.refused[situation.ends[end]][i];
          return { end: END_NAMES[end], ways: [], refused: refusal(profile, given[0], given[1]) };
        })
      };
    });
    var draw = turn[0] && refusal(profile, turn[0][0], turn[0][1]);
    var pass = turn[1] && refusal(profile, turn[1][0], turn[1][1]);
    return { possible: true, legal: legal, tiles: tiles, draw: draw, pass: pass };
  }

  window.MatadorExplain = { answer: answer, profileFor: profileFor, data: DATA };

  /* ------------------------------------------------------------------ the form */

  var form = document.getElementById("explain-form");
  if (!form || !DATA) { return; }
  var $ = function (id) { return document.getElementById(id); };

  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, attrs[k]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function currentVariant() {
    var id = $("variant").value;
    return DATA.variants.filter(function (v) { return v.id === id; })[0];
  }

  function chosenOptions(variant) {
    var chosen = {};
    variant.options.forEach(function (o) { chosen[o.name] = $("option-" + o.name).value; });
    return chosen;
  }

  function fillSelect(select, values, keep) {
    var old = select.value;
    select.textContent = "";
    values.forEach(function (v) { select.appendChild(el("option", { value: String(v[0]) }, v[1])); });
    if (keep && values.some(function (v) { return String(v[0]) === old; })) { select.value = old; }
  }

  function drawOptions() {
    var variant = currentVariant();
    var box = $("options");
    box.textContent = "";
    variant.options.forEach(function (o) {
      var field = el("div", { "class": "field" });
      field.appendChild(el("label", { "for": "option-" + o.name }, "Option " + o.name));
      var select = el("select", { id: "option-" + o.name, name: o.name, "aria-describedby": "about-" + o.name });
      o.values.forEach(function (v) {
        var opt = el("option", { value: v.name }, v.name + (v.name === o.default ? " (default)" : ""));
        select.appendChild(opt);
      });
      select.value = o.default;
      select.addEventListener("change", drawProfile);
      field.appendChild(select);
      field.appendChild(el("p", { id: "about-" + o.name, "class": "small" }, o.summary));
      box.appendChild(field);
    });
    if (!variant.options.length) {
      box.appendChild(el("p", { "class": "small" }, "No option of this variant changes what is legal here."));
    }
  }

  function drawProfile() {
    var profile = profileFor(currentVariant(), chosenOptions(currentVariant()));
    var table = DATA.tables[profile.table];
    fillSelect($("players"), profile.players.map(function (n) { return [n, String(n)]; }), true);
    var values = [];
    for (var v = 0; v <= table.max_pip; v++) { values.push([v, String(v)]); }
    fillSelect($("end-left"), values, true);
    fillSelect($("end-right"), values, true);
    $("boneyard").max = String(table.tiles.length - 1);
    $("boneyard-help").textContent = "a whole number from 0 to " + (table.tiles.length - 1) +
      " (the double-" + table.max_pip + " set has " + table.tiles.length + " tiles)";
    var held = {};
    Array.prototype.forEach.call(document.querySelectorAll("#hand-tiles input:checked"), function (box) {
      held[box.value] = true;
    });
    var picker = $("hand-tiles");
    picker.textContent = "";
    table.tiles.forEach(function (t, i) {
      var id = "tile-" + t;
      var label = el("label", { "for": id, "class": table.matadors.indexOf(i) >= 0 ? "pick matador" : "pick" });
      var box = el("input", { type: "checkbox", id: id, value: t });
      box.checked = !!held[t];
      box.addEventListener("change", drawDrawn);
      label.appendChild(box);
      var picture = el("span", { "class": "picture", "aria-hidden": "true" });
      picture.innerHTML = DATA.tile_svgs[t];
      label.appendChild(picture);
      label.appendChild(el("span", { "class": "name" }, t + (table.matadors.indexOf(i) >= 0 ? " (matador)" : "")));
      picker.appendChild(label);
    });
    drawDrawn();
  }

  function handTiles() {
    return Array.prototype.map.call(document.querySelectorAll("#hand-tiles input:checked"), function (b) {
      return b.value;
    });
  }

  function drawDrawn() {
    fillSelect($("drawn"), [["", "none"]].concat(handTiles().map(function (t) { return [t, t]; })), true);
  }

  function refusalNode(why) {
    var box = el("div", { "class": "refused" });
    var line = el("p");
    line.appendChild(el("strong", {}, "refused: "));
    line.appendChild(el("code", {}, why.reason));
    line.appendChild(document.createTextNode(" by the rule "));
    line.appendChild(el("code", {}, why.rule));
    box.appendChild(line);
    if (why.when) { box.appendChild(el("p", { "class": "small" }, "This code is given for " + why.when + ".")); }
    if (why.cite.length) {
      var list = el("ul", { "class": "cites" });
      why.cite.forEach(function (c) {
        var item = el("li");
        item.appendChild(el("cite", {}, c.publication));
        item.appendChild(document.createTextNode(" (text " + c.text + ", " + c.section + "): " + c.says));
        list.appendChild(item);
      });
      box.appendChild(list);
    }
    return box;
  }

  /* A whole number typed in `field`, from 0 to `most`; otherwise what is wrong with it. Never a
   * different number than the one typed: the page answers for the position given or for none. */
  function wholeNumber(field, name, most) {
    var text = field.value.trim();
    field.removeAttribute("aria-invalid");
    var problem = null;
    if (field.validity && field.validity.badInput) { problem = name + " must be a whole number"; }
    else if (text === "") { problem = name + " is empty: give a whole number from 0 to " + most; }
    else if (!/^[0-9]+$/.test(text)) {
      problem = name + " is " + text + ": give a whole number from 0 to " + most;
    } else if (Number(text) > most) {
      problem = name + " is " + text + ", more than the " + most + " the set allows";
    }
    if (problem) { field.setAttribute("aria-invalid", "true"); }
    return { value: problem ? null : Number(text), problem: problem };
  }

  function refuse(problems) {
    var body = $("answer-body");
    body.textContent = "";
    var box = el("div", { id: "verdict", "class": "impossible", role: "alert" });
    box.appendChild(el("p", {}, "Not answered: the position is not valid."));
    var list = el("ul", { id: "problems" });
    problems.forEach(function (p) { list.appendChild(el("li", {}, p + ".")); });
    box.appendChild(list);
    body.appendChild(box);
  }

  function explain(event) {
    if (event) { event.preventDefault(); }
    var variant = currentVariant();
    var profile = profileFor(variant, chosenOptions(variant));
    var table = DATA.tables[profile.table];
    var boneyard = wholeNumber($("boneyard"), "Tiles left to draw", table.tiles.length - 1);
    var left = wholeNumber($("end-left"), "The left end", table.max_pip);
    var right = wholeNumber($("end-right"), "The right end", table.max_pip);
    var problems = [boneyard, left, right].filter(function (r) { return r.problem; })
      .map(function (r) { return r.problem; });
    if (problems.length) { refuse(problems); return; }
    var situation = {
      players: Number($("players").value),
      hand: handTiles(),
      ends: [left.value, right.value],
      boneyard: boneyard.value,
      drawn: $("drawn").value || null
    };
    var result = answer(profile, situation);
    var body = $("answer-body");
    body.textContent = "";
    if (!result.possible) {
      refuse([result.whyNot.charAt(0).toUpperCase() + result.whyNot.slice(1)]);
      return;
    }
    var summary = el("p", { id: "verdict" });
    summary.appendChild(el("strong", {}, variant.id + ": "));
    summary.appendChild(document.createTextNode(situation.players + " players; ends " + situation.ends[0] +
      " (L) and " + situation.ends[1] + " (R); " + situation.boneyard + " tile(s) to draw."));
    body.appendChild(summary);
    var hand = el("div", { "class": "tiles", role: "img", "aria-label": "the hand: " + situation.hand.join(" ") });
    situation.hand.forEach(function (t) {
      var f = el("span", { "class": "picture" });
      f.innerHTML = DATA.tile_svgs[t];
      hand.appendChild(f);
    });
    body.appendChild(hand);
    var legal = el("p", { id: "legal" });
    legal.appendChild(el("strong", {}, "Legal: "));
    legal.appendChild(el("code", {}, result.legal.join(" ") || "(nothing)"));
    body.appendChild(legal);
    body.appendChild(el("h3", {}, "Each tile on each end"));
    var list = el("ul", { "class": "plays", id: "plays" });
    result.tiles.forEach(function (t) {
      t.ends.forEach(function (e) {
        var item = el("li", { "data-play": t.tile + "@" + e.end, "class": e.ways.length ? "ok" : "no" });
        item.appendChild(el("code", {}, t.tile + "@" + e.end));
        if (e.ways.length) {
          item.appendChild(document.createTextNode(" allowed, as " + e.ways.join(", ")));
        } else {
          item.appendChild(refusalNode(e.refused));
        }
        list.appendChild(item);
      });
    });
    body.appendChild(list);
    body.appendChild(el("h3", {}, "Drawing and passing"));
    var turn = el("ul", { "class": "plays" });
    [["draw", result.draw], ["pass", result.pass]].forEach(function (pair) {
      var item = el("li", { "data-play": pair[0], "class": pair[1] ? "no" : "ok" });
      item.appendChild(el("code", {}, pair[0]));
      if (pair[1]) { item.appendChild(refusalNode(pair[1])); }
      else { item.appendChild(document.createTextNode(" allowed")); }
      turn.appendChild(item);
    });
    body.appendChild(turn);
  }

  /* A position pasted in the notation (position.js) fills the form, then is explained: the
   * page lays two plain ends; a position with others is refused, naming the command line. */
  function fillFromPosition(event) {
    if (event) { event.preventDefault(); }
    var position;
    try {
      position = window.MatadorPosition.parse($("position").value);
    } catch (error) {
      $("position").setAttribute("aria-invalid", "true");
      refuse(["The position cannot be read: " + error.message]);
      return;
    }
    $("position").removeAttribute("aria-invalid");
    if (position.ends.length !== 2 || !position.ends[0].plain || !position.ends[1].plain) {
      refuse(["This page lays two plain ends; for " + position.ends.map(function (e) { return e.text; })
        .join(", ") + " use matador explain --position on the command line"]);
      return;
    }
    $("players").value = String(position.players);
    if ($("players").value !== String(position.players)) {
      refuse([currentVariant().id + " is not played by " + position.players + " players"]);
      return;
    }
    var held = position.hands[position.toAct];
    Array.prototype.forEach.call(document.querySelectorAll("#hand-tiles input"), function (box) {
      box.checked = held.indexOf(box.value) >= 0;
    });
    $("end-left").value = String(position.ends[0].value);
    $("end-right").value = String(position.ends[1].value);
    $("boneyard").value = String(position.boneyard.length);
    drawDrawn();
    $("drawn").value = position.drawn || "";
    explain();
  }

  fillSelect($("variant"), DATA.variants.map(function (v) { return [v.id, v.id + ": " + v.title]; }), false);
  $("variant").addEventListener("change", function () { drawOptions(); drawProfile(); });
  form.addEventListener("submit", explain);
  $("position-button").addEventListener("click", fillFromPosition);
  drawOptions();
  drawProfile();
}());
