# The README's two commands: `make site` and `make test`. Both set up what they need.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
RULEBOOK := $(VENV)/bin/rulebook
STAMP  := $(VENV)/.installed
SUDO   := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: site test browser-deps bench clean schema

site: $(STAMP)
	$(RULEBOOK) validate
	$(RULEBOOK) build

test: $(STAMP) browser-deps
	$(PY) -m pytest

# The virtual environment, installed from the pinned constraints; redone when they change.
$(STAMP): pyproject.toml constraints.txt
	@[ -x $(PY) ] || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[test]'
	@touch $@

# Debian's Chromium (Playwright's own browser download does not work offline) and a CJK font.
browser-deps:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="$$missing chromium"; \
	fc-list :lang=zh-tw 2>/dev/null | grep -q . || missing="$$missing fonts-noto-cjk"; \
	command -v fc-list >/dev/null || missing="$$missing fontconfig"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ] || command -v sudo >/dev/null; then \
	    echo "installing$$missing"; \
	    $(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing; \
	  else \
	    echo "please install:$$missing (e.g. apt-get install$$missing)"; exit 1; \
	  fi; \
	fi

schema: $(STAMP)
	$(RULEBOOK) schema > docs/schema/game.schema.json
	$(RULEBOOK) schema --site > docs/schema/site.schema.json

bench: $(STAMP)
	$(PY) bench/build_bench.py

clean:
	rm -rf site build .pytest_cache
