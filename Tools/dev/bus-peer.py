#!/usr/bin/python3
"""D-Bus peers driven over stdin/stdout, for the tests of Sextant's D-Bus faces.

One process holds any number of connections to one bus (GLib's Gio, the library GeoClue's
own clients use), so that a test can be several peers at once: a client's owner, another
peer listening, a peer forging a signal, dozens of connections of one uid. Run it under
`setpriv --reuid` to be another user.

    bus-peer.py ADDRESS

reads one JSON request a line and answers each with one JSON line, in order:

    {"op": "connect"}                     -> {"conn": N, "name": ":1.42"}
    {"op": "call", "conn": N, "dest": D, "path": P, "interface": I, "method": M,
     "args": "GVARIANT TEXT" (a tuple, or omitted)}
                                          -> {"reply": "PRINTED VALUE"}
                                             or {"error": "org.x.Error", "message": "..."}
    {"op": "create-clients", "conn": N, "count": C}
        GeoClue's CreateClient C times     -> {"made": K, "errors": ["org.x.Error: ...", ...]}
    {"op": "emit", "conn": N, "dest": D or null, "path": P, "interface": I, "member": M,
     "args": "GVARIANT TEXT"}            -> {"sent": true}
    {"op": "listen", "conn": N}           every signal the connection receives from now on
                                          is printed as {"signal": {...}}; -> {"listening": true}
    {"op": "close", "conn": N}            -> {"closed": true}

It ends at the end of its input. Signals arrive between answers, as they come.
"""

import json
import sys

from gi.repository import Gio, GLib

GEOCLUE = "org.freedesktop.GeoClue2"
MANAGER = "/org/freedesktop/GeoClue2/Manager"


class Peers:
    def __init__(self, address):
        self.address = address
        self.connections = {}

    def connect(self, _request):
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        connection = Gio.DBusConnection.new_for_address_sync(self.address, flags, None, None)
        number = len(self.connections)
        self.connections[number] = connection
        return {"conn": number, "name": connection.get_unique_name()}

    def call(self, request):
        connection = self.connections[request["conn"]]
        args = GLib.Variant.parse(None, request["args"], None, None) if request.get("args") else None
        try:
            result = connection.call_sync(
                request["dest"], request["path"], request["interface"], request["method"], args, None,
                Gio.DBusCallFlags.NONE, 25000, None)
        except GLib.Error as error:
            return remote_error(error)
        return {"reply": result.print_(True)}

    def create_clients(self, request):
        connection = self.connections[request["conn"]]
        made, errors = 0, []
        for _ in range(request["count"]):
            try:
                connection.call_sync(
                    GEOCLUE, MANAGER, GEOCLUE + ".Manager", "CreateClient", None, None, Gio.DBusCallFlags.NONE, 25000, None)
                made += 1
            except GLib.Error as error:
                failure = remote_error(error)
                errors.append(failure["error"] + ": " + failure["message"])
        return {"made": made, "errors": errors}

    def emit(self, request):
        connection = self.connections[request["conn"]]
        args = GLib.Variant.parse(None, request["args"], None, None) if request.get("args") else None
        connection.emit_signal(request.get("dest"), request["path"], request["interface"], request["member"], args)
        connection.flush_sync(None)
        return {"sent": True}

    def listen(self, request):
        number = request["conn"]
        connection = self.connections[number]

        def heard(_connection, sender, path, interface, member, parameters):
            signal = {"conn": number, "sender": sender, "path": path, "interface": interface, "member": member,
                      "args": parameters.print_(True)}
            answer({"signal": signal})

        connection.signal_subscribe(None, None, None, None, None, Gio.DBusSignalFlags.NO_MATCH_RULE, heard)
        # Every broadcast signal on the bus; the match is in place once the bus answers.
        connection.call_sync(
            "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch",
            GLib.Variant("(s)", ("type='signal'",)), None, Gio.DBusCallFlags.NONE, 25000, None)
        return {"listening": True}

    def close(self, request):
        self.connections.pop(request["conn"]).close_sync(None)
        return {"closed": True}


def remote_error(error):
    name = Gio.DBusError.get_remote_error(error) or "(local) " + str(error.code)
    prefix = "GDBus.Error:" + name + ": "
    message = error.message[len(prefix):] if error.message.startswith(prefix) else error.message
    return {"error": name, "message": message}


def answer(value):
    sys.stdout.write(json.dumps(value) + "\n")
    sys.stdout.flush()


def main():
    peers = Peers(sys.argv[1])
    operations = {
        "connect": peers.connect, "call": peers.call, "create-clients": peers.create_clients,
        "emit": peers.emit, "listen": peers.listen, "close": peers.close,
    }
    loop = GLib.MainLoop()
    stdin = GLib.IOChannel.unix_new(sys.stdin.fileno())

    def readable(channel, condition):
        line = channel.readline()
        if not line:
            loop.quit()
            return False
        request = json.loads(line)
        try:
            answer(operations[request["op"]](request))
        except Exception as error:  # the test reads the failure as the answer
            answer({"failed": "%s: %s" % (type(error).__name__, error)})
        return True

    GLib.io_add_watch(stdin, GLib.PRIORITY_DEFAULT, GLib.IO_IN | GLib.IO_HUP, readable)
    loop.run()


if __name__ == "__main__":
    main()
