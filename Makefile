# The README's two commands: `make site` and `make test`. Both set up what they need.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
RULEBOOK := $(VENV)/bin/rulebook
STAMP  := $(VENV)/.installed
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: site test system-deps bench clean schema docs

# `build` validates first (static checks and simulated games) and writes nothing on an error.
site: $(STAMP) system-deps
	$(RULEBOOK) build

test: $(STAMP) system-deps
	$(PY) -m pytest

# The virtual environment, installed from the pinned constraints; redone when they change. The
# example engine module (docs/engine.md) is installed too: the tests simulate its game through it.
EXAMPLE := examples/rulebook-engine-demo-heaps
$(STAMP): pyproject.toml constraints.txt $(EXAMPLE)/pyproject.toml | system-deps
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]' -e $(EXAMPLE)
	@touch $@

# Debian's packages the site and the tests need, installed when missing: Chromium (prints the
# PDFs and runs the browser tests; Playwright's own browser download does not work offline),
# a TrueType CJK face with Traditional glyphs for the PDFs, a CJK face for screenshots, and
# poppler's tools that the PDF tests read the PDFs with, Java for the Nu HTML Checker, GNU
# gettext, whose msgfmt --check the tests run on the exported translation files, and ICU's
# headers with a C++ compiler, which PyICU (the glossary's collation) is built with.
system-deps:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	command -v fc-list >/dev/null || missing="$$missing fontconfig"; \
	fc-list 2>/dev/null | grep -q "AR PL UMing TW" || missing="$$missing fonts-arphic-uming"; \
	fc-list 2>/dev/null | grep -q "DejaVu Sans" || missing="$$missing fonts-dejavu-core"; \
	fc-list :lang=zh-tw 2>/dev/null | grep -qi "Noto Sans CJK" || missing="$$missing fonts-noto-cjk"; \
	command -v pdffonts >/dev/null || missing="$$missing poppler-utils"; \
	command -v java >/dev/null || missing="$$missing default-jre-headless"; \
	command -v msgfmt >/dev/null || missing="$$missing gettext"; \
	pkg-config --exists icu-i18n 2>/dev/null || missing="$$missing libicu-dev pkg-config"; \
	command -v g++ >/dev/null || missing="$$missing g++"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null; then \
	    echo "installing$$missing"; \
	    $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	  else \
	    echo "please install:$$missing (e.g. apt-get install$$missing), or build without PDFs: $(RULEBOOK) build --no-pdf"; exit 1; \
	  fi; \
	fi

# Regenerate what is generated from the code: JSON Schemas, diagnostics list, schema reference.
docs: $(STAMP)
	$(RULEBOOK) schema > docs/schema/game.schema.json
	$(RULEBOOK) schema --site > docs/schema/site.schema.json
	$(PY) -m generator.docs_
	$(PY) -m generator.i18n

bench: $(STAMP)
	$(PY) bench/build_bench.py
	$(PY) bench/validate.py
	$(PY) bench/parse.py --processes

clean:
	rm -rf site build .pytest_cache
