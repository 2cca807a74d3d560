/// org.freedesktop.DBus.Introspectable's XML, written from the same tables the router
/// dispatches from, so what a client reads is what the object answers.
enum DBusIntrospection {
    static let doctype =
        #"<!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">"#

    /// The standard interfaces every exported object answers (Peer through sd-bus), in the
    /// order GDBus lists them, so that a service's `gdbus introspect` reads as the real one's.
    static let standardInterfaces = """
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get">
              <arg type="s" name="interface_name" direction="in"/>
              <arg type="s" name="property_name" direction="in"/>
              <arg type="v" name="value" direction="out"/>
            </method>
            <method name="GetAll">
              <arg type="s" name="interface_name" direction="in"/>
              <arg type="a{sv}" name="properties" direction="out"/>
            </method>
            <method name="Set">
              <arg type="s" name="interface_name" direction="in"/>
              <arg type="s" name="property_name" direction="in"/>
              <arg type="v" name="value" direction="in"/>
            </method>
            <signal name="PropertiesChanged">
              <arg type="s" name="interface_name"/>
              <arg type="a{sv}" name="changed_properties"/>
              <arg type="as" name="invalidated_properties"/>
            </signal>
          </interface>
          <interface name="org.freedesktop.DBus.Introspectable">
            <method name="Introspect">
              <arg type="s" name="xml_data" direction="out"/>
            </method>
          </interface>
          <interface name="org.freedesktop.DBus.Peer">
            <method name="Ping"/>
            <method name="GetMachineId">
              <arg type="s" name="machine_uuid" direction="out"/>
            </method>
          </interface>
        """

    /// The node at a path: its object's interfaces (none for a node that only leads to
    /// others) and its children's names.
    static func xml(for object: DBusObject?, children: [String]) -> String {
        var text = doctype + "\n<node>\n"
        if let object {
            text += standardInterfaces
            for interface in object.interfaces { text += xml(interface) }
        }
        for child in children { text += "  <node name=\"\(escaped(child))\"/>\n" }
        return text + "</node>\n"
    }

    private static func xml(_ interface: DBusInterface) -> String {
        var text = "  <interface name=\"\(escaped(interface.name))\">\n"
        for method in interface.methods {
            let arguments = method.inputs.map { ($0, "in") } + method.outputs.map { ($0, "out") }
            if arguments.isEmpty {
                text += "    <method name=\"\(escaped(method.name))\"/>\n"
                continue
            }
            text += "    <method name=\"\(escaped(method.name))\">\n"
            for (argument, direction) in arguments {
                text += "      <arg type=\"\(escaped(argument.signature))\" name=\"\(escaped(argument.name))\" direction=\"\(direction)\"/>\n"
            }
            text += "    </method>\n"
        }
        for signal in interface.signals {
            text += "    <signal name=\"\(escaped(signal.name))\">\n"
            for argument in signal.arguments {
                text += "      <arg type=\"\(escaped(argument.signature))\" name=\"\(escaped(argument.name))\"/>\n"
            }
            text += "    </signal>\n"
        }
        for property in interface.properties {
            text += "    <property name=\"\(escaped(property.name))\" type=\"\(escaped(property.signature))\" access=\"\(property.access)\""
            if property.changeSignal == .emits {
                text += "/>\n"
            } else {
                text += ">\n      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(property.changeSignal.rawValue)\"/>\n"
                text += "    </property>\n"
            }
        }
        return text + "  </interface>\n"
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
