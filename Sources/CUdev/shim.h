// Reaches libudev from Swift.
#include <libudev.h>
