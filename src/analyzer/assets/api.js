// The analyzer's JSON API (docs/analyzer.md): er_print's own JSON reports.
export async function run(...commands) {
  const q = commands.map(c => 'c=' + encodeURIComponent(c)).join('&');
  const r = await fetch('/api/run?' + q, {credentials: 'same-origin'});
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  return j;
}

// One report's data; throws with er_print's error message.
export async function report(...commands) {
  const all = await run(...commands);
  const last = all[all.length - 1];
  for (const o of all) if (o.error) throw new Error(o.error);
  return last.data !== undefined ? last.data : {text: last.text};
}

export async function forFunction(cmd, id) {
  const r = await fetch(`/api/fn?cmd=${encodeURIComponent(cmd)}&id=${id}`, {credentials: 'same-origin'});
  const j = await r.json();
  if (!r.ok) throw new Error(j.error || r.statusText);
  if (j[0] && j[0].error) throw new Error(j[0].error);
  return j[0].data !== undefined ? j[0].data : {text: j[0].text};
}

export async function info() {
  const r = await fetch('/api/info', {credentials: 'same-origin'});
  return r.json();
}
