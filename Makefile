# Builds the engine the way OpenBench-style workers do: `make EXE=path/name` compiles with cargo
# (release profile) and copies the binary to EXE. `make` alone leaves it at ./fairybridge.
# The worker then runs `EXE bench` and reads its `N nodes M nps` line.

EXE ?= fairybridge
CARGO ?= cargo
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

.PHONY: all clean

all:
	$(CARGO) build --release --bin fairybridge
	cp "$(TARGET_DIR)/release/fairybridge" "$(EXE)"

clean:
	$(CARGO) clean
