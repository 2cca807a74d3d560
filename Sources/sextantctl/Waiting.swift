import Foundation
import SextantClient
import SextantProtocol

extension SextantConnection {
    /// Waits for an answer as long as the connection is open: loading a large trace takes
    /// the time it takes, and a daemon that dies closes the socket, which ends the wait.
    /// (The client's waits take a finite time-out, so this one is made of hour-long slices.)
    func responseWithoutLimit(to id: JSONValue) throws(ClientError) -> JSONValue {
        while true {
            do {
                return try response(to: id, timeout: 3600)
            } catch .timedOut {
                continue
            }
        }
    }
}
