// The Experiments tab's Notes area (seed-spec §8, Experiments tab): the experiment's notes file,
// editable; Save writes it into the experiment (POST /api/notes), Discard restores the text
// last saved; undo and redo are the text area's own (Ctrl+Z, Ctrl+Shift+Z).
import {escapeHtml} from './format.js';

export function notesHtml(e) {
  const text = Array.isArray(e.notes) ? e.notes.join('\n') : (e.notes || '');
  return `<h4>Notes</h4><div class="notes" data-id="${e.id}">` +
         `<textarea class="notes-text" rows="4" cols="80" aria-label="Notes of experiment ${e.id}">${escapeHtml(text)}</textarea>` +
         `<br><button type="button" class="notes-save">Save</button> <button type="button" class="notes-discard">Discard</button>` +
         ` <span class="notes-state" role="status"></span></div>`;
}

export function wireNotes(root) {
  for (const box of root.querySelectorAll('.notes')) {
    const ta = box.querySelector('.notes-text'), st = box.querySelector('.notes-state');
    let saved = ta.value;
    box.querySelector('.notes-discard').onclick = () => { ta.value = saved; st.textContent = 'discarded'; };
    box.querySelector('.notes-save').onclick = async () => {
      const r = await fetch('/api/notes', {method: 'POST', credentials: 'same-origin', headers: {'Content-Type': 'application/json'},
                                           body: JSON.stringify({experiment: +box.dataset.id, text: ta.value})});
      const j = await r.json();
      if (!r.ok) { st.textContent = j.error || r.statusText; st.classList.add('error'); return; }
      saved = ta.value;
      st.classList.remove('error');
      st.textContent = 'saved';
    };
  }
}
