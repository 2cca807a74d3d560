#!/usr/bin/python3
"""Opens a page in a browser context of its own through plain CDP, as a test framework does:
`Target.createBrowserContext`, then `Target.createTarget` in it, on a DevTools WebSocket of
its own (Python's standard library only: no CDP or WebSocket package). Prints one JSON line,
`{"context": ID, "target": ID}`, once the page is made, then holds the connection (Chromium
disposes of a context when the connection that made it closes) until it is stopped.

    python3 Tools/dev/cdp-context-page.py http://127.0.0.1:9222 http://127.0.0.1:8000/sensors
"""

import base64
import json
import os
import socket
import struct
import sys
import urllib.request


def connect(url):
    """A WebSocket to `ws://HOST:PORT/PATH`, handshake done; no Origin header (Chromium
    needs no --remote-allow-origins then)."""
    address, path = url[len("ws://"):].split("/", 1)
    host, port = address.rsplit(":", 1)
    sock = socket.create_connection((host.strip("[]"), int(port)), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /{path} HTTP/1.1\r\nHost: {address}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)
        if not byte:
            raise SystemExit("DevTools closed the connection during the handshake")
        head += byte
    if b" 101 " not in head.split(b"\r\n", 1)[0]:
        raise SystemExit("DevTools refused the WebSocket: " + head.decode(errors="replace"))
    return sock


def send(sock, text):
    data, mask = text.encode(), os.urandom(4)
    size = len(data)
    if size < 126:
        header = bytes([0x81, 0x80 | size])
    elif size < 65536:
        header = bytes([0x81, 0x80 | 126]) + struct.pack(">H", size)
    else:
        header = bytes([0x81, 0x80 | 127]) + struct.pack(">Q", size)
    sock.sendall(header + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise EOFError("DevTools closed the connection")
        data += chunk
    return data


def receive(sock):
    """One whole text message (fragments joined; the server's frames are not masked)."""
    message = b""
    while True:
        first, second = exactly(sock, 2)
        size = second & 0x7F
        if size == 126:
            size = struct.unpack(">H", exactly(sock, 2))[0]
        elif size == 127:
            size = struct.unpack(">Q", exactly(sock, 8))[0]
        payload = exactly(sock, size)
        if first & 0x0F == 0x8:
            raise EOFError("DevTools closed the WebSocket")
        if first & 0x0F in (0x9, 0xA):
            continue
        message += payload
        if first & 0x80:
            return message.decode()


def call(sock, ident, method, params):
    send(sock, json.dumps({"id": ident, "method": method, "params": params}))
    while True:
        answer = json.loads(receive(sock))
        if answer.get("id") == ident:
            if "error" in answer:
                raise SystemExit(f"{method}: {answer['error']}")
            return answer["result"]


def main():
    devtools, page = sys.argv[1], sys.argv[2]
    with urllib.request.urlopen(devtools.rstrip("/") + "/json/version", timeout=30) as answer:
        url = json.load(answer)["webSocketDebuggerUrl"]
    sock = connect(url)
    context = call(sock, 1, "Target.createBrowserContext", {})["browserContextId"]
    target = call(sock, 2, "Target.createTarget", {"url": page, "browserContextId": context})["targetId"]
    print(json.dumps({"context": context, "target": target}), flush=True)
    sock.settimeout(None)
    try:
        while True:
            receive(sock)
    except EOFError:
        pass


if __name__ == "__main__":
    main()
