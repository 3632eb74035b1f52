// Create Mapfile (File menu of the manual, seed-spec §8.10): er_print's `mapfile OBJECT - FORMAT`
// for a load object of the experiment, ordered by the current sort; the text shows in the dialog
// and Save hands it to the browser as a download (the server writes no file).
import * as api from './api.js';
import {escapeHtml} from './format.js';

const $ = id => document.getElementById(id);

export function setupMapfile() {
  let url = null;
  $('btn-mapfile').onclick = async () => {
    $('mapfile-error').textContent = '';
    const objs = await api.report('objects');
    $('mapfile-object').innerHTML = objs.objects.map(o => `<option value="${escapeHtml(o.name)}">${escapeHtml(o.name)}</option>`).join('');
    $('dlg-mapfile').showModal();
    $('mapfile-object').focus();
  };
  $('mapfile-close').onclick = () => $('dlg-mapfile').close();
  $('mapfile-create').onclick = async () => {
    $('mapfile-error').textContent = '';
    const q = `object=${encodeURIComponent($('mapfile-object').value)}&format=${encodeURIComponent($('mapfile-format').value)}`;
    const r = await fetch(`/api/mapfile?${q}`, {credentials: 'same-origin'});
    if (!r.ok) { $('mapfile-error').textContent = (await r.json()).error; $('mapfile-text').textContent = ''; return; }
    const text = await r.text();
    $('mapfile-text').textContent = text;
    if (url) URL.revokeObjectURL(url);
    url = URL.createObjectURL(new Blob([text], {type: 'text/plain'}));
    const a = $('mapfile-save');
    a.href = url;
    a.download = `${$('mapfile-object').value}.${$('mapfile-format').value === 'gnu' ? 'ld' : 'order'}`;
    a.hidden = false;
  };
}
