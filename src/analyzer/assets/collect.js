// The Collect window (docs/analyzer.md, "Collect"): a form for collect's options, Preview
// Command (the exact collect line the server builds), Run with live output, Pause/Resume and
// Sample (the -y and -l signals to the target), and opening the experiment when it ends.
const $ = id => document.getElementById(id);

async function post(url, body) {
  const r = await fetch(url, {method: 'POST', credentials: 'same-origin', headers: {'Content-Type': 'application/json'},
                              body: JSON.stringify(body || {})});
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

// Arguments typed as a shell would split them: spaces separate, quotes group ('...' or "...").
export function splitArgs(s) {
  const out = [];
  let cur = null, q = null;
  for (const ch of s) {
    if (q) { if (ch === q) q = null; else cur += ch; continue; }
    if (ch === '"' || ch === "'") { q = ch; cur = cur ?? ''; continue; }
    if (/\s/.test(ch)) { if (cur !== null) out.push(cur); cur = null; continue; }
    cur = (cur ?? '') + ch;
  }
  if (cur !== null) out.push(cur);
  return out;
}

const fields = ['target', 'clock', 'hwc', 'sync', 'heap', 'io', 'samples', 'descendants', 'name', 'group', 'archive', 'java',
                'java_args'];

function form() {
  const f = {args: splitArgs($('collect-args').value), signals: $('collect-signals').checked};
  for (const k of fields) f[k] = $(`collect-${k}`).value.trim();
  return f;
}

export function fill(req) {
  for (const k of fields) if (req[k] !== undefined) $(`collect-${k}`).value = req[k];
  $('collect-args').value = (req.args || []).map(a => /^[A-Za-z0-9_@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  $('collect-signals').checked = req.signals !== false;
}

// onOpened(experiment): the page reloads its tabs over the new experiment.
export function setupCollect(onOpened) {
  let next = 0, timer = null;
  const setError = m => { $('collect-error').textContent = m || ''; };
  const running = r => {
    $('collect-run').disabled = r;
    for (const b of ['collect-pause', 'collect-resume', 'collect-sample']) $(b).disabled = !r;
  };
  $('btn-collect').onclick = () => { setError(''); $('dlg-collect').showModal(); $('collect-target').focus(); };
  $('collect-close').onclick = () => $('dlg-collect').close();
  $('collect-preview').onclick = async () => {
    setError('');
    try { $('collect-command').textContent = (await post('/api/collect/preview', form())).command; } catch (e) { setError(e.message); }
  };
  const poll = async () => {
    let s;
    try {
      const r = await fetch(`/api/collect/status?from=${next}`, {credentials: 'same-origin'});
      s = await r.json();
    } catch (e) { setError(e.message); return; }
    $('collect-output').textContent += s.output;
    $('collect-output').scrollTop = $('collect-output').scrollHeight;
    next = s.next;
    if (s.running) { timer = setTimeout(poll, 200); return; }
    running(false);
    const how = s.signal ? `killed by signal ${s.signal}` : `exit status ${s.exit_code}`;
    $('collect-state').textContent = `collect ended (${how})`;
    $('collect-state').dataset.state = 'ended';
    $('collect-state').dataset.exit = s.exit_code;
    if (s.exit_code === 0 && $('collect-open').checked) {
      try {
        const o = await post('/api/collect/open');
        $('dlg-collect').close();
        await onOpened(o.experiment);
      } catch (e) { setError(e.message); }
    }
  };
  $('collect-run').onclick = async () => {
    setError('');
    try {
      const r = await post('/api/collect/run', form());
      $('collect-command').textContent = r.command;
      $('collect-output').textContent = '';
      $('collect-state').textContent = `running: ${r.experiment}`;
      $('collect-state').dataset.state = 'running';
      next = 0;
      running(true);
      clearTimeout(timer);
      poll();
    } catch (e) { setError(e.message); }
  };
  const signal = what => async () => {
    setError('');
    try { await post('/api/collect/signal', {what}); $('collect-state').textContent = `sent ${what}`; } catch (e) { setError(e.message); }
  };
  $('collect-pause').onclick = signal('pause');
  $('collect-resume').onclick = signal('resume');
  $('collect-sample').onclick = signal('sample');
  running(false);
}
