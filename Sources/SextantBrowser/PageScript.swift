/// The script the bridge adds to every document (`Page.addScriptToEvaluateOnNewDocument`,
/// run at once in the documents already open): it tells the bridge, through the binding
/// `sextantBridge` (`Runtime.addBinding`), when the page asks for its position and when its
/// visibility changes; and while the permission is `prompt` it holds the page's
/// `getCurrentPosition`/`watchPosition` until Sextant's prompt is answered, as a phone holds
/// an app's first request until the person answers, instead of letting headless Chromium
/// dismiss its own prompt.
public enum PageScript {
    public static let bindingName = "sextantBridge"
    /// Messages the script sends through the binding.
    public static let geolocationRequested = "geolocation"
    public static let visiblePrefix = "visibility:"
    /// What the bridge evaluates in every page after it changed the permission.
    public static let permissionChanged = "window.__sextantPermissionChanged && window.__sextantPermissionChanged()"

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
          const geolocation = navigator.geolocation;
          if (geolocation) {
            const getCurrentPosition = geolocation.getCurrentPosition.bind(geolocation);
            const watchPosition = geolocation.watchPosition.bind(geolocation);
            const clearWatch = geolocation.clearWatch.bind(geolocation);
            const watches = new Map();
            let nextWatch = 1;
            geolocation.getCurrentPosition = function (success, error, options) {
              tell('geolocation');
              decided().then(() => getCurrentPosition(success, error, options));
            };
            geolocation.watchPosition = function (success, error, options) {
              tell('geolocation');
              const id = nextWatch++;
              watches.set(id, null);
              decided().then(() => { if (watches.has(id)) watches.set(id, watchPosition(success, error, options)); });
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
