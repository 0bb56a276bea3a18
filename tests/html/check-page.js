#!/usr/bin/env node
// SPDX-License-Identifier: GPL-2.0-only
/*
 * Headless-Chromium check of a hitmap HTML page, over the DevTools protocol
 * on --remote-debugging-pipe (no npm packages, no websocket).  Prints
 * PASS/FAIL lines like tests/unit/tap.h:
 *   - the page loads (data-ready) in at most --max-load-cpu-ms of its
 *     renderer's CPU time (CPU, not wall time: the same on a busy machine;
 *     the wall time is printed), no console errors, no exceptions, no
 *     network request besides the page itself;
 *   - the heat map draws one cell per bucket x socket, with the values of
 *     --expect (hitmap diff --metrics JSON) for every heat-map stat;
 *   - the lines table is paged (<= 50 DOM rows) and sorts on a click;
 *   - a screenshot is written to --shot.
 *
 *   check-page.js --html PAGE.html --shot OUT.png [--expect METRICS.json]
 *                 [--expect-diff DIFF-ALL.json]
 *                 [--max-load-cpu-ms 2000] [--name NAME] [--chromium PATH]
 *                 [--watchdog-s 90]
 */
'use strict';
const fs = require('fs');
const path = require('path');

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, '')] = process.argv[i + 1];
const NAME = args.name || 'html';
const MAX_LOAD_CPU = +(args['max-load-cpu-ms'] || 2000);
let failed = 0;
const pass = (n) => console.log(`PASS ${NAME}-${n}`);
const fail = (n, why) => { failed++; console.log(`FAIL ${NAME}-${n}: ${why}`); };
const check = (n, ok, why) => (ok ? pass(n) : fail(n, why));

const { evaluator, loadReady } = require('./page-wait');
const { send, sleep, run, page } = require('./cdp').launch({
  chromium: args.chromium, window: '1400,1800', watchdogS: +(args['watchdog-s'] || 90),
});

async function main() {
  const html = path.resolve(args.html);
  const url = 'file://' + html;
  const { S, errors, requests } = await page(url);
  await S('Runtime.enable');
  await S('Log.enable');
  await S('Network.enable');
  await S('Page.enable');
  await S('Performance.enable');
  const ev = evaluator(S);

  /*
   * The page's renderer: the process whose CPU time the tab's metrics give
   * (ProcessTime), found among Chromium's processes after the load, as the
   * navigation may have moved the tab to another one; its CPU time before
   * the navigation (0 if it started since) is taken off.
   */
  const procs = async () => (await send('SystemInfo.getProcessInfo')).processInfo;
  const procTime = async () => (await S('Performance.getMetrics')).metrics.find((m) => m.name === 'ProcessTime').value;
  const procsBefore = await procs();
  const { ready, ms: loadMs } = await loadReady(S, ev, url);
  const cpuNow = await procTime();
  const renderer = (await procs()).filter((p) => p.type === 'renderer')
    .reduce((a, p) => (Math.abs(p.cpuTime - cpuNow) < Math.abs(a.cpuTime - cpuNow) ? p : a));
  const was = procsBefore.find((p) => p.id === renderer.id);
  const cpuMs = Math.round((renderer.cpuTime - (was ? was.cpuTime : 0)) * 1000);
  console.log(`# ${NAME}: ${html} (${fs.statSync(html).size} bytes) ready in ${loadMs} ms, ` +
              `${cpuMs} ms CPU of its renderer`);
  check('loads', ready, 'data-ready never set (script failed?) ' + errors.join('; '));
  if (!ready) return;
  check('load-cpu', cpuMs < MAX_LOAD_CPU, `${cpuMs} ms CPU >= ${MAX_LOAD_CPU} ms (${loadMs} ms wall)`);
  const tm = await ev('JSON.stringify(hitmap.timing)');
  console.log(`# ${NAME}: script timing (ms) ${tm}`);
  await sleep(200);	/* late errors and requests */

  const info = await ev(`(function(){ var D = hitmap.data; return { mode: D.mode, ns: D.sides.length,
      S: D.sockets, ids: D.buckets.id, bstats: D.bstats, nl: D.lines.id.length,
      canvases: document.querySelectorAll('#heat canvas').length }; })()`);
  const nb = info.ids.length;
  /* read once: the big page's JSON is 85 MB (a parse per stat took most of the run under load) */
  const M = args.expect ? JSON.parse(fs.readFileSync(args.expect, 'utf8')).metrics : null;
  /* the remote-HITM heat map: by name, the stats' order may grow (hitm_xdie) */
  const RMT = Math.max(0, info.bstats.indexOf('hitm_remote'));
  for (let k = 0; k < info.bstats.length; k++) {
    const cells = await ev(`hitmap.setHeat(${k}, 0)`);
    const drawn = await ev('hitmap.heat.drawn');
    check(`heat-cells-${info.bstats[k]}`, cells.length === nb * info.S && drawn === nb * info.S,
          `${cells.length} cells (${drawn} drawn) for ${nb} buckets x ${info.S} sockets`);
    if (M && k === 0) {
      const want = new Set();
      for (const key of Object.keys(M)) {
        const m = /^futex\.(.+?\.bucket\.\d+)\./.exec(key);
        if (m) want.add(m[1]);
      }
      const got = new Set(info.ids);
      const missing = [...want].filter((x) => !got.has(x)), extra = [...got].filter((x) => !want.has(x));
      check('heat-buckets-equal-json', missing.length === 0 && extra.length === 0 && nb > 0,
            `${nb} buckets on the page, ${want.size} in the JSON; missing ${missing.slice(0, 3)}, extra ${extra.slice(0, 3)}`);
    }
    if (M) {
      let bad = 0, first = '';
      for (const [id, s, stat, v] of cells) {
        const w = M[`futex.${id}.socket.${s}.${stat}`] || 0;
        if (v !== w) { if (!bad) first = `${id} socket ${s} ${stat}: page ${v}, json ${w}`; bad++; }
      }
      check(`heat-values-equal-json-${info.bstats[k]}`, bad === 0 && cells.length > 0, `${bad} cells differ, e.g. ${first}`);
    }
  }
  if (args['expect-diff']) {
    /* a diff page: base and new cells against `hitmap diff --all --json` rows */
    const rows = {};
    for (const r of JSON.parse(fs.readFileSync(args['expect-diff'], 'utf8')).rows) rows[r.metric] = r;
    for (let side = 0; side < 2; side++) {
      const cells = await ev(`hitmap.setHeat(${RMT}, ${side})`);
      let bad = 0, first = '';
      for (const [id, s, stat, v] of cells) {
        const r = rows[`futex.${id}.socket.${s}.${stat}`];
        const w = r ? (side ? r.new.mean : r.base.mean) : 0;
        if (Math.abs(v - w) > 1e-5 * Math.max(1, Math.abs(w))) { if (!bad) first = `${id} socket ${s} ${stat}: page ${v}, json ${w}`; bad++; }
      }
      check(`heat-${side ? 'new' : 'base'}-equal-json`, bad === 0 && cells.length === nb * info.S && nb > 0, `${bad} cells differ, e.g. ${first}`);
    }
  }
  check('heat-one-canvas-per-socket', info.canvases === info.S, `${info.canvases} canvases, ${info.S} sockets`);

  /* the lines table: paged, and sorting works */
  const col = info.mode === 'diff' ? 'tot_hitm %chg' : 'tot_hitm';
  const readCol = `(function(){ var ths = document.querySelectorAll('#lines-head th'), ci = -1, i;
      for (i = 0; i < ths.length; i++) if (ths[i].textContent === ${JSON.stringify(col)}) ci = i;
      if (ci < 0) return null;
      return { ci: ci, rows: document.querySelectorAll('#lines-body tr').length,
        v: Array.prototype.map.call(document.querySelectorAll('#lines-body tr'), function (tr) { return tr.children[ci].textContent; }) }; })()`;
  const before = await ev(readCol);
  check('lines-paged', before && before.rows <= 50 && (info.nl <= 50 || before.rows === 50),
        before ? `${before.rows} DOM rows for ${info.nl} lines` : `no column ${col}`);
  if (before && info.nl > 1) {
    const num = (t) => (t === '+new' ? Infinity : t === '-all' ? -Infinity : parseFloat(t));
    await ev(`document.querySelectorAll('#lines-head th')[${before.ci}].click()`);
    const desc = (await ev(readCol)).v.map(num);
    await ev(`document.querySelectorAll('#lines-head th')[${before.ci}].click()`);
    const asc = (await ev(readCol)).v.map(num);
    const sorted = (a, dir) => a.every((x, i) => i === 0 || dir * (x - a[i - 1]) >= 0 || (x === a[i - 1]));
    check('sort-descending', desc.length > 1 && sorted(desc, -1), desc.slice(0, 6).join(','));
    check('sort-ascending', asc.length > 1 && sorted(asc, 1), asc.slice(0, 6).join(','));
    check('sort-changes-order', desc[0] !== asc[0] || desc.every((x) => x === desc[0]), `${desc[0]} vs ${asc[0]}`);
    if (info.nl > 50) {
      await ev("document.getElementById('lines-next').click()");
      const p2 = await ev("document.getElementById('lines-info').textContent");
      check('pager-next', /^lines 51-/.test(p2), p2);
    }
  }
  /* hover: synthetic mouse events on every socket's canvas report that socket's cell */
  const diffView = info.mode === 'diff' ? 2 : 0;
  await ev(`hitmap.setHeat(${RMT}, ${diffView})`);
  if (nb > 0) {
    let bad = 0, tried = 0, first = '';
    for (let sock = 0; sock < info.S; sock++) {
      for (const pos of [...new Set([0, Math.floor(nb / 2), nb - 1])]) {
        const at = await ev(`(function(){ var c = document.querySelectorAll('#heat canvas')[${sock}], g = hitmap.heat.geom;
            c.scrollIntoView({ block: 'center' }); var r = c.getBoundingClientRect();
            return { x: r.left + g.lm + (${pos} % g.cols) * g.px + g.px / 2, y: r.top + g.tm + Math.floor(${pos} / g.cols) * g.px + g.px / 2,
              id: hitmap.data.buckets.id[hitmap.bucketOrder[${pos}]] }; })()`);
        await S('Input.dispatchMouseEvent', { type: 'mouseMoved', x: at.x, y: at.y });
        await sleep(20);
        const tipText = await ev("document.getElementById('tip').style.display === 'block' ? document.getElementById('tip').textContent : ''");
        tried++;
        if (!tipText.startsWith(`${at.id}  socket ${sock}\n`)) { if (!bad) first = `socket ${sock} cell ${pos}: tip '${tipText.split('\n')[0]}', want '${at.id}  socket ${sock}'`; bad++; }
      }
    }
    check('hover-every-canvas', bad === 0 && tried > 0, `${bad} of ${tried} hovers wrong; ${first}`);
    /* click: the bucket's lines */
    const at = await ev(`(function(){ var c = document.querySelectorAll('#heat canvas')[${info.S - 1}], g = hitmap.heat.geom;
        c.scrollIntoView({ block: 'center' }); var r = c.getBoundingClientRect();
        return { x: r.left + g.lm + g.px / 2, y: r.top + g.tm + g.px / 2, id: hitmap.data.buckets.id[hitmap.bucketOrder[0]] }; })()`);
    await S('Input.dispatchMouseEvent', { type: 'mousePressed', x: at.x, y: at.y, button: 'left', clickCount: 1 });
    await S('Input.dispatchMouseEvent', { type: 'mouseReleased', x: at.x, y: at.y, button: 'left', clickCount: 1 });
    await sleep(50);
    const shown = await ev('hitmap.shownLines()');
    const info2 = await ev("document.getElementById('lines-info').textContent");
    check('click-opens-bucket-lines', /matching/.test(info2) && shown.every((id) => ('.' + id + '.').includes('.' + at.id + '.')),
          `${info2}; ${shown.slice(0, 3)}`);
    await ev("hitmap.filterLines('')");
    /* axes and colour bar on every canvas: labels in the left margin, a many-coloured bar below */
    const ax = await ev(`(function(){ var out = [], g = hitmap.heat.geom;
        document.querySelectorAll('#heat canvas').forEach(function (c) {
          var ctx = c.getContext('2d'), m = ctx.getImageData(0, g.tm, g.lm - 2, Math.min(g.rows * g.px, 40)).data, ink = 0, i;
          for (i = 0; i < m.length; i += 4) if (m[i] < 128) ink++;
          var bar = ctx.getImageData(g.lm, g.tm + g.rows * g.px + 12, 150, 1).data, cols = {};
          for (i = 0; i < bar.length; i += 4) cols[bar[i] + ',' + bar[i + 1] + ',' + bar[i + 2]] = 1;
          out.push({ axes: c.getAttribute('data-axes') === '1', ink: ink, colours: Object.keys(cols).length });
        }); return out; })()`);
    check('axes-and-legend-every-canvas', ax.length === info.S && ax.every((a) => a.axes && a.ink > 0 && a.colours >= 8),
          JSON.stringify(ax));
  }
  if (info.mode === 'diff' && nb > 0) {
    /* %change view: cells not significant are grey, significant ones are not */
    const g = await ev(`(function(){ var D = hitmap.data, g = hitmap.heat.geom, sig = {}, res = { grey: 0, ns: 0, sigCol: 0, sig: 0, badNs: '', badSig: '' }, s, p, i;
        for (i = 0; i < D.rows.length; i++) if (D.rows[i].sig) sig[D.rows[i].k] = 1;
        var k = hitmap.heat.stat, NSd = D.sides.length, BST = D.bstats;
        function cell(b, side, s) { return D.buckets.v[((b * NSd + side) * D.sockets + s) * BST.length + k]; }
        document.querySelectorAll('#heat canvas').forEach(function (c, s) {
          var ctx = c.getContext('2d');
          for (p = 0; p < D.buckets.id.length; p++) {
            var b = hitmap.bucketOrder[p], a = cell(b, 0, s), n = cell(b, 1, s);
            if (a === n) continue;
            var px = ctx.getImageData(g.lm + (p % g.cols) * g.px + (g.px >> 1), g.tm + Math.floor(p / g.cols) * g.px + (g.px >> 1), 1, 1).data;
            var isGrey = px[0] === px[1] && px[1] === px[2];
            if (sig['futex.' + D.buckets.id[b] + '.socket.' + s + '.' + BST[k]]) { res.sig++; if (!isGrey) res.sigCol++; else if (!res.badSig) res.badSig = D.buckets.id[b] + '/' + s; }
            else { res.ns++; if (isGrey) res.grey++; else if (!res.badNs) res.badNs = D.buckets.id[b] + '/' + s + ' rgb ' + px[0] + ',' + px[1] + ',' + px[2]; }
          }
        }); return res; })()`);
    console.log(`# ${NAME}: %change cells: ${g.sig} significant, ${g.ns} not`);
    check('diff-ns-cells-grey', g.ns === g.grey && g.sig === g.sigCol && g.ns + g.sig > 0,
          `${g.ns - g.grey} of ${g.ns} n.s. cells coloured (${g.badNs}), ${g.sig - g.sigCol} of ${g.sig} significant grey (${g.badSig})`);
  }
  /* futex lines that are not buckets (private hash header, mm, pages) are listed beside them */
  const other = await ev(`(function(){ var ids = hitmap.data.lines.id.filter(function (x) { return /^futex\\./.test(x) && !/\\.bucket\\.\\d+$/.test(x); });
      var t = document.getElementById('futex-other-table'); return { want: ids, got: t ? t.querySelectorAll('tr').length - 1 : 0 }; })()`);
  check('other-futex-lines-beside-buckets', other.got === other.want.length, `${other.got} rows for ${other.want}`);
  if (other.want.length) console.log(`# ${NAME}: beside the buckets: ${other.want.join(' ')}`);
  /* the field drawing spans the whole struct, with local and remote HITM bars */
  const fd = await ev(`(function(){ var out = []; document.querySelectorAll('#fields svg').forEach(function (svg) {
      var bytes = +svg.getAttribute('data-bytes'), rs = svg.querySelectorAll('rect[data-offset]'), cov = 0, lo = 1e9, hi = 0;
      rs.forEach(function (r) { var o = +r.getAttribute('data-offset'), z = +r.getAttribute('data-size'); cov += z; lo = Math.min(lo, o); hi = Math.max(hi, o + z); });
      out.push({ bytes: bytes, cov: cov, lo: lo, hi: hi, lcl: svg.querySelectorAll('rect[data-stat="hitm_local"]').length,
        rmt: svg.querySelectorAll('rect[data-stat="hitm_remote"]').length }); }); return out; })()`);
  if (fd.length)
    check('fields-span-struct', fd.every((f) => f.lo === 0 && f.hi === f.bytes && f.cov === f.bytes && f.lcl > 0 && f.rmt > 0),
          JSON.stringify(fd));
  await ev('hitmap.setHeat(' + RMT + ', ' + diffView + ')');
  await ev('window.scrollTo(0, 0)');
  await S('Input.dispatchMouseEvent', { type: 'mouseMoved', x: 1, y: 1 });	/* no tooltip in the shot */
  const shot = await S('Page.captureScreenshot', { format: 'png', captureBeyondViewport: true });
  fs.writeFileSync(args.shot, Buffer.from(shot.data, 'base64'));
  const png = fs.readFileSync(args.shot);
  check('screenshot', png.length > 1000 && png.slice(1, 4).toString() === 'PNG', `${args.shot}: ${png.length} bytes`);
  console.log(`# ${NAME}: screenshot ${args.shot}`);
  await sleep(100);
  check('no-console-errors', errors.length === 0, errors.slice(0, 3).join(' | '));
  check('no-network-requests', requests.length === 0, requests.slice(0, 3).join(' '));
}

run(main, { timeout: (why) => fail('timeout', why), error: (e) => fail('driver', e.message), failed: () => failed });
