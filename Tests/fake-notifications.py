#!/usr/bin/python3
"""A fake desktop notification server for the notification module's tests.

Starts a private D-Bus session bus (dbus-daemon, ended with this process), owns
org.freedesktop.Notifications on it and prints JSON lines on stdout: first {"address": ...}, then
{"notify": {...}} for each Notify call. With --click ACTION, a notification offering ACTION gets
ActionInvoked(id, ACTION) and then NotificationClosed(id, 2), as when a person clicks it. Ends on
SIGTERM or SIGINT. Needs python3-gi and dbus-daemon (Debian: python3-gi, dbus-daemon).
"""
import argparse
import json
import signal
import subprocess
import sys

from gi.repository import Gio, GLib

INTERFACE = "org.freedesktop.Notifications"
PATH = "/org/freedesktop/Notifications"
XML = f"""<node><interface name="{INTERFACE}">
  <method name="Notify">
    <arg type="s" direction="in"/><arg type="u" direction="in"/><arg type="s" direction="in"/>
    <arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="as" direction="in"/>
    <arg type="a{{sv}}" direction="in"/><arg type="i" direction="in"/><arg type="u" direction="out"/>
  </method>
  <method name="CloseNotification"><arg type="u" direction="in"/></method>
  <method name="GetCapabilities"><arg type="as" direction="out"/></method>
  <method name="GetServerInformation">
    <arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/><arg type="s" direction="out"/>
  </method>
  <signal name="ActionInvoked"><arg type="u"/><arg type="s"/></signal>
  <signal name="NotificationClosed"><arg type="u"/><arg type="u"/></signal>
</interface></node>"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--click", help="the action to invoke on each notification that offers it")
    options = parser.parse_args()
    daemon = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"],
                              stdout=subprocess.PIPE, text=True)
    address = daemon.stdout.readline().strip()
    loop = GLib.MainLoop()
    connection = Gio.DBusConnection.new_for_address_sync(
        address, Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION, None, None)
    # Ids start high so a client that confuses them with a counter of its own would be caught.
    state = {"next": 1000}

    def emit(name, values):
        connection.emit_signal(None, PATH, INTERFACE, name, GLib.Variant("(u" + ("s" if name == "ActionInvoked" else "u") + ")", values))
        return False

    def call(_connection, _sender, _path, _interface, method, parameters, invocation):
        if method == "Notify":
            app, _replaces, icon, title, body, actions, _hints, timeout = parameters.unpack()
            state["next"] += 1
            nid = state["next"]
            print(json.dumps({"notify": {"id": nid, "app": app, "icon": icon, "title": title, "body": body,
                                         "actions": actions, "timeout": timeout}}), flush=True)
            invocation.return_value(GLib.Variant("(u)", (nid,)))
            if options.click and options.click in actions[0::2]:
                GLib.idle_add(emit, "ActionInvoked", (nid, options.click))
                GLib.idle_add(emit, "NotificationClosed", (nid, 2))
        elif method == "CloseNotification":
            invocation.return_value(None)
            GLib.idle_add(emit, "NotificationClosed", (parameters.unpack()[0], 3))
        elif method == "GetCapabilities":
            invocation.return_value(GLib.Variant("(as)", (["actions", "body"],)))
        else:
            invocation.return_value(GLib.Variant("(ssss)", ("fake", "HybridShell tests", "1", "1.2")))

    node = Gio.DBusNodeInfo.new_for_xml(XML)
    connection.register_object(PATH, node.interfaces[0], call, None, None)

    def acquired(*_):
        print(json.dumps({"address": address}), flush=True)

    Gio.bus_own_name_on_connection(connection, INTERFACE, Gio.BusNameOwnerFlags.NONE, acquired, lambda *_: loop.quit())
    for number in (signal.SIGTERM, signal.SIGINT):
        GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, number, loop.quit)
    try:
        loop.run()
    finally:
        daemon.terminate()
        daemon.wait()


if __name__ == "__main__":
    sys.exit(main())
