/// Why a socket could not be served (app.sock, control.sock, the gpsd face's listeners).
public struct ListenError: Error, CustomStringConvertible {
    public var description: String

    package init(description: String) { self.description = description }
}
