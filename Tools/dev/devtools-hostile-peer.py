#!/usr/bin/python3
"""Hostile peers of the Chromium bridge's DevTools side, for its tests (issue 36.8).

Usage: devtools-hostile-peer.py MODE [PORT]
  squat    listens on 127.0.0.1:PORT (run it as another user); says, for each connection,
           whether a request came ("request") or it closed without one.
  silent   a WebSocket peer that upgrades and then never answers.
  flood    a WebSocket peer that upgrades, answers nothing and sends page attachments
           (Target.attachedToTarget) without end.
  endless  an HTTP peer whose /json/version answer never ends (1 KiB each 10 ms).
Prints "listening PORT" once it listens, "upgraded N" at each WebSocket connection.
"""

import base64
import hashlib
import json
import socket
import sys
import threading
import time

MAGIC = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def say(line):
    print(line, flush=True)


def read_headers(conn):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(4096)
        if not chunk:
            return None
        data += chunk
    return data


def upgrade(conn):
    headers = read_headers(conn)
    if headers is None:
        return False
    key = [line.split(b":", 1)[1].strip() for line in headers.split(b"\r\n") if line.lower().startswith(b"sec-websocket-key:")][0]
    accept = base64.b64encode(hashlib.sha1(key + MAGIC).digest())
    conn.sendall(b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: " + accept + b"\r\n\r\n")
    return True


def frame(text):
    payload = text.encode()
    if len(payload) < 126:
        return bytes([0x81, len(payload)]) + payload
    return bytes([0x81, 126]) + len(payload).to_bytes(2, "big") + payload


def drain(conn):
    try:
        while conn.recv(65536):
            pass
    except OSError:
        pass


def serve(conn, mode, number):
    try:
        if mode == "squat":
            say("connected")
            conn.settimeout(30)
            say("request" if conn.recv(4096) else "closed without a request")
            return
        if mode == "endless":
            read_headers(conn)
            conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n")
            while True:
                conn.sendall(b" " * 1024)
                time.sleep(0.01)
        if not upgrade(conn):
            return
        say("upgraded %d" % number)
        threading.Thread(target=drain, args=(conn,), daemon=True).start()
        if mode == "flood":
            count = 0
            while True:
                batch = b""
                for _ in range(1000):
                    count += 1
                    event = {"method": "Target.attachedToTarget", "params": {
                        "sessionId": "S%d-%d" % (number, count), "waitingForDebugger": True,
                        "targetInfo": {"targetId": "T%d" % count, "type": "page", "url": "about:blank"}}}
                    batch += frame(json.dumps(event))
                conn.sendall(batch)
        threading.Event().wait()
    except OSError:
        pass
    finally:
        conn.close()


def main():
    mode = sys.argv[1]
    port = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(16)
    say("listening %d" % listener.getsockname()[1])
    number = 0
    while True:
        conn, _ = listener.accept()
        number += 1
        threading.Thread(target=serve, args=(conn, mode, number), daemon=True).start()


if __name__ == "__main__":
    main()
