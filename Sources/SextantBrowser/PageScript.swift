/// The script the bridge adds to every document (`Page.addScriptToEvaluateOnNewDocument`,
/// run at once in the documents already open): it tells the bridge, through the binding
/// `sextantBridge` (`Runtime.addBinding`), when the page asks for its position and when its
/// visibility changes; and while the permission is `prompt` it holds the page's
/// `getCurrentPosition`/`watchPosition` until Sextant's prompt is answered, as a phone holds
/// an app's first request until the person answers, instead of letting headless Chromium
/// dismiss its own prompt.
///
/// It also keeps from the page the POSITION_UNAVAILABLE that Chromium makes up whenever an
/// override replaces another while a request waits (`GeolocationImpl::SetOverride` reports
/// "unavailable" to the waiting request before the new position): at every fix of a stream,
/// not a thing Sextant decided. A page hears POSITION_UNAVAILABLE only during an outage
/// (``outage(_:)``, set by the bridge before the override that starts or ends one), a watch
/// once per outage; otherwise a watch waits for the next position, and a one-shot request
/// asks again (it waits for the next override: Chromium reports a result once).
///
/// And it gives each position the fix's own time (``state(outage:fixes:)``): Chromium
/// stamps an overridden position with its own clock.
public enum PageScript {
    public static let bindingName = "sextantBridge"
    /// Messages the script sends through the binding.
    public static let geolocationRequested = "geolocation"
    public static let visiblePrefix = "visibility:"
    /// What the bridge evaluates in every page after it changed the permission.
    public static let permissionChanged = "window.__sextantPermissionChanged && window.__sextantPermissionChanged()"

    /// Whether Sextant says the page's position is unavailable, as the script reads it; a
    /// frame reads its top document's where it may.
    public static func outage(_ outage: Bool) -> String { "window.__sextantOutage = \(outage);" }

    /// A fix the page was given, and its own time (app.sock's `time`, milliseconds since
    /// the epoch): what the script stamps a position with the same coordinates with.
    public struct Fix: Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var milliseconds: Double
    }

    /// How many of the latest fixes a page knows the times of: the override the page hears
    /// may be one or two behind the latest the bridge told it of.
    public static let fixesKept = 4

    /// What the script reads, set in every document: the outage, and the latest fixes'
    /// times (`Emulation.setGeolocationOverride` has no time: Chromium stamps each position
    /// with its own clock, so the script puts the fix's own time in its place).
    public static func state(outage: Bool, fixes: [Fix]) -> String {
        let list = fixes.map { "[\($0.latitude),\($0.longitude),\($0.milliseconds)]" }.joined(separator: ",")
        return Self.outage(outage) + " window.__sextantFixes = [\(list)];"
    }

    public static let source = #"""
        (() => {
          if (window.__sextantPermissionChanged) return;
          const tell = (message) => { try { window.sextantBridge(message); } catch (e) {} };
          const waiting = [];
          const release = () => { while (waiting.length) waiting.shift()(); };
          const decided = () => navigator.permissions.query({ name: 'geolocation' }).then((status) => {
            if (status.state !== 'prompt') return;
            return new Promise((resolve) => {
              waiting.push(resolve);
              status.onchange = () => { if (status.state !== 'prompt') release(); };
            });
          });
          window.__sextantPermissionChanged = () => {
            navigator.permissions.query({ name: 'geolocation' }).then((status) => { if (status.state !== 'prompt') release(); });
          };
          const outage = () => {
            try { if (typeof window.top.__sextantOutage === 'boolean') return window.top.__sextantOutage; } catch (e) {}
            return window.__sextantOutage === true;
          };
          const madeUp = (error) => error && error.code === 2 && !outage();
          const fixes = () => {
            try { if (Array.isArray(window.top.__sextantFixes)) return window.top.__sextantFixes; } catch (e) {}
            return Array.isArray(window.__sextantFixes) ? window.__sextantFixes : [];
          };
          // The fix's own time in place of Chromium's clock: the latest fix told with the
          // position's coordinates; a position the bridge told no time of keeps Chromium's.
          const stamped = (position) => {
            const c = position.coords;
            const fix = fixes().slice().reverse().find((f) => f[0] === c.latitude && f[1] === c.longitude);
            if (!fix) return position;
            try {
              Object.defineProperty(position, 'timestamp', { value: fix[2], enumerable: true });
              const coords = () => (c.toJSON ? c.toJSON() : c);
              Object.defineProperty(position, 'toJSON', { value: () => ({ timestamp: fix[2], coords: coords() }) });
            } catch (e) {}
            return position;
          };
          const geolocation = navigator.geolocation;
          if (geolocation) {
            const getCurrentPosition = geolocation.getCurrentPosition.bind(geolocation);
            const watchPosition = geolocation.watchPosition.bind(geolocation);
            const clearWatch = geolocation.clearWatch.bind(geolocation);
            const watches = new Map();
            let nextWatch = 1;
            geolocation.getCurrentPosition = function (success, error, options) {
              tell('geolocation');
              const attempt = () => getCurrentPosition((position) => success(stamped(position)), (e) => madeUp(e) ? attempt() : error && error(e), options);
              decided().then(attempt);
            };
            geolocation.watchPosition = function (success, error, options) {
              tell('geolocation');
              const id = nextWatch++;
              watches.set(id, null);
              let unavailable = false;
              const positioned = (position) => { unavailable = false; success(stamped(position)); };
              const heard = (e) => {
                if (madeUp(e) || (e.code === 2 && unavailable)) return;
                unavailable = e.code === 2;
                if (error) error(e);
              };
              decided().then(() => { if (watches.has(id)) watches.set(id, watchPosition(positioned, heard, options)); });
              return id;
            };
            geolocation.clearWatch = function (id) {
              const real = watches.get(id);
              watches.delete(id);
              if (real !== null && real !== undefined) clearWatch(real);
            };
          }
          const visibility = () => tell('visibility:' + document.visibilityState);
          document.addEventListener('visibilitychange', visibility);
          visibility();
        })();
        """#
}
