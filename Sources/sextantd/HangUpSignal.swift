import Dispatch
import Foundation
import Logging

/// SIGHUP would kill the daemon (status 129) and leave both socket files behind. The
/// daemon has no configuration file to reload and logs to standard error, which it does
/// not reopen, so a hang-up is logged and otherwise ignored (sextantd(8) "SIGNALS").
enum HangUpSignal {
    static func ignore(logger: Logger) -> DispatchSourceSignal {
        // Past a file-size limit (the units' LimitFSIZE=, bounding the state directory) a
        // write fails with EFBIG, which the store reports, instead of the daemon being killed.
        signal(SIGXFSZ, SIG_IGN)
        signal(SIGHUP, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        source.setEventHandler { logger.notice("SIGHUP ignored: sextantd has nothing to reload; stop it with SIGTERM") }
        source.resume()
        return source
    }
}
