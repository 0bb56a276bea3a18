// SPDX-License-Identifier: GPL-2.0-only
/*
 * What the HTML checks do first with a tab (cdp.js's page()): evaluate
 * expressions in it, and load the page until its script has set
 * data-ready="1" on <body>, polled every 20 ms for at most 30 s.
 *
 *   const { evaluator, loadReady } = require('./page-wait');
 *   const ev = evaluator(S);             ev(expr) -> Promise of its value; throws on an exception
 *   const { ready, ms } = await loadReady(S, ev, url);   ms: wall time from the navigation
 */
'use strict';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function evaluator(S) {
  return async (expr) => {
    const r = await S('Runtime.evaluate', { expression: expr, returnByValue: true, awaitPromise: true });
    if (r.exceptionDetails) throw new Error(expr + ': ' + JSON.stringify(r.exceptionDetails.exception || r.exceptionDetails));
    return r.result.value;
  };
}

async function loadReady(S, ev, url, limitMs = 30000) {
  const t0 = Date.now();
  let ready = false;

  await S('Page.navigate', { url });
  while (Date.now() - t0 < limitMs) {
    try { ready = await ev("document.body && document.body.getAttribute('data-ready') === '1'"); } catch (e) { ready = false; }
    if (ready) break;
    await sleep(20);
  }
  return { ready, ms: Date.now() - t0 };
}

module.exports = { evaluator, loadReady };
