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
  // a table wider than its frame scrolls in it: mark the frame, so the cut edge reads as one
  function markScrolling() {
    Array.prototype.forEach.call(document.querySelectorAll('.table-wrap'), function (w) {
      w.classList.toggle('scrolls', w.scrollWidth > w.clientWidth + 1);
    });
  }
  markScrolling();
  window.addEventListener('resize', markScrolling);
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
  // Layout: texts of a chart (axis names, tick labels, legend, mark labels) must not overlap;
  // read from the chart's scene graph (zrender), as drawn at this window's width.
  function textBoxes(chart) {
    var out = [];
    chart.getZr().storage.getDisplayList(true).forEach(function (el) {
      if ((el.type !== 'tspan' && el.type !== 'text') || el.invisible || el.ignore) return;
      var text = el.style && el.style.text;
      if (text == null || String(text).trim() === '' || (el.style.opacity === 0)) return;
      var r = el.getBoundingRect().clone();
      var m = el.getComputedTransform();
      if (m) r.applyTransform(m);
      // a text inside a clip (a scrolling legend's hidden page) is seen only within it
      (el.__clipPaths || []).forEach(function (cp) {
        var c = cp.getBoundingRect().clone();
        var cm = cp.getComputedTransform();
        if (cm) c.applyTransform(cm);
        var x0 = Math.max(r.x, c.x), y0 = Math.max(r.y, c.y);
        var x1 = Math.min(r.x + r.width, c.x + c.width), y1 = Math.min(r.y + r.height, c.y + c.height);
        r.x = x0; r.y = y0; r.width = Math.max(0, x1 - x0); r.height = Math.max(0, y1 - y0);
      });
      if (r.width > 0 && r.height > 0) out.push({text: String(text), x: r.x, y: r.y, w: r.width, h: r.height});
    });
    return out;
  }
  function overlaps() {
    var found = [];
    charts.forEach(function (c) {
      var b = textBoxes(c.chart);
      for (var i = 0; i < b.length; i++) {
        for (var j = i + 1; j < b.length; j++) {
          var ox = Math.min(b[i].x + b[i].w, b[j].x + b[j].w) - Math.max(b[i].x, b[j].x);
          var oy = Math.min(b[i].y + b[i].h, b[j].y + b[j].h) - Math.max(b[i].y, b[j].y);
          if (ox > 1.5 && oy > 1.5) found.push(c.id + ': "' + b[i].text + '" overlaps "' + b[j].text + '"');
        }
      }
    });
    return found;
  }
  // Tables: none may reach past the page; one wider than its frame must scroll in it with its
  // first column kept in view
  function cutTables() {
    var found = [];
    var page = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > page + 1) found.push('the page is wider than the window');
    Array.prototype.forEach.call(document.querySelectorAll('table'), function (t, i) {
      var wrap = t.parentElement;
      var name = (wrap.previousElementSibling && wrap.previousElementSibling.textContent || 'table ' + i).slice(0, 60);
      var w = wrap.getBoundingClientRect();
      var scrolls = /auto|scroll/.test(getComputedStyle(wrap).overflowX);
      if (w.right > page + 1) found.push(name + ': its frame reaches past the page');
      if (t.scrollWidth > wrap.clientWidth + 1) {
        var first = t.querySelector('td, th');
        if (!scrolls) found.push(name + ': cut at the edge');
        else if (!first || getComputedStyle(first).position !== 'sticky') found.push(name + ': scrolls without its first column');
      }
    });
    return found;
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
  var layout = {width: window.innerWidth, overlaps: overlaps(), cut: cutTables()};
  var result = {charts: specs.length, rendered: specs.length - failed.length, failed: failed,
    errors: window.__ttErrors.slice(), resources: resources, layout: layout};
  var out = document.getElementById('tt-check');
  out.textContent = JSON.stringify(result);
  document.documentElement.setAttribute('data-tt-check',
    failed.length === 0 && result.errors.length === 0 && resources.length === 0
      && layout.overlaps.length === 0 && layout.cut.length === 0 ? 'ok' : 'failed');
  }
  // after load and a moment more, so that late events (a blocked fetch) are counted too
  window.addEventListener('load', function () { setTimeout(check, 100); });
})();
