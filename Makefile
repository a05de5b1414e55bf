# dlsched — make demo (build and solve the paper's Fig. 6 star), make test.
GO      ?= go
BIN     := bin/dlsched
PKGS    := ./...
# packages whose code runs goroutines concurrently: checked with -race
RACE    := ./executor/... ./sweep/... ./solver/...
# packages built differently under the opt-in build tag highs (HiGHS)
HIGHS   := ./solver/highs ./solver/backends ./benchmarks/highs

.PHONY: all deps deps-test build demo test test-slow fuzz bench bench-full bench-lp bench-figures figures clean

all: build

# deps: what building and running need (Clp's development files);
# deps-test adds the command-line solvers the cross-checks use (optional).
deps:
	@bash scripts/deps.sh build

deps-test:
	@bash scripts/deps.sh test

build: deps
	$(GO) build -o $(BIN) ./cmd/dlsched

# The paper's Fig. 6 instance: m=10, A=1e-3, C=1e-6, D=1e4, S=1e-3, V=5e3.
demo: build
	./$(BIN) solve --topology star --m 10 --A 1e-3 --C 1e-6 --D 1e4 --S 1e-3 --V 5e3 \
		--stages 5 --gantt demo-gantt.svg
	@echo "Gantt chart written to demo-gantt.svg"

test: deps-test
	$(GO) vet $(PKGS)
	$(GO) test -count=1 $(PKGS)
	$(GO) test -count=1 -race -short $(RACE)
	@if [ "$$($(GO) env CGO_ENABLED)" = 1 ] && echo 'int main(void){return 0;}' | \
		$$($(GO) env CC) -x c - -lstdc++ -lz -o /dev/null 2>/dev/null; then \
		$(GO) vet -tags highs $(HIGHS) && $(GO) test -count=1 -tags highs $(HIGHS); \
	else echo "make test: no cgo, libstdc++.so or libz.so here, which HiGHS needs: its tests skipped"; fi
	bash scripts/fuzz.sh 3s

# The slow tier: make test plus the long simulations of the papers' tables
# that make test leaves out to stay within ten minutes on two cores
# (Pfarm's Table 3 chains of 32 and 64, Table 6 chains above 16).
test-slow: deps-test
	DLSCHED_SLOW=1 $(GO) test -count=1 -timeout 60m $(PKGS)

# Every fuzz target (readers of schedules, specs, results, graphs; the CLI's
# number parsing) for FUZZTIME each.
FUZZTIME ?= 60s
fuzz:
	bash scripts/fuzz.sh $(FUZZTIME)

# Benchmarks of README's performance section; -short leaves out the runs that
# take minutes (star n = 10,000, the largest tree). bench-full runs them too.
bench: deps
	$(GO) test -short -run '^$$' -bench . -benchtime 1x ./...

bench-full: deps
	$(GO) test -run '^$$' -bench . -benchtime 1x -timeout 2h ./...

# dlsched against the command-line LP solvers (issue 17): tables and a chart
# in benchmarks/results (about 25 minutes; README, Performance).
bench-lp: deps
	bash benchmarks/lp-speed.sh

# The figure set as issue 17 times it (no verification, 2 workers, 3,255
# LPs), with the greedy prune and with the default search in turn (issue
# 32), three rounds (benchmarks/paper/greedy-set.sh).
bench-figures: build
	PATTERN=both bash benchmarks/paper/greedy-set.sh 3 $(BIN)

clean:
	rm -rf bin demo-gantt.svg

# The paper's Figures 6-13 (docs/figures.md): the sweeps of
# benchmarks/paper/fig*.toml and their plots, in $(FIGDIR) (gitignored).
# A partial run resumes; remove $(FIGDIR) to time a full one.
# FIGEXT=svg draws SVG instead of PNG.
FIGDIR  ?= results/figures
FIGEXT  ?= png

figures: build
	FIGEXT=$(FIGEXT) bash benchmarks/paper/figures.sh $(BIN) $(FIGDIR)
