#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
/*
 * Headless-Chromium check of the contention view of a hitmap report page
 * (a contention-mode file), over the DevTools protocol on
 * --remote-debugging-pipe (no npm packages).  Prints PASS/FAIL lines:
 *   - the page loads (data-ready), no console errors, exceptions or network
 *     requests;
 *   - the tables #contention-buckets, #contention-sockets and
 *     #contention-callers hold the rows of --expect, a TSV of what
 *     'hitmap report --stdio --by bucket|socket' prints ("bucket", "socket"
 *     or "caller", then the cells), in that order;
 *   - the page does not claim buckets it has not got ("0 futex buckets touched");
 *   - a screenshot of the section is written to --shot.
 *
 *   check-contention.js --html PAGE.html --expect ROWS.tsv --shot OUT.png [--name NAME] [--chromium PATH]
 */
'use strict';
const fs = require('fs');
const path = require('path');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const NAME = args.name || 'contention';
let failed = 0;
const check = (n, ok, why) => {
  if (ok) console.log(`PASS ${NAME}-${n}`);
  else { failed++; console.log(`FAIL ${NAME}-${n}: ${why}`); }
};

const { evaluator, loadReady } = require('./page-wait');
const { sleep, run, page } = require('./cdp').launch({ chromium: args.chromium, window: '1400,1200' });

async function main() {
  const html = path.resolve(args.html), url = 'file://' + html;
  const { S, errors, requests } = await page(url);
  for (const d of ['Runtime', 'Log', 'Network', 'Page']) await S(d + '.enable');
  const ev = evaluator(S);
  const { ready } = await loadReady(S, ev, url);
  check('loads', ready, 'data-ready never set (script failed?) ' + errors.join('; '));
  if (!ready) return;
  await sleep(200);

  /* the rows of --stdio, table by table */
  const want = { bucket: [], socket: [], caller: [] };
  for (const line of fs.readFileSync(args.expect, 'utf8').split('\n')) {
    if (!line) continue;
    const cells = line.split('\t');
    if (want[cells[0]]) want[cells[0]].push(cells.slice(1));
  }
  const ids = { bucket: 'contention-buckets', socket: 'contention-sockets', caller: 'contention-callers' };
  for (const k of Object.keys(ids)) {
    const got = await ev(`(function(){ var t = document.getElementById('${ids[k]}'); if (!t) return null;
        return Array.prototype.map.call(t.querySelectorAll('tbody tr'), function (tr) {
          return Array.prototype.map.call(tr.children, function (td) { return td.textContent; }); }); })()`);
    if (!got) { check(`${k}-table`, false, `no #${ids[k]}`); continue; }
    const n = want[k].length;
    let bad = '';
    for (let i = 0; i < n && !bad; i++)
      if (!got[i] || got[i].join('|') !== want[k][i].join('|'))
        bad = `row ${i}: page '${got[i] ? got[i].join('|') : '(none)'}', --stdio '${want[k][i].join('|')}'`;
    check(`${k}-table-equals-stdio`, n > 0 && got.length === n && !bad,
          bad || `${got.length} rows on the page, ${n} from --stdio`);
  }
  const sub = await ev("document.querySelector('header p').textContent");
  check('no-empty-bucket-claim', !/0 futex buckets touched/.test(sub), sub);
  const rect = await ev(`(function(){ var s = document.getElementById('contention-section'); s.scrollIntoView();
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
