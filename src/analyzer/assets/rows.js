// Row selection shared by every list of the page (metric tables, the compare list, the
// LeakList, DataObjects): one selected <tr> of the table's body, moved by a click, by
// Up/Down/PageUp/PageDown/Home/End, and activated by a double click or Enter.
//   onSelect(i): row i became the selection; onActivate(i): row i was activated (falls back
//   to onSelect when not given). Returns select(i, activate) for the caller's own events.
export function selectableRows(table, {onSelect, onActivate, page = 10} = {}) {
  const trs = table.tBodies[0].rows;
  let current = [...trs].findIndex(tr => tr.classList.contains('selected'));
  const select = (i, activate = false) => {
    if (i < 0 || i >= trs.length) return;
    if (current >= 0 && trs[current]) trs[current].classList.remove('selected');
    current = i;
    trs[i].classList.add('selected');
    trs[i].scrollIntoView({block: 'nearest'});
    if (activate && onActivate) onActivate(i);
    else if (onSelect) onSelect(i);
  };
  const rowIndex = ev => {
    const tr = ev.target.closest('tr');
    return tr && tr.parentElement === table.tBodies[0] ? tr.sectionRowIndex : -1;
  };
  table.addEventListener('click', ev => select(rowIndex(ev)));
  table.addEventListener('dblclick', ev => select(rowIndex(ev), true));
  table.addEventListener('keydown', ev => {
    const last = trs.length - 1;
    const moves = {ArrowDown: current + 1, ArrowUp: current - 1, Home: 0, End: last,
                   PageDown: Math.min(last, current + page), PageUp: Math.max(0, current - page)};
    if (ev.key in moves) { ev.preventDefault(); select(moves[ev.key]); }
    else if (ev.key === 'Enter' && current >= 0) { ev.preventDefault(); select(current, true); }
  });
  return select;
}
