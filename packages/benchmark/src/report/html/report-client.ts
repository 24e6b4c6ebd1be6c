/**
 * The report's page script (plain ES2017, no imports): renders the charts from the inlined
 * Vega-Lite specs, the per-question table with its filters and sorting, and a question's page
 * (`#q/<question_id>`). Kept as a string so no build step touches it. Every value it writes into
 * markup goes through `esc`, numbers included: the model comes from results folders anyone may
 * have written (they are checked on read as well, analysis/read-run.ts).
 */
export const REPORT_CLIENT = String.raw`
(function () {
  'use strict';
  var model = JSON.parse(document.getElementById('lme-model').textContent);
  var specs = JSON.parse(document.getElementById('lme-specs').textContent);
  var runs = model.runs;
  var byId = {};
  model.questions.forEach(function (q, i) { q.position = i; byId[q.id] = q; });

  function esc(value) {
    return String(value).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function fmt(value) { return typeof value === 'number' ? value.toFixed(4).replace(/\.?0+$/, '') || '0' : '–'; }
  function swatch(run) { return '<span class="swatch" style="background:' + esc(run.colour) + '"></span>'; }
  function el(id) { return document.getElementById(id); }

  // Charts
  var embedOptions = { actions: false, renderer: 'svg' };
  specs.bars.forEach(function (item, index) {
    vegaEmbed('#chart-' + index, item.spec, embedOptions).catch(function (error) { console.error(error); });
  });
  if (specs.curve) vegaEmbed('#curve', specs.curve, embedOptions).catch(function (error) { console.error(error); });

  // Question table
  var state = { type: '', miss: '', k: model.miss_cutoffs.indexOf(5) >= 0 ? 5 : model.miss_cutoffs[0], disagree: false, sort: 'position', direction: 1 };
  function metricAt(run) { return run ? run.metrics[model.miss_metric + '@' + state.k] : undefined; }
  function missed(run) { var value = metricAt(run); return typeof value === 'number' && value < 1; }
  function worstGold(run) {
    if (!run || run.gold.length === 0) return undefined;
    var worst = 0;
    run.gold.forEach(function (g) { worst = Math.max(worst, g.rank === null ? Infinity : g.rank); });
    return worst;
  }
  function disagrees(q) {
    var values = q.runs.map(metricAt).filter(function (v) { return typeof v === 'number'; });
    return values.some(function (v) { return v !== values[0]; });
  }
  function keep(q) {
    if (state.type && q.type !== state.type) return false;
    if (state.disagree && !disagrees(q)) return false;
    if (state.miss === 'any') return q.runs.some(missed);
    if (state.miss === 'all') return q.runs.every(function (run) { return !run || missed(run); }) && q.runs.some(missed);
    if (state.miss !== '') return missed(q.runs[Number(state.miss)]);
    return true;
  }
  function sortValue(q) {
    if (state.sort === 'position') return q.position;
    if (state.sort === 'id') return q.id;
    if (state.sort === 'type') return q.type;
    var parts = state.sort.split(':');
    var run = q.runs[Number(parts[1])];
    var value = parts[0] === 'value' ? metricAt(run) : worstGold(run);
    return value === undefined ? -1 : value;
  }
  function goldCell(run) {
    if (!run) return '–';
    if (run.gold.length === 0) return '<span class="muted">no gold</span>';
    return run.gold.map(function (g) {
      var hit = g.rank !== null && g.rank <= state.k;
      return '<span class="' + (hit ? 'hit' : 'miss') + '">' + (g.rank === null ? '∅' : esc(g.rank)) + '</span>';
    }).join(' ');
  }
  function renderTable() {
    var rows = model.questions.filter(keep);
    rows.sort(function (a, b) {
      var x = sortValue(a), y = sortValue(b);
      return (x < y ? -1 : x > y ? 1 : a.position - b.position) * state.direction;
    });
    var head = '<tr><th data-sort="position">#</th><th data-sort="id">question</th><th data-sort="type">type</th>';
    runs.forEach(function (run, i) {
      head += '<th data-sort="value:' + i + '">' + swatch(run) + esc(run.label) + '<br><small>' + esc(model.miss_metric) + '@' + esc(state.k) + '</small></th>';
      head += '<th data-sort="gold:' + i + '">gold ranks</th>';
    });
    head += '</tr>';
    var body = rows.map(function (q) {
      var cells = '<td>' + esc(q.position + 1) + '</td><td><a href="#q/' + encodeURIComponent(q.id) + '">' + esc(q.id) + '</a>' +
        (q.question ? '<div class="question-text">' + esc(q.question.length > 90 ? q.question.slice(0, 90) + '…' : q.question) + '</div>' : '') +
        '</td><td>' + esc(q.type) + (q.abstention ? ' <small>(abs)</small>' : '') + '</td>';
      q.runs.forEach(function (run) {
        var value = metricAt(run);
        cells += '<td class="num ' + (typeof value === 'number' ? (value < 1 ? 'miss' : 'hit') : '') + '">' + fmt(value) + (run && run.errata ? ' <small class="errata" title="' + esc(run.errata) + '">errata</small>' : '') + '</td><td>' + goldCell(run) + '</td>';
      });
      return '<tr data-question="' + esc(q.id) + '">' + cells + '</tr>';
    }).join('');
    el('question-table').innerHTML = '<thead>' + head + '</thead><tbody>' + body + '</tbody>';
    el('row-count').textContent = rows.length + ' of ' + model.questions.length + ' questions';
    Array.prototype.forEach.call(el('question-table').querySelectorAll('th[data-sort]'), function (th) {
      th.addEventListener('click', function () {
        var key = th.getAttribute('data-sort');
        state.direction = state.sort === key ? -state.direction : 1;
        state.sort = key;
        renderTable();
      });
    });
  }
  function setupFilters() {
    var types = [];
    model.questions.forEach(function (q) { if (types.indexOf(q.type) < 0) types.push(q.type); });
    el('type-filter').innerHTML = '<option value="">all types</option>' + types.map(function (t) { return '<option>' + esc(t) + '</option>'; }).join('');
    el('miss-filter').innerHTML = '<option value="">all questions</option><option value="any">missed by any run</option><option value="all">missed by every run</option>' +
      runs.map(function (run, i) { return '<option value="' + i + '">missed by ' + esc(run.label) + '</option>'; }).join('');
    el('k-filter').innerHTML = model.miss_cutoffs.map(function (k) { return '<option' + (k === state.k ? ' selected' : '') + '>' + esc(k) + '</option>'; }).join('');
    el('type-filter').addEventListener('change', function (e) { state.type = e.target.value; renderTable(); });
    el('miss-filter').addEventListener('change', function (e) { state.miss = e.target.value; renderTable(); });
    el('k-filter').addEventListener('change', function (e) { state.k = Number(e.target.value); renderTable(); });
    el('disagree-filter').addEventListener('change', function (e) { state.disagree = e.target.checked; renderTable(); });
  }

  // Question page
  function routesText(routes) {
    if (!routes) return '';
    return Object.keys(routes).map(function (name) {
      var r = routes[name];
      return esc(name) + ' ' + fmt(r.score) + (r.rank > 0 ? ' (#' + esc(r.rank) + ')' : ' (–)');
    }).join(', ');
  }
  function rankText(run, g) {
    if (g.rank !== null) return '<b class="' + (g.rank <= state.k ? 'hit' : 'miss') + '">' + esc(g.rank) + '</b>';
    return '<span class="miss">' + (run.ranked === 'all' ? 'not retrieved' : 'not in the ' + esc(run.ranked) + ' saved hits') + '</span>';
  }
  function showQuestion(id) {
    var q = byId[id];
    if (!q) { el('question-page').innerHTML = '<p>No question ' + esc(id) + ' in this report.</p>'; }
    else {
      var html = '<p><a href="#">← all questions</a></p><h2>' + esc(q.id) + ' <small>' + esc(q.type) + (q.abstention ? ' · abstention' : '') + '</small></h2>';
      if (q.question !== undefined) {
        html += '<dl class="facts"><dt>question</dt><dd class="question">' + esc(q.question) + '</dd><dt>date</dt><dd>' + esc(q.date) + '</dd><dt>answer</dt><dd>' + esc(q.answer) + '</dd></dl>';
      } else {
        html += '<p class="muted">Question text not available: ' + esc(model.notes.join(' ') || 'the dataset file was not read') + '</p>';
      }
      var goldIds = [];
      q.runs.forEach(function (run) { if (run) run.gold.forEach(function (g) { if (goldIds.indexOf(g.id) < 0) goldIds.push(g.id); }); });
      html += '<h3>Gold sessions: rank in each run</h3><table class="gold"><tr><th>gold</th>' + runs.map(function (run) { return '<th>' + swatch(run) + esc(run.label) + '</th>'; }).join('') + '</tr>';
      goldIds.forEach(function (gid) {
        html += '<tr><td>' + esc(gid) + '</td>' + q.runs.map(function (run) {
          if (!run) return '<td>–</td>';
          var g = run.gold.filter(function (x) { return x.id === gid; })[0];
          if (!g) return '<td>–</td>';
          return '<td>' + rankText(run, g) + '<div class="routes">' + routesText(g.routes) + '</div>' + (g.cause ? '<div class="cause">' + esc(g.cause) + '</div>' : '') + '</td>';
        }).join('') + '</tr>';
      });
      if (goldIds.length === 0) html += '<tr><td colspan="' + esc(runs.length + 1) + '" class="muted">no gold session under this convention</td></tr>';
      html += '</table>';
      if (q.evidence) {
        html += '<h3>Evidence turns</h3>' + (q.evidence.length === 0 ? '<p class="muted">no turn is marked has_answer</p>' : q.evidence.map(function (t) {
          return '<div class="turn"><div class="meta">' + esc(t.session_id) + ' · ' + esc(t.date) + ' · ' + esc(t.role) + '</div>' + esc(t.text) + '</div>';
        }).join(''));
      } else {
        html += '<h3>Evidence turns</h3><p class="muted">Not available: ' + esc(model.notes.join(' ') || 'the dataset file was not read') + '</p>';
      }
      q.runs.forEach(function (run, i) {
        var info = runs[i];
        html += '<section class="run-card" style="border-left-color:' + esc(info.colour) + '"><h3>' + swatch(info) + esc(info.label) + '</h3>';
        if (!run) { html += '<p class="muted">not in this run</p></section>'; return; }
        if (run.error) html += '<p class="miss">error: ' + esc(run.error) + '</p>';
        if (run.errata) html += '<p class="errata"><b>errata</b>: ' + esc(run.errata) + '</p>';
        if (run.hypothesis !== undefined) html += '<p><b>hypothesis</b>: ' + esc(run.hypothesis) + (run.judge !== undefined ? ' · judge: <b class="' + (run.judge ? 'hit' : 'miss') + '">' + (run.judge === null ? 'no label' : run.judge ? 'correct' : 'wrong') + '</b>' : '') + (run.judge_items !== undefined ? ' · judge score: <b class="' + (run.judge_score === 1 ? 'hit' : 'miss') + '">' + (run.judge_score === null ? 'judge error' : fmt(run.judge_score)) + '</b>' : '') + '</p>';
        if (run.judge_items && run.judge_items.length > 0) html += '<table class="rubric"><tr><th>rubric item</th><th>score</th><th>reason</th></tr>' + run.judge_items.map(function (item) {
          return '<tr><td>' + esc(item.name) + '</td><td class="num">' + (item.score === null ? 'unreadable' : fmt(item.score) + (item.max !== undefined ? ' / ' + fmt(item.max) : '')) + '</td><td>' + esc(item.reason || '') + '</td></tr>';
        }).join('') + '</table>';
        html += '<p class="metrics">' + Object.keys(run.metrics).filter(function (m) { return model.metrics.indexOf(m) >= 0 || m === model.miss_metric + '@' + state.k; }).map(function (m) { return esc(m) + ' ' + fmt(run.metrics[m]); }).join(' · ') + '</p>';
        html += '<table class="hits"><tr><th>rank</th><th>hit</th><th>session date</th><th>score</th><th>routes</th></tr>' + run.hits.map(function (h) {
          return '<tr class="' + (h.gold ? 'gold-hit' : '') + '"><td>' + esc(h.rank) + '</td><td>' + (h.gold ? '★ ' : '') + esc(h.id) + (h.id !== h.session_id ? '<br><small>' + esc(h.session_id) + '</small>' : '') + '</td><td>' + esc(h.date || '') + '</td><td class="num">' + fmt(h.score) + '</td><td class="routes">' + routesText(h.routes) + '</td></tr>';
        }).join('') + '</table></section>';
      });
      el('question-page').innerHTML = html;
    }
    el('overview').hidden = true;
    el('question-page').hidden = false;
    window.scrollTo(0, 0);
  }
  function route() {
    var hash = location.hash;
    if (hash.indexOf('#q/') === 0) showQuestion(decodeURIComponent(hash.slice(3)));
    else { el('question-page').hidden = true; el('overview').hidden = false; }
  }
  setupFilters();
  renderTable();
  window.addEventListener('hashchange', route);
  route();
})();
`;
