/// The plot page's own script and style: plain JavaScript, no library. The script reads
/// the page's data block (`plot-data`: the projection, the lanes, the fixes, the events)
/// and gives the picture a tooltip for the fix or event under the pointer, zoom (wheel,
/// buttons) and pan (drag) of the map, an event list whose rows mark their moment, and,
/// when the page names a tile template, the basemap's tiles under the track. The page's
/// Content-Security-Policy admits exactly these two texts, by their SHA-256.
enum PlotPageAssets {
    static let style = #"""
body{font-family:"DejaVu Sans",Helvetica,Arial,sans-serif;margin:1em;color:#222}
#plot svg{max-width:100%;height:auto;display:block;cursor:crosshair;user-select:none}
#tip{position:absolute;background:#111827;color:#fff;padding:4px 8px;border-radius:4px;font-size:12px;white-space:pre;pointer-events:none}
table{border-collapse:collapse;margin:.5em 0}
th,td{text-align:left;padding:2px 12px 2px 0;vertical-align:top}
#events td:nth-child(-n+3),#events th{white-space:nowrap}
#events tbody tr{cursor:pointer}
#events tbody tr:hover,#events tbody tr.chosen{background:#fef3c7}
.tools button{font-size:14px;margin-right:4px}
.help{color:#555;font-size:13px}
"""#

    static let script = #"""
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("plot-data").textContent);
  var svg = document.querySelector("#plot svg"), NS = "http://www.w3.org/2000/svg";
  var view = document.getElementById("map-view"), pins = document.getElementById("map-pins");
  var tiles = document.getElementById("map-tiles"), tip = document.getElementById("tip");
  var m = data.map, lanes = data.lanes, k = 1, tx = 0, ty = 0, drag = null;
  var perDegree = 6371008.8 * Math.PI / 180;

  function project(lat, lon) {
    return [m.x + m.w / 2 + (lon - m.lon) * perDegree * m.cos * m.scale, m.y + m.h / 2 - (lat - m.lat) * perDegree * m.scale];
  }
  function unproject(x, y) {
    return [m.lat - (y - m.y - m.h / 2) / m.scale / perDegree, m.lon + (x - m.x - m.w / 2) / m.scale / perDegree / m.cos];
  }
  var points = data.fixes.map(function (f) { return project(f[1], f[2]); });
  function screen(p) { return [p[0] * k + tx, p[1] * k + ty]; }
  function timeX(t) { return lanes.x + lanes.w * (lanes.duration > 0 ? Math.min(Math.max(t / lanes.duration, 0), 1) : 0); }
  function clock(t) {
    if (t < 60) return (Math.round(t * 10) / 10).toFixed(1) + " s";
    var s = Math.round(t), h = Math.floor(s / 3600), mm = Math.floor(s / 60) % 60, ss = ("0" + (s % 60)).slice(-2);
    return h > 0 ? h + ":" + ("0" + mm).slice(-2) + ":" + ss : mm + ":" + ss;
  }
  function number(v, unit) { return v === null ? "" : (Math.round(v * 100) / 100) + unit; }
  function describeFix(i) {
    var f = data.fixes[i], extra = [number(f[4], " m/s"), number(f[5], "°"), f[6] === null ? "" : "alt " + number(f[6], " m")];
    return ["fix " + (f[8] + 1) + " of " + data.fixCount + " · +" + clock(f[0]) + " · " + f[7],
      f[1].toFixed(6) + ", " + f[2].toFixed(6) + " · ±" + number(f[3], " m"), extra.filter(Boolean).join(" · ")].filter(Boolean).join("\n");
  }
  function describeEvent(e) { return "+" + clock(e.t) + " · " + (e.app ? e.app + " · " : "") + e.what; }

  function place(g, x, y) { g.setAttribute("transform", "translate(" + x.toFixed(1) + " " + y.toFixed(1) + ")"); }
  function apply() {
    view.setAttribute("transform", "translate(" + tx.toFixed(1) + " " + ty.toFixed(1) + ") scale(" + k + ")");
    pins.querySelectorAll("g[data-x]").forEach(function (g) {
      var p = screen([+g.getAttribute("data-x"), +g.getAttribute("data-y")]);
      place(g, p[0], p[1]);
    });
    updateScale();
    if (data.tiles) loadTiles();
  }
  var bar = document.getElementById("scale-bar"), barX = m.x + 16;
  function nice(v) {
    var p = Math.pow(10, Math.floor(Math.log10(v)));
    return [5, 2, 1].map(function (f) { return f * p; }).filter(function (x) { return x <= v; })[0] || p;
  }
  function updateScale() {
    var metres = nice(m.w / 5 / (m.scale * k)), len = metres * m.scale * k, parts = bar.children;
    parts[0].setAttribute("width", len + 12);
    parts[1].setAttribute("x2", barX + len);
    parts[3].setAttribute("x1", barX + len); parts[3].setAttribute("x2", barX + len);
    parts[4].setAttribute("x", barX + len / 2);
    parts[4].textContent = metres >= 1000 ? +(metres / 1000).toPrecision(3) + " km" : +metres.toPrecision(3) + " m";
  }
  function svgPoint(ev) {
    var pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    return pt.matrixTransform(svg.getScreenCTM().inverse());
  }
  function inMap(p) { return p.x >= m.x && p.x <= m.x + m.w && p.y >= m.y && p.y <= m.y + m.h; }
  function inLanes(p) { return p.x >= lanes.x - 4 && p.x <= lanes.x + lanes.w + 4 && p.y >= lanes.top && p.y <= lanes.bottom; }

  function nearestFix(p, radius) {
    var best = -1, bestD = radius * radius;
    for (var i = 0; i < points.length; i++) {
      var s = screen(points[i]), dx = s[0] - p.x, dy = s[1] - p.y, d = dx * dx + dy * dy;
      if (d < bestD) { best = i; bestD = d; }
    }
    return best;
  }
  function fixAt(t) {
    var best = 0;
    for (var i = 0; i < data.fixes.length; i++) if (Math.abs(data.fixes[i][0] - t) < Math.abs(data.fixes[best][0] - t)) best = i;
    return best;
  }
  function eventsNear(p) {
    var near = data.events.filter(function (e) {
      // An app's prompt marks stand in the gap above its lane.
      if (e.y !== undefined && (p.y < e.y - 9 || p.y > e.y + lanes.height)) return false;
      return Math.abs(timeX(e.t) - p.x) <= 5;
    });
    return near.slice(0, 8);
  }

  var mark = document.getElementById("hover-mark"), cursor = document.getElementById("time-cursor");
  function show(text, ev) {
    tip.textContent = text;
    tip.hidden = false;
    tip.style.left = (ev.pageX + 14) + "px";
    tip.style.top = (ev.pageY + 14) + "px";
  }
  function hide() { tip.hidden = true; mark.setAttribute("visibility", "hidden"); cursor.setAttribute("visibility", "hidden"); }
  function markFix(i, t) {
    var s = screen(points[i]);
    place(mark, s[0], s[1]);
    mark.setAttribute("data-x", points[i][0]); mark.setAttribute("data-y", points[i][1]);
    mark.setAttribute("visibility", inMap({ x: s[0], y: s[1] }) ? "visible" : "hidden");
    var x = timeX(t === undefined ? data.fixes[i][0] : t);
    cursor.setAttribute("x1", x); cursor.setAttribute("x2", x);
    cursor.setAttribute("visibility", "visible");
  }
  function hover(ev) {
    var p = svgPoint(ev);
    if (inMap(p)) {
      var i = nearestFix(p, 10);
      if (i < 0) return hide();
      markFix(i);
      return show(describeFix(i), ev);
    }
    if (!inLanes(p)) return hide();
    var t = (p.x - lanes.x) / lanes.w * lanes.duration, near = eventsNear(p), at = near.length ? near[0].t : t, i = fixAt(at);
    markFix(i, at);
    show(near.length ? near.map(describeEvent).join("\n") : "+" + clock(Math.max(0, Math.min(t, lanes.duration))) + "\n" + describeFix(i), ev);
  }

  svg.addEventListener("mousemove", function (ev) {
    if (!drag) return hover(ev);
    var p = svgPoint(ev);
    tx = drag.tx + p.x - drag.x; ty = drag.ty + p.y - drag.y;
    apply();
  });
  svg.addEventListener("mouseleave", hide);
  svg.addEventListener("mousedown", function (ev) {
    var p = svgPoint(ev);
    if (!inMap(p)) return;
    drag = { x: p.x, y: p.y, tx: tx, ty: ty };
    ev.preventDefault();
  });
  window.addEventListener("mouseup", function () { drag = null; });
  svg.addEventListener("wheel", function (ev) {
    var p = svgPoint(ev);
    if (!inMap(p)) return;
    ev.preventDefault();
    zoom(ev.deltaY < 0 ? 1.25 : 0.8, p);
  }, { passive: false });
  function zoom(factor, p) {
    var next = Math.min(512, Math.max(1, k * factor));
    tx = p.x - (p.x - tx) * next / k; ty = p.y - (p.y - ty) * next / k; k = next;
    if (k === 1) { tx = 0; ty = 0; }
    apply();
  }
  svg.addEventListener("dblclick", function () { k = 1; tx = 0; ty = 0; apply(); });
  document.getElementById("zoom-in").addEventListener("click", function () { zoom(1.5, { x: m.x + m.w / 2, y: m.y + m.h / 2 }); });
  document.getElementById("zoom-out").addEventListener("click", function () { zoom(1 / 1.5, { x: m.x + m.w / 2, y: m.y + m.h / 2 }); });
  document.getElementById("zoom-reset").addEventListener("click", function () { k = 1; tx = 0; ty = 0; apply(); });

  document.querySelectorAll("#events tbody tr").forEach(function (row) {
    row.addEventListener("click", function () {
      var t = +row.getAttribute("data-t");
      document.querySelectorAll("#events tr.chosen").forEach(function (r) { r.classList.remove("chosen"); });
      row.classList.add("chosen");
      markFix(fixAt(t), t);
    });
  });

  var shown = {};
  function loadTiles() {
    var nw = unproject((m.x - tx) / k, (m.y - ty) / k), se = unproject((m.x + m.w - tx) / k, (m.y + m.h - ty) / k);
    var z = Math.max(0, Math.min(19, Math.round(Math.log2(156543.03392 * m.cos * m.scale * k)))), n = Math.pow(2, z);
    function tileX(lon) { return Math.floor((lon + 180) / 360 * n); }
    function tileY(lat) {
      var r = Math.max(-85, Math.min(85, lat)) * Math.PI / 180;
      return Math.floor((1 - Math.log(Math.tan(r) + 1 / Math.cos(r)) / Math.PI) / 2 * n);
    }
    function lonOf(x) { return x / n * 360 - 180; }
    function latOf(y) { return Math.atan(Math.sinh(Math.PI * (1 - 2 * y / n))) * 180 / Math.PI; }
    var x0 = tileX(nw[1]), x1 = tileX(se[1]), y0 = Math.max(0, tileY(nw[0])), y1 = Math.min(n - 1, tileY(se[0]));
    if ((x1 - x0 + 1) * (y1 - y0 + 1) > 120) return;
    var wanted = {};
    for (var x = x0; x <= x1; x++) for (var y = y0; y <= y1; y++) {
      var key = z + "/" + x + "/" + y;
      wanted[key] = true;
      if (shown[key]) continue;
      var a = project(latOf(y), lonOf(x)), b = project(latOf(y + 1), lonOf(x + 1)), img = document.createElementNS(NS, "image");
      var wrapped = ((x % n) + n) % n;
      img.setAttribute("href", data.tiles.replace("{z}", z).replace("{x}", wrapped).replace("{y}", y).replace("{s}", "abc".charAt((wrapped + y) % 3)));
      img.setAttribute("x", a[0]); img.setAttribute("y", a[1]);
      img.setAttribute("width", b[0] - a[0]); img.setAttribute("height", b[1] - a[1]);
      img.setAttribute("preserveAspectRatio", "none");
      tiles.appendChild(img);
      shown[key] = img;
    }
    Object.keys(shown).forEach(function (key) { if (!wanted[key]) { tiles.removeChild(shown[key]); delete shown[key]; } });
  }
  apply();
})();
"""#
}
