// Draws the report's charts from the JSON in #tt-charts (written by tokentime, every string from
// the logs escaped there and again here: hover text is HTML, so it is built only from esc()).
(function () {
  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
      return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;'}[c];
    });
  }
  function num(v) {
    if (v == null || v !== v) return 'n/a';
    var a = Math.abs(v);
    return a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : a >= 1 ? v.toFixed(2) : String(+v.toPrecision(3));
  }
  function swatch(color) {
    return '<span style="display:inline-block;width:9px;height:9px;margin-right:5px;background:' +
      (typeof color === 'string' && /^#[0-9a-fA-F]{3,8}$|^rgba?\([0-9., ]+\)$/.test(color) ? color : '#888') + '"></span>';
  }
  function valueOf(p) {
    var v = p.value;
    return Array.isArray(v) ? v[v.length - 1] : v;
  }
  function line(p) {
    if (p.componentType === 'markLine' || p.componentType === 'markArea') return esc(p.name);
    var extra = p.data && p.data.tt ? ' — ' + esc(p.data.tt) : '';
    return swatch(p.color) + esc(p.seriesName) + ': <b>' + esc(num(valueOf(p))) + '</b>' + extra;
  }
  function tooltip(units) {
    return function (params) {
      if (!Array.isArray(params)) {
        var p = params, v = p.value, head = '';
        if (Array.isArray(v) && p.componentType === 'series') head = esc(units.x) + ' ' + esc(num(v[0])) + '<br>';
        return head + line(p);
      }
      if (!params.length) return '';
      var axis = params[0].axisValueLabel != null ? params[0].axisValueLabel : params[0].axisValue;
      var head = esc(units.x) + ' ' + esc(typeof axis === 'number' ? num(axis) : axis);
      return head + '<br>' + params.filter(function (p) { return valueOf(p) != null; }).map(line).join('<br>');
    };
  }

  var specs = JSON.parse(document.getElementById('tt-charts').textContent);
  var charts = [];
  var scale = Math.max(2, window.devicePixelRatio || 1);
  specs.forEach(function (s) {
    var el = document.getElementById(s.dom);
    if (!el) { window.__ttErrors.push('no container for chart ' + s.dom); return; }
    try {
      var chart = echarts.init(el, null, {renderer: 'canvas', devicePixelRatio: scale});
      s.option.tooltip.formatter = tooltip(s.units);
      chart.setOption(s.option);
      charts.push({id: s.dom, chart: chart, el: el});
    } catch (e) {
      window.__ttErrors.push('chart ' + s.dom + ': ' + e);
    }
  });
  window.addEventListener('resize', function () { charts.forEach(function (c) { c.chart.resize(); }); });
  window.addEventListener('beforeprint', function () { charts.forEach(function (c) { c.chart.resize(); }); });

  // Self-check: every chart drew on a canvas of non-zero size with some ink on it.
  function inked(canvas) {
    try {
      var ctx = canvas.getContext('2d'), w = canvas.width, h = canvas.height, n = 0;
      var data = ctx.getImageData(0, 0, w, h).data;
      for (var i = 3; i < data.length; i += 4 * 97) if (data[i] > 0) n++;
      return n;
    } catch (e) { return -1; }
  }
  function check() {
  var failed = [];
  specs.forEach(function (s) {
    var el = document.getElementById(s.dom);
    var canvas = el && el.querySelector('canvas');
    if (!canvas || canvas.width === 0 || canvas.height === 0 || el.clientWidth === 0 || inked(canvas) === 0) {
      failed.push(s.dom);
    }
  });
  var resources = (performance.getEntriesByType ? performance.getEntriesByType('resource') : [])
    .map(function (e) { return e.name; });
  var result = {charts: specs.length, rendered: specs.length - failed.length, failed: failed,
    errors: window.__ttErrors.slice(), resources: resources};
  var out = document.getElementById('tt-check');
  out.textContent = JSON.stringify(result);
  document.documentElement.setAttribute('data-tt-check',
    failed.length === 0 && result.errors.length === 0 && resources.length === 0 ? 'ok' : 'failed');
  }
  // after load and a moment more, so that late events (a blocked fetch) are counted too
  window.addEventListener('load', function () { setTimeout(check, 100); });
})();
