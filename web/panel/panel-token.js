// The panel's token. It comes once in the URL's fragment (#token=…), which a browser sends
// to no server, and is kept in this origin's sessionStorage (scheme, host and port: no
// other server on 127.0.0.1 sees it, as it would a cookie); the fragment leaves the
// address bar at once. The page presents it itself, on its WebSocket.

const KEY = "sextant-panel-token";

export function panelToken() {
    const given = /^#token=([0-9a-f]{64})$/.exec(location.hash);
    if (given) {
        sessionStorage.setItem(KEY, given[1]);
        history.replaceState(null, "", location.pathname + location.search);
    }
    return sessionStorage.getItem(KEY);
}

/** The WebSocket's subprotocols: the panel's, which it answers with, and the token. */
export function socketProtocols(token) {
    return ["sextant-panel", `sextant-token.${token}`];
}
