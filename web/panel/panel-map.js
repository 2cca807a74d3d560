// The map: the device's true position (a marker to drag), what each app was delivered
// (a reduced fix as its 2 km cell), accuracy circles, the replayed trace with its time
// cursor, the regions and their crossings, and a route drawn by clicking waypoints.
// Leaflet is Debian's libjs-leaflet, loaded as the global `L`.

import { panelToken } from "./panel-token.js";

const METRES_PER_DEGREE = 111320;
const APP_COLOURS = ["#2563eb", "#db2777", "#059669", "#d97706", "#7c3aed", "#0891b2", "#dc2626", "#4d7c0f"];

/** A basemap for offline use: tile borders as a grid, each tile labelled by its corner. */
const GridLayer = L.GridLayer.extend({
    createTile(coords) {
        const tile = document.createElement("div");
        tile.className = "grid-tile";
        const corner = this._map.unproject(coords.scaleBy(this.getTileSize()), coords.z);
        const label = document.createElement("span");
        label.textContent = `${corner.lat.toFixed(coords.z > 12 ? 4 : 2)}, ${L.Util.wrapNum(corner.lng, [-180, 180], true).toFixed(coords.z > 12 ? 4 : 2)}`;
        tile.appendChild(label);
        return tile;
    },
});

// The offline base map's lines (Tools/dev/make-basemap.py: GSHHG's coastlines, lakes and
// national borders), drawn on a canvas: a hundred thousand points as SVG would be slow.
const BASEMAP_STYLES = {
    coast: { color: "#4b6478", weight: 1.2 },
    lake: { color: "#6b8ca5", weight: 0.8 },
    border: { color: "#9a6b8f", weight: 1, dashArray: "4 3" },
};

/** "lat, lon" (or "lat lon") in degrees, or null. */
export function parseCoordinates(text) {
    const match = /^\s*(-?\d+(?:\.\d+)?)\s*[, ]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text || "");
    if (!match) return null;
    const lat = Number(match[1]), lon = Number(match[2]);
    return Math.abs(lat) <= 90 && Math.abs(lon) <= 180 ? { lat, lon } : null;
}

export class PanelMap {
    constructor(element, { call, report }) {
        this.call = call;
        this.report = report;
        this.map = L.map(element, { worldCopyJump: true, maxZoom: 19 }).setView([48.8566, 2.3522], 4);
        this.basemap = new GridLayer({ maxZoom: 19 }).addTo(this.map);
        L.control.scale({ imperial: false, maxWidth: 160 }).addTo(this.map);
        this.mode = "locate";
        this.centred = false;
        this.apps = new Map();
        this.waypoints = [];
        this.layers = {
            trace: L.layerGroup().addTo(this.map),
            regions: L.layerGroup().addTo(this.map),
            crossings: L.layerGroup().addTo(this.map),
            apps: L.layerGroup().addTo(this.map),
            route: L.layerGroup().addTo(this.map),
        };
        this.accuracy = L.circle([0, 0], { radius: 0, color: "#111827", weight: 1, fillOpacity: 0.08, interactive: false });
        this.published = L.circleMarker([0, 0], { radius: 4, color: "#6b7280", weight: 1, fillOpacity: 0.6, interactive: false });
        this.truth = L.marker([0, 0], {
            draggable: true, keyboard: true, title: "The device: drag to move it", zIndexOffset: 1000,
            icon: L.divIcon({ className: "truth-icon", html: '<svg viewBox="0 0 20 20" width="20" height="20"><circle cx="10" cy="10" r="7" fill="#111827" stroke="#fff" stroke-width="3"/></svg>', iconSize: [20, 20] }),
        });
        this.truth.on("dragend", () => this.setLocation(this.truth.getLatLng()));
        this.map.on("click", (event) => this.clicked(event.latlng));
        // A click after "Draw circle" is a region's centre instead (set by the region tool).
        this.nextClick = null;
        this.map.on("mousemove", (event) => this.showPointer(event.latlng));
    }

    /** The offline base map under the grid, when the panel has one (else the grid alone). */
    async loadBasemap() {
        const started = performance.now();
        const response = await fetch("/basemap.geojson", { headers: { Authorization: `Bearer ${panelToken()}` } });
        if (!response.ok) return false;
        const data = await response.json();
        const renderer = L.canvas({ padding: 0.2 });
        this.coastlines = L.geoJSON(data, { renderer, interactive: false, style: (feature) => BASEMAP_STYLES[feature.properties.kind] || BASEMAP_STYLES.coast });
        if (this.basemap instanceof GridLayer) this.coastlines.addTo(this.map);
        this.basemapSource = data.source || "GSHHG";
        this.map.attributionControl.addAttribution("coastlines and borders: GSHHG (LGPL)");
        // Fetched, parsed and drawn (ms): the browser test prints it.
        this.basemapMs = performance.now() - started;
        return true;
    }

    /** Shows a place typed as "lat, lon"; false when the text is not one. */
    goTo(text) {
        const where = parseCoordinates(text);
        if (!where) return false;
        this.map.setView([where.lat, where.lon], Math.max(this.map.getZoom(), 13));
        return true;
    }

    showDeviceHere() {
        if (this.truth._map) this.map.setView(this.truth.getLatLng(), Math.max(this.map.getZoom(), 15));
    }

    useTiles(template) {
        if (!template) return;
        this.map.removeLayer(this.basemap);
        if (this.coastlines) this.map.removeLayer(this.coastlines);
        this.basemap = L.tileLayer(template, { maxZoom: 19, attribution: "tiles: " + new URL(template.replace(/[{}]/g, ""), location.href).host }).addTo(this.map);
    }

    showPointer(latlng) {
        document.getElementById("map-position").textContent = `${latlng.lat.toFixed(6)}, ${L.Util.wrapNum(latlng.lng, [-180, 180], true).toFixed(6)}`;
    }

    clicked(latlng) {
        if (this.nextClick) {
            const action = this.nextClick;
            this.nextClick = null;
            document.getElementById("map").classList.remove("drawing");
            return action({ lat: latlng.lat, lon: L.Util.wrapNum(latlng.lng, [-180, 180], true) });
        }
        const point = { lat: latlng.lat, lon: L.Util.wrapNum(latlng.lng, [-180, 180], true) };
        if (this.mode === "route") {
            this.waypoints.push(point);
            this.drawRoute();
        } else {
            this.setLocation(latlng);
        }
    }

    setLocation(latlng) {
        const lat = latlng.lat, lon = L.Util.wrapNum(latlng.lng, [-180, 180], true);
        this.call("device.set", { location: { lat, lon } }).catch(this.report);
    }

    /** A fix the daemon published: the device's position, its truth when a profile moved it. */
    showDevice(fix) {
        const truth = fix.truth || fix;
        const where = [truth.lat, truth.lon];
        this.truth.setLatLng(where).addTo(this.map);
        this.accuracy.setLatLng([fix.lat, fix.lon]).setRadius(fix.hAcc || 0).addTo(this.map);
        if (fix.truth) this.published.setLatLng([fix.lat, fix.lon]).addTo(this.map);
        else this.published.remove();
        if (!this.centred) {
            this.centred = true;
            this.map.setView(where, Math.max(this.map.getZoom(), 15));
        }
    }

    colourOf(app) {
        let hash = 0;
        for (const c of app) hash = (hash * 31 + c.charCodeAt(0)) | 0;
        return APP_COLOURS[Math.abs(hash) % APP_COLOURS.length];
    }

    /** A location delivered to one app's session: a dot and its circle, or its 2 km cell. */
    showDelivered(event) {
        const key = `${event.app}#${event.session}`;
        let shown = this.apps.get(key);
        if (shown) this.layers.apps.removeLayer(shown);
        const colour = this.colourOf(event.app);
        const reduced = event.accuracy === "reduced";
        const label = `${event.app} (session ${event.session}): ${reduced ? "reduced, its 2 km cell" : "full"} ±${Math.round(event.hAcc)} m`;
        shown = L.layerGroup();
        if (reduced) {
            const dLat = 1000 / METRES_PER_DEGREE, dLon = 1000 / (METRES_PER_DEGREE * Math.cos(event.lat * Math.PI / 180));
            L.rectangle([[event.lat - dLat, event.lon - dLon], [event.lat + dLat, event.lon + dLon]],
                { color: colour, weight: 2, dashArray: "6 4", fillOpacity: 0.06 }).bindTooltip(label).addTo(shown);
        } else {
            L.circle([event.lat, event.lon], { radius: event.hAcc || 0, color: colour, weight: 1, fillOpacity: 0.05, interactive: false }).addTo(shown);
        }
        L.circleMarker([event.lat, event.lon], { radius: 5, color: colour, fillColor: colour, fillOpacity: 0.9, weight: 2 }).bindTooltip(label).addTo(shown);
        shown.addTo(this.layers.apps);
        this.apps.set(key, shown);
    }

    /** Drops what was shown for sessions that are gone. */
    keepSessions(sessions) {
        for (const [key, shown] of this.apps) {
            if (!sessions.has(Number(key.split("#").pop()))) {
                this.layers.apps.removeLayer(shown);
                this.apps.delete(key);
            }
        }
    }

    showRegions(regions) {
        this.layers.regions.clearLayers();
        for (const region of regions) {
            const colour = region.state === "inside" ? "#15803d" : region.state === "outside" ? "#b45309" : "#6b7280";
            L.circle([region.lat, region.lon], { radius: region.radius, color: colour, weight: 2, fillOpacity: 0.1 })
                .bindTooltip(`${region.app}: ${region.identifier} (${region.state}), ${region.radius} m`).addTo(this.layers.regions);
        }
    }

    /** A region crossing carries no coordinates: it is marked where the device was. */
    showCrossing(event) {
        const where = this.truth.getLatLng();
        L.circleMarker(where, { radius: 6, color: event.transition === "exit" ? "#b45309" : "#15803d", weight: 3, fill: false })
            .bindTooltip(`${event.app}: ${event.identifier} ${event.transition} at ${event.time}`).addTo(this.layers.crossings);
    }

    showTrace(trace) {
        this.layers.trace.clearLayers();
        this.trace = trace;
        if (!trace || trace.fixes.length === 0) return;
        const line = L.polyline(trace.fixes.map((f) => [f.lat, f.lon]), { color: "#7c3aed", weight: 3, opacity: 0.7 }).addTo(this.layers.trace);
        this.cursor = L.circleMarker([trace.fixes[0].lat, trace.fixes[0].lon], { radius: 7, color: "#7c3aed", fillColor: "#fff", fillOpacity: 1, weight: 3 })
            .bindTooltip("replay position").addTo(this.layers.trace);
        this.map.fitBounds(line.getBounds(), { padding: [30, 30] });
        this.centred = true;
    }

    /** The trace's time cursor at `position` seconds: the last fix at or before it. */
    moveCursor(position) {
        if (!this.trace || !this.cursor || this.trace.fixes.length === 0) return;
        const fixes = this.trace.fixes;
        let low = 0, high = fixes.length - 1;
        while (low < high) {
            const middle = (low + high + 1) >> 1;
            if (fixes[middle].t <= position) low = middle;
            else high = middle - 1;
        }
        this.cursor.setLatLng([fixes[low].lat, fixes[low].lon]);
    }

    drawRoute() {
        this.layers.route.clearLayers();
        const points = this.waypoints.map((w) => [w.lat, w.lon]);
        if (points.length > 1) L.polyline(points, { color: "#0f766e", weight: 3, dashArray: "8 6" }).addTo(this.layers.route);
        points.forEach((p, index) => L.circleMarker(p, { radius: 5, color: "#0f766e", fillColor: "#fff", fillOpacity: 1 })
            .bindTooltip(`waypoint ${index + 1}`).addTo(this.layers.route));
        let metres = 0;
        for (let i = 1; i < points.length; i++) metres += this.map.distance(points[i - 1], points[i]);
        document.getElementById("route-info").textContent = points.length ? `${points.length} waypoints, ${(metres / 1000).toFixed(2)} km` : "";
        document.getElementById("route-play").disabled = points.length < 2;
        document.getElementById("route-clear").disabled = points.length === 0;
        this.routeMetres = metres;
    }
}
