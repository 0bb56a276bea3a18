// SPDX-License-Identifier: GPL-2.0-only
/*
 * The headless Chromium the HTML checks drive: launched with
 * --remote-debugging-pipe (no npm packages), DevTools protocol messages over
 * fds 3 and 4, a watchdog on the whole run (opts.watchdogS, 90 s by default)
 * and a clean close (browser closed or killed, its profile removed) whatever
 * happens.
 *
 *   const b = require('./cdp').launch({ chromium, window: '1400,1200', watchdogS: 90 });
 *   b.send(method, params, sessionId) -> Promise of the result
 *   b.listeners.push(fn)              -> every event message
 *   b.page(url)                       -> { S, sessionId, errors, requests } of a new tab
 *   b.run(main, { timeout(why), error(e), failed() })
 */
'use strict';
const { spawn } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

function launch(opts) {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'hitmap-chromium-'));
  const chrome = spawn(opts.chromium || '/usr/bin/chromium', [
    '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-extensions',
    '--disable-default-apps', '--mute-audio', '--hide-scrollbars', `--window-size=${opts.window || '1400,1200'}`,
    `--user-data-dir=${profile}`, '--remote-debugging-pipe', 'about:blank',
  ], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
  let stderr = '';
  chrome.stderr.on('data', (d) => { stderr += d; });
  const out = chrome.stdio[3], inp = chrome.stdio[4];
  let nextId = 1, buf = '';
  const pending = new Map(), listeners = [];

  inp.on('data', (d) => {
    buf += d.toString('utf8');
    let z;
    while ((z = buf.indexOf('\0')) >= 0) {
      const msg = JSON.parse(buf.slice(0, z));
      buf = buf.slice(z + 1);
      if (msg.id && pending.has(msg.id)) {
        const { resolve, reject } = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) reject(new Error(JSON.stringify(msg.error)));
        else resolve(msg.result);
      } else if (msg.method) {
        listeners.forEach((l) => l(msg));
      }
    }
  });
  function send(method, params = {}, sessionId) {
    const id = nextId++;
    const m = { id, method, params };
    if (sessionId) m.sessionId = sessionId;
    out.write(JSON.stringify(m) + '\0');
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  }
  /* a new tab's session: S(method, params), and the console errors and network requests it sees */
  async function page(url) {
    const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
    const S = (m, p) => send(m, p, sessionId);
    const errors = [], requests = [];
    listeners.push((msg) => {
      if (msg.sessionId !== sessionId) return;
      const p = msg.params;
      if (msg.method === 'Runtime.consoleAPICalled' && (p.type === 'error' || p.type === 'assert'))
        errors.push('console.' + p.type + ': ' + p.args.map((a) => a.value || a.description).join(' '));
      if (msg.method === 'Runtime.exceptionThrown')
        errors.push('exception: ' + (p.exceptionDetails.exception ? p.exceptionDetails.exception.description : p.exceptionDetails.text));
      if (msg.method === 'Log.entryAdded' && p.entry.level === 'error')
        errors.push('log: ' + p.entry.text + ' ' + (p.entry.url || ''));
      if (msg.method === 'Network.requestWillBeSent' && p.request.url !== url && !p.request.url.startsWith('data:'))
        requests.push(p.request.url);
    });
    return { S, sessionId, errors, requests };
  }
  /* run main() under the watchdog; always close the browser and exit 0/1 */
  function run(main, h) {
    let finishing = false, watchdog;
    function finish() {
      if (finishing) return;
      finishing = true;
      clearTimeout(watchdog);
      const done = () => {
        /* the browser's helpers may still write the profile for a moment */
        for (let i = 0; i < 20; i++) {
          try { fs.rmSync(profile, { recursive: true, force: true }); break; } catch (e) { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50); }
        }
        process.exit(h.failed() ? 1 : 0);
      };
      if (chrome.exitCode !== null || chrome.signalCode !== null) return done();
      chrome.once('exit', done);
      setTimeout(done, 3000);
      try { send('Browser.close').catch(() => {}); } catch (e) { /* pipe gone */ }
      setTimeout(() => { try { chrome.kill('SIGKILL'); } catch (e) { /* gone */ } }, 1000);
    }
    const limit = opts.watchdogS || 90;
    watchdog = setTimeout(() => { h.timeout(`not done in ${limit} s; ` + stderr.slice(-300)); finish(); }, limit * 1000);
    main().catch(h.error).finally(finish);
  }
  return { send, listeners, run, page, sleep: (ms) => new Promise((r) => setTimeout(r, ms)) };
}

module.exports = { launch };
