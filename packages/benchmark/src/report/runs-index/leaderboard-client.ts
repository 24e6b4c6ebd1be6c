/**
 * The leaderboard page's only script: sorts a table by the column whose header button is clicked
 * (numbers as numbers, empty cells last, a second click reverses). It reads `data-sort`
 * attributes only and writes no markup, so no text from a results folder is ever run.
 */
export const LEADERBOARD_CLIENT = `
(() => {
  const key = (cell) => (cell ? cell.getAttribute('data-sort') : null);
  for (const table of document.querySelectorAll('table.board')) {
    const headers = [...table.querySelectorAll('thead th')];
    headers.forEach((header, column) => {
      const button = header.querySelector('button');
      if (!button) return;
      button.addEventListener('click', () => {
        const descending = header.getAttribute('aria-sort') !== 'descending';
        for (const other of headers) other.removeAttribute('aria-sort');
        header.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
        const body = table.tBodies[0];
        const rows = [...body.rows];
        const numeric = rows.every((row) => {
          const value = key(row.cells[column]);
          return value === null || value === '' || !Number.isNaN(Number(value));
        });
        rows.sort((left, right) => {
          const a = key(left.cells[column]);
          const b = key(right.cells[column]);
          if (a === null || a === '') return b === null || b === '' ? 0 : 1;
          if (b === null || b === '') return -1;
          const order = numeric ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0;
          return descending ? -order : order;
        });
        for (const row of rows) body.appendChild(row);
      });
    });
  }
})();
`;
