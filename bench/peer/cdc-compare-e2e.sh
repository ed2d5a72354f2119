# EXTRA_TESTS for peer-baseline.sh, the build machine's script that installs and times the peer
# pt-table-checksum (not part of this repository; sourced by it once per table, see its header):
# times cdc-compare end to end — `compare run --restart --wait`, from its start to the last
# verdict, with the report's exit code — in the same interleaved rounds as pt-table-checksum, on
# the same rows: the peer's MariaDB (bench.t, loaded from its CSV) is our target, and an embedded
# PostgreSQL source holds the same CSV. Only for table t (1 M rows by default).
#
# When first sourced it starts, in the background, the embedded environment (`env up`: Kafka,
# registry, source PostgreSQL), the capture and the verifier of target `m` (the peer's MariaDB),
# loads the source, and runs one untimed compare that must end in sync (exit 0). All three
# processes are stopped when the peer script exits (its EXIT trap is wrapped, not replaced).
#
#   mvn -B -q -DskipTests package   # in the repository: the jar ./cdc-compare runs
#   sudo SKIP_PG=1 ROWS_SMALL=1000000 ROWS_LARGE=1000000 \
#     EXTRA_TESTS=$PWD/bench/peer/cdc-compare-e2e.sh /path/to/peer-baseline.sh
#
# Knobs: CC_ROOT (the repository, default: two folders up from this file), CC_FLOW (the task's
# flow.chunks.ahead, default the task default).
if [ "$T" = t ]; then
  CC_ROOT=${CC_ROOT:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)}
  CC_DIR="$WORK/cdc-compare"
  mkdir -p "$CC_DIR"
  CC_PIDS=()
  cc_stop() {
    local p
    for p in "${CC_PIDS[@]}"; do kill -TERM "$p" 2>/dev/null; done
    for p in "${CC_PIDS[@]}"; do
      for _ in $(seq 1 60); do kill -0 "$p" 2>/dev/null || break; sleep 0.5; done
      kill -9 "$p" 2>/dev/null || true
    done
  }
  # errexit is on in the peer script: a failing command inside the trap would end it before the
  # peer's own cleanup runs, so the trap turns it off first
  trap 'cc_rc=$?; set +e; cc_stop; (exit $cc_rc); cleanup' EXIT
  cc_start() { # name, then the command: runs in the background, log in $CC_DIR/<name>.log
    local name=$1; shift
    setsid "$@" > "$CC_DIR/$name.log" 2>&1 &
    CC_PIDS+=($!)
  }
  log "cdc-compare: starting the embedded environment (kafka, registry, postgres-source)"
  cc_start env "$CC_ROOT/cdc-compare" env up --with kafka,registry,postgres-source \
    --settings-file "$CC_DIR/env.properties"
  for _ in $(seq 1 180); do grep -q '^# ready' "$CC_DIR/env.log" 2>/dev/null && break; sleep 1; done
  grep -q '^# ready' "$CC_DIR/env.log" || die "cdc-compare env up did not come up: $(tail -n 5 "$CC_DIR/env.log")"
  cc_get() { sed -n "s/^$1=//p" "$CC_DIR/env.properties"; }
  CC_PG_URL=$(cc_get postgres-source.jdbc.url)          # jdbc:postgresql://127.0.0.1:P/postgres
  CC_PG_HOSTPORT=${CC_PG_URL#jdbc:postgresql://}; CC_PG_HOSTPORT=${CC_PG_HOSTPORT%%/*}
  CC_PG_HOST=${CC_PG_HOSTPORT%:*}; CC_PG_PORT=${CC_PG_HOSTPORT#*:}
  CC_PSQL=(env PGPASSWORD="$(cc_get postgres-source.password)" psql -X -q -v ON_ERROR_STOP=1
    -h "$CC_PG_HOST" -p "$CC_PG_PORT" -U "$(cc_get postgres-source.user)" -d postgres)
  log "cdc-compare: loading t ($N rows) on the source PostgreSQL from the same CSV"
  "${CC_PSQL[@]}" -c "CREATE TABLE t (id bigint PRIMARY KEY, a int, b varchar(40), c numeric(12,2), d timestamp(6), e double precision)" > /dev/null
  "${CC_PSQL[@]}" -c "\\copy t FROM '$WORK/data/t.csv' (FORMAT csv)" > /dev/null
  "${CC_PSQL[@]}" -c "VACUUM (FREEZE, ANALYZE) t" > /dev/null
  $MY_S -e "CREATE USER IF NOT EXISTS 'cdc'@'127.0.0.1' IDENTIFIED BY 'cdc';
    GRANT ALL PRIVILEGES ON *.* TO 'cdc'@'127.0.0.1';"
  cc_common() {
    printf 'topic.prefix=peer\nbootstrap.servers=%s\nschema.registry.url=%s\n' \
      "$(cc_get bootstrap.servers)" "$(cc_get schema.registry.url)"
    printf 'source.hostname=%s\nsource.port=%s\nsource.database=postgres\nsource.user=%s\nsource.password=%s\n' \
      "$CC_PG_HOST" "$CC_PG_PORT" "$(cc_get postgres-source.user)" "$(cc_get postgres-source.password)"
    printf 'tables=public.t\n'
  }
  { cc_common; printf 'snapshot=never\n'; } > "$CC_DIR/capture.properties"
  { cc_common
    printf 'target.m.url=jdbc:mariadb://127.0.0.1:%s/bench\ntarget.m.user=cdc\ntarget.m.password=cdc\n' "$MY_PORT"
    printf 'target.m.table.public.t=bench.t\nstate.dir=%s\n' "$CC_DIR/streams"
  } > "$CC_DIR/targets.properties"
  { cc_common
    printf 'task.name=peer-t\ndeep=100\nprogress=off\ntargets=m\n'
    [ -n "${CC_FLOW:-}" ] && printf 'flow.chunks.ahead=%s\n' "$CC_FLOW"
  } > "$CC_DIR/task.properties"
  log "cdc-compare: starting the capture (snapshot=never: the rows are already on both sides) and the verifier of m"
  cc_start capture "$CC_ROOT/cdc-compare" capture -c "$CC_DIR/capture.properties"
  for _ in $(seq 1 120); do grep -q 'streaming' "$CC_DIR/capture.log" 2>/dev/null && break; sleep 1; done
  cc_start verify "$CC_ROOT/cdc-compare" verify -c "$CC_DIR/targets.properties" --target m
  sleep 15
  log "cdc-compare: one untimed compare (JIT warm-up; must end in sync)"
  timeout "$RUN_TIMEOUT" "$CC_ROOT/cdc-compare" compare run -c "$CC_DIR/task.properties" --restart --wait \
    > "$CC_DIR/warmup.out" 2>&1 || die "cdc-compare warm-up compare failed: $(tail -n 20 "$CC_DIR/warmup.out")"
  add "cdccompare_e2e@$T" "$CC_ROOT/cdc-compare compare run -c $CC_DIR/task.properties --restart --wait" "$N"
fi
