#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
/*
 * Headless-Chromium check of a hitmap diff page where a side may have no
 * futex tables (a plain perf record file, a run without hitmap's metadata),
 * over the DevTools protocol on --remote-debugging-pipe (no npm packages).
 * Prints PASS/FAIL lines:
 *   - the page loads (data-ready), no console errors, exceptions or network
 *     requests;
 *   - its data says per side whether futex tables were found, as --tables
 *     (e.g. "true,false": base has them, new has not);
 *   - in every heat-map view (base, new, %change) that needs a side without
 *     tables, the heat map draws no canvas and no cell and says
 *     "no futex hash tables in LABEL ...: not compared"; every other view
 *     draws one canvas per socket and one cell per bucket x socket, and says
 *     nothing of the kind;
 *   - hovering a cell of the side with tables shows "-" for the other side,
 *     not 0;
 *   - the fields table shows "-" in every column of a side without tables;
 *   - a screenshot of the heat-map section is written to --shot.
 *
 *   check-diff-sides.js --html PAGE.html --tables true,false --shot OUT.png [--name NAME] [--chromium PATH]
 */
'use strict';
const fs = require('fs');
const path = require('path');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const NAME = args.name || 'diff-sides';
let failed = 0;
const check = (n, ok, why) => {
  if (ok) console.log(`PASS ${NAME}-${n}`);
  else { failed++; console.log(`FAIL ${NAME}-${n}: ${why}`); }
};

const { evaluator, loadReady } = require('./page-wait');
const { sleep, run, page } = require('./cdp').launch({ chromium: args.chromium, window: '1400,1400' });

async function main() {
  const html = path.resolve(args.html), url = 'file://' + html;
  const want = (args.tables || '').split(',').map((x) => x === 'true');
  const { S, errors, requests } = await page(url);
  for (const d of ['Runtime', 'Log', 'Network', 'Page']) await S(d + '.enable');
  const ev = evaluator(S);
  const { ready } = await loadReady(S, ev, url);
  check('loads', ready, 'data-ready never set (script failed?) ' + errors.join('; '));
  if (!ready) return;
  await sleep(200);

  const info = await ev(`(function(){ var D = hitmap.data; return { mode: D.mode, sides: D.sides, S: D.sockets,
      nb: D.buckets.index.length, bstats: D.bstats, tables: D.futexTables }; })()`);
  check('data-says-tables', info.mode === 'diff' && want.length === 2 && JSON.stringify(info.tables) === JSON.stringify(want),
        `page futexTables ${JSON.stringify(info.tables)}, want ${JSON.stringify(want)} (mode ${info.mode})`);
  const RMT = Math.max(0, info.bstats.indexOf('hitm_remote'));
  const viewNames = ['base', 'new', 'change'];
  for (let view = 0; view < 3; view++) {
    const need = view < 2 ? [view] : [0, 1];
    const bare = need.filter((s) => !want[s]);
    const got = await ev(`(function(){ hitmap.setHeat(${RMT}, ${view}); var n = document.getElementById('heat-none');
        return { canvases: document.querySelectorAll('#heat canvas').length, drawn: hitmap.heat.drawn,
          none: n ? n.textContent : null, shown: n ? n.offsetHeight > 0 : false,
          select: document.getElementById('heat-view').value }; })()`);
    const v = `${viewNames[view]} view`;
    if (bare.length) {
      const named = bare.every((s) => got.none && got.none.includes(`no futex hash tables in ${info.sides[s]}`));
      check(`${viewNames[view]}-says-no-tables`, named && /: not compared/.test(got.none) && got.shown,
            `${v}: message ${JSON.stringify(got.none)} (shown ${got.shown}), want one naming ${bare.map((s) => info.sides[s])}`);
      check(`${viewNames[view]}-draws-no-zeros`, got.canvases === 0 && got.drawn === 0,
            `${v}: ${got.canvases} canvases, ${got.drawn} cells drawn for a side without futex tables`);
    } else {
      check(`${viewNames[view]}-draws`, got.none === null && info.nb > 0 && got.canvases === info.S && got.drawn === info.nb * info.S,
            `${v}: message ${JSON.stringify(got.none)}, ${got.canvases} canvases, ${got.drawn} cells for ${info.nb} buckets x ${info.S} sockets`);
    }
    check(`${viewNames[view]}-selected`, +got.select === view, `select says ${got.select}`);
  }

  /* hover a cell of a view that draws: the side without tables reads "-", not 0 */
  const drawView = [0, 1].find((s) => want[s]);
  if (drawView !== undefined && want.some((x) => !x) && info.nb > 0) {
    await ev(`hitmap.setHeat(${RMT}, ${drawView})`);
    const at = await ev(`(function(){ var c = document.querySelectorAll('#heat canvas')[0], g = hitmap.heat.geom;
        c.scrollIntoView({ block: 'center' }); var r = c.getBoundingClientRect();
        return { x: r.left + g.lm + g.px / 2, y: r.top + g.tm + g.px / 2 }; })()`);
    await S('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
    await sleep(50);
    const tip = await ev("document.getElementById('tip').style.display === 'block' ? document.getElementById('tip').textContent : ''");
    const lines = tip.split('\n').filter((l) => info.bstats.some((b) => l.startsWith(b + ': ')));
    const dash = want[0] ? /^[a-z_]+: [0-9.e+]+ -> - {2}- \(not compared\)$/ : /^[a-z_]+: - -> [0-9.e+]+ {2}- \(not compared\)$/;
    check('hover-other-side-dash', lines.length === info.bstats.length && lines.every((l) => dash.test(l)),
          `tip ${JSON.stringify(tip.split('\n').slice(0, 3))}`);
    await S('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 1, y: 1 });
  }

  /* the fields table: "-" in every column of a side without tables, numbers in the other's */
  const fcols = await ev(`(function(){ var out = { base: [], new: [] };
      document.querySelectorAll('#fields table.fields').forEach(function (t) {
        var rows = t.querySelectorAll('tr'), head = rows[0].children, i, r;
        for (i = 0; i < head.length; i++) {
          var m = / (base|new)$/.exec(head[i].textContent); if (!m) continue;
          for (r = 1; r < rows.length; r++) out[m[1]].push(rows[r].children[i].textContent);
        }
      }); return out; })()`);
  ['base', 'new'].forEach((side, s) => {
    const cells = fcols[side];
    if (!want[s])
      check(`fields-${side}-dash`, cells.length > 0 && cells.every((c) => c === '-'),
            `${cells.length} ${side} cells, e.g. ${cells.filter((c) => c !== '-').slice(0, 3)}`);
    else
      check(`fields-${side}-numbers`, cells.length > 0 && cells.every((c) => /^[0-9.e+]+$/.test(c)) && cells.some((c) => +c > 0),
            `${cells.length} ${side} cells, e.g. ${cells.slice(0, 3)}`);
  });

  await ev(`hitmap.setHeat(${RMT}, 2)`);
  const rect = await ev(`(function(){ var s = document.getElementById('heat-section'); s.scrollIntoView();
      var r = s.getBoundingClientRect(); return { x: r.left + window.scrollX, y: r.top + window.scrollY, w: r.width, h: r.height }; })()`);
  const shot = await S('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true,
    clip: { x: rect.x, y: rect.y, width: Math.max(rect.w, 10), height: Math.min(Math.max(rect.h, 10), 3000), scale: 1 } });
  fs.writeFileSync(args.shot, Buffer.from(shot.data, 'base64'));
  check('screenshot', fs.statSync(args.shot).size > 1000, `${args.shot}: ${fs.statSync(args.shot).size} bytes`);
  console.log(`# ${NAME}: screenshot ${args.shot}`);
  await sleep(100);
  check('no-console-errors', errors.length === 0, errors.slice(0, 3).join(' | '));
  check('no-network-requests', requests.length === 0, requests.slice(0, 3).join(' '));
}

run(main, { timeout: (why) => check('timeout', false, why), error: (e) => check('driver', false, e.message), failed: () => failed });
