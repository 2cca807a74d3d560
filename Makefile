# The usual targets around Tools/: `make`, then `make install` (PREFIX, DESTDIR as usual).
#   make                     release build (Swift runtime linked in) and the man pages
#   make install             installs under $(DESTDIR)$(PREFIX), default /usr/local
#   make deb                 a .deb of it, in .build/deb/ (Tools/package-deb.sh)
#   make check               every test (Tools/test.sh)
PREFIX ?= /usr/local
DESTDIR ?=
SCRATCH ?= .build
export PREFIX DESTDIR SCRATCH

all:
	bash Tools/install.sh build

install:
	bash Tools/install.sh install

deb:
	bash Tools/package-deb.sh

check:
	bash Tools/test.sh

.PHONY: all install deb check
