# The usual targets around Tools/packaging and Tools/ci: `make`, then `make install` (PREFIX, DESTDIR as usual).
#   make                     release build (Swift runtime linked in) and the man pages
#   make install             installs under $(DESTDIR)$(PREFIX), default /usr/local
#   make deb                 a .deb of it, in .build/deb/ (Tools/packaging/package-deb.sh)
#   make check               every test (Tools/ci/test.sh)
PREFIX ?= /usr/local
DESTDIR ?=
SCRATCH ?= .build
export PREFIX DESTDIR SCRATCH

all:
	bash Tools/packaging/install.sh build

install:
	bash Tools/packaging/install.sh install

deb:
	bash Tools/packaging/package-deb.sh

check:
	bash Tools/ci/test.sh

.PHONY: all install deb check
