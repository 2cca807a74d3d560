// Reaches sd-bus (libsystemd) from Swift.
//
// Swift cannot call C variadic functions (sd_bus_message_append, sd_bus_message_read,
// sd_bus_reply_method_return...) nor use the SD_BUS_ERROR_NULL initialiser, so Sextant
// speaks to sd-bus only through its non-variadic calls (append_basic, read_basic,
// open/enter_container) and these few helpers.
#include <systemd/sd-bus.h>
#include <sys/eventfd.h>

// An empty error, as SD_BUS_ERROR_NULL makes it.
static inline sd_bus_error sextant_bus_error_null(void) {
    sd_bus_error error = SD_BUS_ERROR_NULL;
    return error;
}

// A reply with no arguments (sd_bus_reply_method_return is variadic).
static inline int sextant_bus_reply_empty(sd_bus_message *call) {
    return sd_bus_reply_method_return(call, NULL);
}
